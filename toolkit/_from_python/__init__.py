"""Python callable → :class:`~toolkit.ToolContract` → :class:`~toolkit.Tool`.

The signature is read with real parameter names and resolved annotations; each parameter becomes a field of
a pydantic model (``extra="forbid"``), whose JSON Schema is the tool's ``args_schema`` and whose validation
turns checked JSON arguments back into real Python objects (``date``, ``Decimal``, enums, models,
dataclasses, sets, tuples, TypedDicts) for the call. Descriptions come from ``Annotated[T,
Field(description=...)]``, then ``Annotated[T, "text"]``, then the docstring (Google, NumPy or reST, read
line by line where a line is malformed), then the schema of the framework's tool object it came from.

Parameters a runtime fills are injected rather than declared (:mod:`._injected`); a framework's tool object
gives up its function and what it knows (:mod:`._frameworks`).

Anything that cannot become an honest tool is refused with a :class:`~toolkit.SignatureError` whose slug
names the problem and whose message says how to fix it.
"""

from __future__ import annotations

import inspect
import re
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from typing import Annotated, Any, NamedTuple

from pydantic import BaseModel, ConfigDict, Field, create_model
from pydantic.errors import PydanticUserError
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined

from toolkit._contract import CONVERTED, Effect, Injected, Policy, ToolContract
from toolkit._exceptions import SignatureError
from toolkit._from_python._args_schema import args_schema_of
from toolkit._from_python._docstrings import Docstring, parse_docstring
from toolkit._from_python._frameworks import read_tool_object
from toolkit._from_python._injected import classify
from toolkit._from_python._signature import (
    callable_target,
    check_kind,
    check_name,
    parameters,
    qualname,
    unresolved,
)
from toolkit._from_python._signature import tool_name as tool_name_of
from toolkit._from_python._typeddict import convert_annotation
from toolkit._lowering._budget import DEFAULT, Budget
from toolkit._tool import DomainCheck, Tool, build_tool

__all__ = ["from_function"]


class _Param(NamedTuple):
    """One model-visible parameter: its real name, resolved annotation, default and description."""

    name: str
    annotation: Any
    default: Any
    description: str | None


def from_function(
    fn: Callable[..., Any],
    *,
    namespace: str | None = None,
    name: str | None = None,
    description: str | None = None,
    effect: Effect = "write",
    confirm: bool | None = None,
    policy: Policy | None = None,
    domain: Iterable[DomainCheck] = (),
    budget: Budget = DEFAULT,
) -> Tool:
    """Build a :class:`~toolkit.Tool` from a typed, documented Python callable or a framework's tool object.

    ``fn`` may be a function, method or callable object, or a tool object of an agent framework (google-adk
    ``FunctionTool``, a LangChain tool, a FastMCP or MCP tool, an OpenAI Agents ``FunctionTool``, a
    pydantic-ai ``Tool``, an agno ``Function``, a smolagents ``Tool``, a llama-index tool, a haystack
    ``Tool``, a CrewAI tool, an AG2 ``Tool``), or a tool class's bound ``_run``/``_arun``: its function is
    read, and its name, description and parameter descriptions are kept. Parameters a runtime fills
    (toolkit's :class:`~toolkit.ToolContext`, the frameworks' contexts) are injected: left out of the
    declaration and listed in ``tool.contract.injected``.

    ``name`` defaults to the function's (or tool object's) name and is prefixed with ``namespace + "_"``
    when a namespace is given. ``description`` defaults to the docstring's summary and body. ``effect``
    defaults to ``"write"`` (the safe assumption); ``confirm`` defaults to ``False``. ``domain`` checks run
    after structural validation and give ``status: "rejected"`` (a ``Decimal``'s ``Field`` bounds, which its
    schema cannot state, are checked this way too: by converting the arguments, in ``validate`` as in
    ``call``). ``budget`` bounds the declaration's size in bytes (``"default"``: 8 KiB; ``None``: no bound;
    ``policy.declaration_budget`` wins): over it, the declaration is reduced with losses; when no reduction
    fits, a set budget raises ``SchemaError`` (slug ``declaration_over_budget``) and the default one builds it
    whole with the error lint TK504.
    """
    if effect not in ("read", "write"):
        raise SignatureError(f"effect={effect!r} is not 'read' or 'write'; pass one of those", slug="bad_effect")
    source = read_tool_object(fn)
    target = source.function if source is not None else fn
    doc = _docstring(callable_target(target))
    tool_name = tool_name_of(target, namespace, name if name is not None or source is None else source.name)
    where = qualname(target)
    framework = source.source.framework if source is not None else None
    described = {**(source.descriptions if source is not None else {}), **doc.params}
    fields = source.fields if source is not None else {}
    hidden = source.hidden if source is not None else {}
    params, injected = _params(target, described, where, framework, fields, hidden)
    model = _arguments_model(params, where)
    try:
        args_schema, losses = args_schema_of(model)
    except (PydanticUserError, TypeError, ValueError) as exc:
        raise _unsupported(where, exc) from exc
    if description is None:
        description = source.description if source is not None and source.description else doc.description
    contract = ToolContract(
        name=tool_name,
        description=description,
        args_schema=args_schema,
        effect=effect,
        confirm=bool(confirm),
        source="function",
        source_losses=losses,
        injected=injected,
        framework=source.source if source is not None else None,
    )
    context = [i.name for i in injected if i.framework == "toolkit"]
    converter = _converter(model, params)
    if any(loss.reason == CONVERTED for loss in losses):  # validate refuses what the conversion would
        from toolkit._validation._invoke import conversion_check  # the conversion loads for the first such tool

        domain = (conversion_check(converter), *domain)
    return build_tool(
        contract,
        policy=policy,
        domain_checks=domain,
        fn=target,
        converter=converter,
        context_param=context[0] if context else None,
        budget=budget,
    )


