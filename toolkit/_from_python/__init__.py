"""Python callable → :class:`~toolkit.ToolContract` → :class:`~toolkit.Tool`.

The signature is read with real parameter names and resolved annotations; each parameter becomes a field of
a pydantic model (``extra="forbid"``), whose JSON Schema is the tool's ``args_schema`` and whose validation
turns checked JSON arguments back into real Python objects (``date``, ``Decimal``, enums, models,
dataclasses, sets, tuples) for the call. Descriptions come from ``Annotated[T, Field(description=...)]``,
then ``Annotated[T, "text"]``, then the docstring (Google, NumPy or reST).

Anything that cannot become an honest tool is refused with a :class:`~toolkit.SignatureError` whose slug
names the problem and whose message says how to fix it.
"""

from __future__ import annotations

import functools
import inspect
import re
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, create_model
from pydantic.errors import PydanticUserError
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined

from toolkit._context import ToolContext
from toolkit._contract import PARAMETER_NAME, TOOL_NAME, Effect, Policy, ToolContract
from toolkit._exceptions import NamingError, SignatureError
from toolkit._from_python._docstrings import Docstring, parse_docstring
from toolkit._from_python._schema import args_schema_of
from toolkit._tool import DomainCheck, Tool, build_tool

__all__ = ["from_function"]


@dataclass(frozen=True, slots=True)
class _Param:
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
) -> Tool:
    """Build a :class:`~toolkit.Tool` from a typed, documented Python callable.

    ``name`` defaults to the function's name and is prefixed with ``namespace + "_"`` when a namespace is
    given. ``description`` defaults to the docstring's summary and body. ``effect`` defaults to ``"write"``
    (the safe assumption); ``confirm`` defaults to ``False``. ``domain`` checks run after structural
    validation and give ``status: "rejected"``.
    """
    if effect not in ("read", "write"):
        raise SignatureError(f"effect={effect!r} is not 'read' or 'write'; pass one of those", slug="bad_effect")
    doc = _docstring(_callable_target(fn))
    tool_name = _tool_name(fn, namespace, name)
    signature = _signature(fn)
    params, context_param = _params(signature, doc.params, _qualname(fn))
    model = _arguments_model(params, _qualname(fn))
    try:
        args_schema, losses = args_schema_of(model)
    except (PydanticUserError, TypeError, ValueError) as exc:
        raise _unsupported(_qualname(fn), exc) from exc
    contract = ToolContract(
        name=tool_name,
        description=doc.description if description is None else description,
        args_schema=args_schema,
        effect=effect,
        confirm=bool(confirm),
        source="function",
        source_losses=losses,
    )
    return build_tool(
        contract,
        policy=policy,
        domain_checks=domain,
        fn=fn,
        converter=_converter(model, params),
        context_param=context_param,
    )


# -- the callable -----------------------------------------------------------------------------------------
def _callable_target(fn: Any) -> Any:
    """The object whose docstring describes ``fn`` (the function inside a partial, or the callable itself)."""
    if isinstance(fn, staticmethod | classmethod):
        raise SignatureError(
            f"{fn!r} is a raw {type(fn).__name__} object; pass it through its class, e.g. from_function(MyClass.name)",
            slug="not_callable",
        )
    if not callable(fn):
        raise SignatureError(f"{fn!r} is not callable; pass a function, method or callable object", slug="not_callable")
    while isinstance(fn, functools.partial):
        fn = fn.func
    return fn


def _docstring(target: Any) -> Docstring:
    """The function's docstring; for a class or callable object, the class's description and the params
    documented on the class or on ``__init__``/``__call__``."""
    if inspect.isfunction(target) or inspect.ismethod(target) or inspect.isbuiltin(target):
        return parse_docstring(target)
    cls, method = (target, "__init__") if isinstance(target, type) else (type(target), "__call__")
    own, call = parse_docstring(cls), parse_docstring(cls.__dict__.get(method, ""))  # never object.__init__
    return Docstring(own.description or call.description, {**own.params, **call.params})


def _qualname(fn: Any) -> str:
    target = fn.func if isinstance(fn, functools.partial) else fn
    return str(getattr(target, "__qualname__", None) or type(target).__qualname__)