# -- the callable -----------------------------------------------------------------------------------------
def _docstring(target: Any) -> Docstring:
    """The function's docstring; for a class or callable object, the class's description and the params
    documented on the class or on ``__init__``/``__call__``."""
    if inspect.isfunction(target) or inspect.ismethod(target) or inspect.isbuiltin(target):
        return parse_docstring(target)
    cls, method = (target, "__init__") if isinstance(target, type) else (type(target), "__call__")
    own, call = parse_docstring(cls), parse_docstring(cls.__dict__.get(method, ""))  # never object.__init__
    return Docstring(own.description or call.description, {**own.params, **call.params}, own.notes + call.notes)


# -- the parameters ---------------------------------------------------------------------------------------
def _params(
    fn: Callable[..., Any],
    doc_params: Mapping[str, str],
    where: str,
    framework: str | None,
    fields: Mapping[str, FieldInfo],
    hidden: Mapping[str, str],
) -> tuple[list[_Param], tuple[Injected, ...]]:
    params: list[_Param] = []
    injected: list[Injected] = []
    for p, annotation in parameters(fn):
        if framework is not None and p.kind is p.VAR_KEYWORD:
            continue  # a framework's `**kwargs` catch-all (LangChain's _run): nothing is passed through it
        check_kind(p, where)
        found = classify(p, annotation, fn, framework, hidden)
        if found is not None:
            injected.append(found)
            continue
        if isinstance(annotation, str):
            raise unresolved(p.name, annotation, where)
        check_name(p.name, where)
        if p.name in fields:
            p, annotation = _from_field(p, fields[p.name])
        annotation, default = _annotation_and_default(p, annotation, where)
        params.append(_Param(p.name, annotation, default, _description(annotation, doc_params.get(p.name))))
    own = [i.name for i in injected if i.framework == "toolkit"]
    if len(own) > 1:
        raise SignatureError(
            f"{where} has two ToolContext parameters ({own[0]!r}, {own[1]!r}); keep one", slug="duplicate_context"
        )
    return params, tuple(injected)


def _from_field(p: inspect.Parameter, info: FieldInfo) -> tuple[inspect.Parameter, Any]:
    """The parameter as a framework's model field declares it: its type, constraints and default."""
    annotation = Annotated[(info.annotation, *info.metadata)] if info.metadata else info.annotation
    default = p.empty if info.is_required() else info.get_default(call_default_factory=True)
    return p.replace(default=default), annotation