def _signature(fn: Callable[..., Any]) -> inspect.Signature:
    try:
        signature = inspect.signature(fn, eval_str=True)
    except NameError as exc:
        raise SignatureError(
            f"cannot resolve an annotation of {_qualname(fn)}: {exc}. Define the type at module level (string "
            "annotations are resolved in the function's module) or import it there",
            slug="unresolved_annotation",
        ) from exc
    except (TypeError, ValueError) as exc:
        raise SignatureError(
            f"cannot read the signature of {fn!r} ({exc}); wrap it in a typed Python function",
            slug="no_signature",
        ) from exc
    first = next(iter(signature.parameters.values()), None)
    if (
        inspect.isfunction(fn)
        and first is not None
        and first.name in ("self", "cls")
        and first.annotation is first.empty
    ):
        raise SignatureError(
            f"{_qualname(fn)} is an unbound method (its first parameter is {first.name!r}); pass a bound method "
            "instead, e.g. from_function(instance.method) or from_function(MyClass.class_method)",
            slug="unbound_method",
        )
    return signature


def _tool_name(fn: Any, namespace: str | None, name: str | None) -> str:
    base = name if name is not None else _default_name(fn)
    full = f"{namespace}_{base}" if namespace else base
    if not TOOL_NAME.fullmatch(full):
        raise NamingError(
            f"tool name {full!r} breaks the declaration name rule [A-Za-z_][A-Za-z0-9_.:-]{{0,127}}; "
            "pass name= (and namespace=) made of letters, digits, '_', '.', ':' and '-', at most 128 characters",
            slug="bad_tool_name",
        )
    return full


def _default_name(fn: Any) -> str:
    target = fn.func if isinstance(fn, functools.partial) else fn
    name = getattr(target, "__name__", None)
    if name == "<lambda>":
        raise SignatureError("a lambda has no name the model can call; pass name='...'", slug="lambda_needs_name")
    if isinstance(name, str) and not isinstance(target, type):
        return name
    cls = target if isinstance(target, type) else type(target)  # classes and callable objects: snake_case
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", cls.__name__).lower()


# -- the parameters ---------------------------------------------------------------------------------------
def _params(signature: inspect.Signature, doc_params: Mapping[str, str], where: str) -> tuple[list[_Param], str | None]:
    params: list[_Param] = []
    context_param: str | None = None
    for p in signature.parameters.values():
        _check_kind(p, where)
        if _is_context(p.annotation):
            if context_param is not None:
                raise SignatureError(
                    f"{where} has two ToolContext parameters ({context_param!r}, {p.name!r}); keep one",
                    slug="duplicate_context",
                )
            context_param = p.name
            continue
        _check_name(p.name, where)
        annotation, default = _annotation_and_default(p, where)
        params.append(_Param(p.name, annotation, default, _description(annotation, doc_params.get(p.name))))
    return params, context_param


def _check_kind(p: inspect.Parameter, where: str) -> None:
    if p.kind is p.VAR_POSITIONAL:
        raise SignatureError(
            f"{where} takes *{p.name}; the model calls tools with named arguments only. Replace it with a "
            f"named list parameter, e.g. `{p.name}: list[str]`",
            slug="varargs",
        )
    if p.kind is p.VAR_KEYWORD:
        raise SignatureError(
            f"{where} takes **{p.name}; an open bag of keywords cannot be declared or validated. Name each "
            "argument as a typed parameter (or take a typed model/TypedDict)",
            slug="varkw",
        )
    if p.kind is p.POSITIONAL_ONLY:
        raise SignatureError(
            f"parameter {p.name!r} of {where} is positional-only; the model passes arguments by name. Remove "
            "the '/' from the signature",
            slug="positional_only",
        )


def _check_name(name: str, where: str) -> None:
    if not PARAMETER_NAME.fullmatch(name):
        raise SignatureError(
            f"parameter {name!r} of {where} breaks the declaration rule [A-Za-z_][A-Za-z0-9_]{{0,63}}; rename it "
            "with ASCII letters, digits and '_', at most 64 characters",
            slug="bad_parameter_name",
        )


def _is_context(annotation: Any) -> bool:
    if annotation is ToolContext:
        return True
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        members = [a for a in typing.get_args(annotation) if a is not type(None)]
        return members == [ToolContext]
    return False


def _annotation_and_default(p: inspect.Parameter, where: str) -> tuple[Any, Any]:
    if p.annotation is p.empty:
        raise SignatureError(
            f"parameter {p.name!r} of {where} has no type annotation; annotate it (e.g. `{p.name}: str`) so "
            "the model is told what to send",
            slug="missing_annotation",
        )
    annotation, default = p.annotation, p.default
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
        "pydantic models, typing_extensions.TypedDict) or wrap the value in one",
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