def _annotation_and_default(p: inspect.Parameter, annotation: Any, where: str) -> tuple[Any, Any]:
    if annotation is p.empty:
        raise SignatureError(
            f"parameter {p.name!r} of {where} has no type annotation; annotate it (e.g. `{p.name}: str`) so "
            "the model is told what to send",
            slug="missing_annotation",
        )
    annotation, default = convert_annotation(annotation), p.default
    if isinstance(default, FieldInfo):  # `x: int = Field(10, ge=1)`
        annotation, default = Annotated[annotation, default], _field_default(default)
    if default is None and not _admits_none(annotation):
        annotation = annotation | None  # a None default means the parameter is optional and nullable
    return annotation, default


def _field_default(info: FieldInfo) -> Any:

    return inspect.Parameter.empty if info.default is PydanticUndefined else info.default


def _admits_none(annotation: Any) -> bool:
    if annotation is None or annotation is type(None) or annotation is Any:
        return True
    origin = typing.get_origin(annotation)
    if origin is Annotated:
        return _admits_none(typing.get_args(annotation)[0])
    if origin in (typing.Union, types.UnionType):
        return any(_admits_none(a) for a in typing.get_args(annotation))
    if origin is typing.Literal:
        return None in typing.get_args(annotation)
    return False


def _description(annotation: Any, from_doc: str | None) -> str | None:
    """Description to attach: ``None`` when a ``Field(description=...)`` already carries one (it wins)."""
    if typing.get_origin(annotation) is not Annotated:
        return from_doc
    metadata = typing.get_args(annotation)[1:]
    if any(isinstance(m, FieldInfo) and m.description for m in metadata):
        return None
    texts = [m.strip() for m in metadata if isinstance(m, str) and m.strip()]
    return texts[0] if texts else from_doc


# -- the pydantic model and the converter ----------------------------------------------------------------
def _arguments_model(params: list[_Param], where: str) -> type[BaseModel]:
    """A pydantic model with one field per parameter; internal field names, real names as aliases.

    Aliases keep any legal parameter name usable (``json``, ``model_id``, ``_private``) without clashing
    with pydantic's own attributes or namespaces.
    """
    fields: dict[str, Any] = {}
    for i, p in enumerate(params):
        extra: dict[str, Any] = {} if p.description is None else {"description": p.description}
        has_default = p.default is not inspect.Parameter.empty
        info = Field(p.default, alias=p.name, **extra) if has_default else Field(alias=p.name, **extra)
        fields[f"p{i}"] = (p.annotation, info)
    config = ConfigDict(extra="forbid", populate_by_name=False, arbitrary_types_allowed=False)
    try:
        return create_model(re.sub(r"\W", "_", where) + "_args", __config__=config, **fields)
    except (PydanticUserError, TypeError, ValueError) as exc:
        raise _unsupported(where, exc) from exc


def _unsupported(where: str, exc: Exception) -> SignatureError:
    detail = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return SignatureError(
        f"{where} has a parameter type that cannot be described as JSON Schema ({detail}). Use JSON-friendly "
        "types (str, int, float, bool, date, Decimal, Enum, Literal, list, dict[str, X], dataclasses, "
        "pydantic models, TypedDict) or wrap the value in one. A value the runtime passes rather than the model "
        "is injected instead: annotate it toolkit.ToolContext (or a framework's context type: google-adk "
        "ToolContext, a LangChain run manager, MCP Context, RunContextWrapper, RunContext)",
        slug="unsupported_type",
    )


def _converter(model: type[BaseModel], params: list[_Param]) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """Validated JSON arguments → keyword arguments of real Python objects, through the same model."""
    names = {f"p{i}": p.name for i, p in enumerate(params)}

    def convert(args: dict[str, Any]) -> dict[str, Any]:
        instance = model.model_validate(args)
        return {names[field]: getattr(instance, field) for field in names if field in instance.model_fields_set}

    convert.__doc__ = f"Convert validated JSON arguments to keyword arguments ({', '.join(names.values())})."
    return convert
