"""One reader per agent framework: a tool object's function, its schema, and what the framework says about it.

Each reader takes a tool object (recognised by :mod:`._frameworks` by qualified class names) and returns a
:class:`Read`. No reader imports its framework unless the object came from it (then the framework is loaded
already); most read attributes only.

Where a framework's function takes no named parameters (``**kwargs``: a CrewAI or LangChain ``_run``, a
llama-index tool's ``call``, a haystack function), the parameters come from the model the framework validates
arguments against (``args_schema``, ``fn_schema``) or from its JSON Schema, as pydantic fields
(:func:`fields_of_json_schema`); :mod:`._frameworks` gives the function a signature made of them.
"""

from __future__ import annotations

import inspect
import typing
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, NamedTuple

from pydantic.fields import FieldInfo

from toolkit._from_python._injected import dotted
from toolkit._from_python._keyword_signature import with_fields

__all__ = ["READERS", "Read", "fields_of_json_schema", "with_fields"]


class Read(NamedTuple):
    """What a reader found: the function, a thunk for the framework's parameters schema, and overrides."""

    function: Any
    schema: Callable[[], Any]
    name: Any = None
    """The tool's name where the object holds it elsewhere than ``.name``."""
    description: Any = None
    """The tool's description where the object holds it elsewhere than ``.description``."""
    fields: Mapping[str, Any] = MappingProxyType({})
    """pydantic ``FieldInfo`` by parameter name: what the framework validates against, or declares."""
    hidden: Mapping[str, str] = MappingProxyType({})
    """Parameters this object's framework fills, by name, with the reason."""


def _model_fields(model: Any) -> Mapping[str, Any]:
    """The fields of a pydantic model class (a dict schema, or none, has none to give)."""
    fields = getattr(model, "model_fields", None) if isinstance(model, type) else None
    return dict(fields) if isinstance(fields, Mapping) else {}


def _model_schema(model: Any) -> Any:
    return model if isinstance(model, Mapping) else model.model_json_schema()


# -- JSON Schema → fields (a framework that declares parameters only as JSON) -------------------------------
_JSON_TYPES: Mapping[str, Any] = {"string": str, "integer": int, "number": float, "boolean": bool, "null": None}


def _annotation_of(node: Any) -> Any:
    """The Python type a JSON Schema node stands for, as far as a plain annotation can say it."""
    if not isinstance(node, Mapping):
        return Any
    if isinstance(node.get("enum"), list) and node["enum"]:
        return typing.Literal[tuple(node["enum"])]
    kind = node.get("type")
    if isinstance(kind, list):
        members = [_annotation_of({**node, "type": k}) for k in kind]
        return typing.Union[tuple(members)] if members else Any  # noqa: UP007 (a runtime-built union)
    if kind == "array":
        return list[_annotation_of(node.get("items"))]  # type: ignore[misc]
    if kind == "object":
        return dict[str, Any]
    annotation = _JSON_TYPES.get(kind, Any) if isinstance(kind, str) else Any
    return annotation | None if node.get("nullable") is True and annotation not in (Any, None) else annotation


def fields_of_json_schema(schema: Any, names: Any = None) -> Mapping[str, Any]:
    """pydantic fields for the top-level properties of an object schema (all of them, or those in ``names``)."""
    properties = schema.get("properties") if isinstance(schema, Mapping) else None
    if not isinstance(properties, Mapping):
        return {}
    required = set(schema.get("required") or ())
    found: dict[str, Any] = {}
    for name, node in properties.items():
        if names is not None and name not in names:
            continue
        annotation = _annotation_of(node)
        if name in required:
            found[name] = FieldInfo.from_annotation(annotation)
        else:
            default = node.get("default") if isinstance(node, Mapping) else None
            found[name] = FieldInfo.from_annotated_attribute(annotation, default)
    return found


def _untyped(fn: Any) -> set[str]:
    """The names of ``fn``'s parameters that carry no annotation."""
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError):
        return set()
    return {p.name for p in signature.parameters.values() if p.annotation is p.empty}


# -- the frameworks toolkit read first ----------------------------------------------------------------------
def _adk(obj: Any) -> Read:
    def schema() -> Any:
        declaration = obj._get_declaration()
        if declaration is None:
            return None
        if declaration.parameters_json_schema is not None:
            return declaration.parameters_json_schema
        if declaration.parameters is None:
            return {"type": "object", "properties": {}}
        return _lower_types(declaration.parameters.model_dump(mode="json", exclude_none=True, by_alias=True))

    return Read(obj.func, schema)


def _lower_types(node: Any) -> Any:
    """A genai ``Schema`` dump (``"STRING"``, ``"OBJECT"``) with JSON Schema's lowercase type names."""
    if isinstance(node, list):
        return [_lower_types(item) for item in node]
    if not isinstance(node, Mapping):
        return node
    return {k: v.lower() if k == "type" and isinstance(v, str) else _lower_types(v) for k, v in node.items()}


def _langchain(obj: Any) -> Read:
    fn = getattr(obj, "func", None) or getattr(obj, "coroutine", None)
    if fn is None and "func" not in getattr(type(obj), "model_fields", {}):  # a BaseTool subclass: _run or _arun
        fn = _run_or_arun(obj, "langchain_core.tools.base.BaseTool")
    return Read(fn, lambda: _model_schema(obj.tool_call_schema), fields=_model_fields(obj.args_schema))


def _run_or_arun(obj: Any, base: str) -> Any:
    """The bound ``_run`` a tool class overrides, else its ``_arun``."""
    bases = [c for c in type(obj).__mro__ if dotted(c) == base]
    inherited = getattr(bases[0], "_run", None) if bases else None
    return obj._run if type(obj)._run is not inherited else obj._arun


def _fn_and_parameters(obj: Any) -> Read:
    return Read(getattr(obj, "fn", None), lambda: obj.parameters)


def _openai_agents(obj: Any) -> Read:
    return Read(getattr(obj, "__wrapped__", None), lambda: obj.params_json_schema)


def _pydantic_ai(obj: Any) -> Read:
    return Read(getattr(obj, "function", None), lambda: obj.tool_def.parameters_json_schema)


def _agno(obj: Any) -> Read:
    entrypoint = getattr(obj, "entrypoint", None)
    return Read((inspect.unwrap(entrypoint) if entrypoint is not None else None), lambda: obj.parameters)


# -- smolagents, llama-index, haystack, CrewAI, AG2 --------------------------------------------------------
def _smolagents(obj: Any) -> Read:
    """``inputs`` describe ``forward`` in smolagents' own types (``nullable`` marks a parameter that may be
    left out, and is sent as such: the model may send null); ``@tool`` stores the function as a static
    ``forward`` with a pretend ``self``, so the function itself is read then. An unannotated parameter of
    ``forward`` takes its type from ``inputs``."""
    forward = getattr(obj, "forward", None)
    fn = forward if inspect.ismethod(forward) or forward is None else inspect.unwrap(forward)

    def schema() -> Any:
        inputs: Mapping[str, Any] = obj.inputs
        properties = {name: _smolagents_node(spec) for name, spec in inputs.items()}
        required = [name for name, spec in inputs.items() if not spec.get("nullable")]
        return {"type": "object", "properties": properties, "required": required}

    declared, _ = _try(schema)
    return Read(fn, schema, fields=fields_of_json_schema(declared, _untyped(fn)) if fn is not None else {})


def _smolagents_node(spec: Mapping[str, Any]) -> dict[str, Any]:
    """An ``inputs`` entry as the JSON Schema smolagents sends, except that ``any``, ``image`` and ``audio``
    (which smolagents sends as strings) stand for any value, as smolagents accepts one."""
    node = dict(spec)
    if node.get("type") in ("any", "image", "audio"):
        del node["type"]
        node.pop("nullable", None)
    return node


def _try(thunk: Callable[[], Any]) -> tuple[Any, Exception | None]:
    try:
        return thunk(), None
    except Exception as exc:  # the framework's refusal is recorded where the schema is read for the contract
        return None, exc


def _llama_index(obj: Any) -> Read:
    """A ``FunctionTool`` wraps ``real_fn``; any other tool (a query engine's, a custom ``BaseTool``) takes
    the fields of ``metadata.fn_schema`` through ``call``. The description starts with the signature."""
    metadata = obj.metadata
    fn = getattr(obj, "real_fn", None)
    fields: Mapping[str, Any] = {}
    if fn is None:
        fn = obj.call
        fields = _model_fields(metadata.fn_schema)
    hidden = {}
    ctx = getattr(obj, "ctx_param_name", None)
    if isinstance(ctx, str) and ctx:
        hidden[ctx] = "llama-index passes the workflow Context to a tool that asks for it"
    return Read(
        fn,
        metadata.get_parameters_dict,
        name=metadata.name,
        description=_without_signature(metadata.description, metadata.name),
        fields=fields,
        hidden=hidden,
    )


def _without_signature(description: Any, name: Any) -> Any:
    """llama-index writes ``name(signature)`` as the first line of a function tool's description."""
    if isinstance(description, str) and isinstance(name, str) and description.startswith(f"{name}("):
        return description.partition("\n")[2]
    return description


def _haystack(obj: Any) -> Read:
    """A ``ComponentTool`` calls its component's ``run``; ``inputs_from_state`` parameters come from the
    agent's state, never the model. A function taking only ``**kwargs`` takes its parameters from the JSON."""
    component = getattr(obj, "_component", None)
    run = getattr(component, "run", None)
    fn = run if run is not None and dotted(type(obj)).endswith("ComponentTool") else obj.function
    state = getattr(obj, "inputs_from_state", None) or {}
    hidden = {name: f"haystack fills {name} from the agent's state ({key})" for key, name in state.items()}
    fields = {} if _named(fn) else fields_of_json_schema(obj.parameters)
    return Read(fn, lambda: obj.parameters, fields=fields, hidden=hidden)


def _named(fn: Any) -> list[str]:
    try:
        parameters = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return []
    return [p.name for p in parameters if p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)]


def _crewai(obj: Any) -> Read:
    """``@tool`` makes a ``Tool`` with ``func``; a ``BaseTool`` subclass runs ``_run``, whose arguments CrewAI
    validates against ``args_schema`` first. CrewAI sends the name sanitised (``"Add numbers"`` becomes
    ``add_numbers``) and the description without the ``Tool Name: ...`` block it may hold."""
    fn = getattr(obj, "func", None) or _run_or_arun(obj, "crewai.tools.base_tool.BaseTool")
    name, description = obj.name, obj.description
    try:  # the object came from CrewAI, so CrewAI is loaded: its own rules name and describe the tool
        from crewai.utilities.agent_utils import strip_composite_description_prefix
        from crewai.utilities.string_utils import sanitize_tool_name
    except ImportError:  # a CrewAI without them sends the name and description as they are
        pass
    else:
        name, description = sanitize_tool_name(name), strip_composite_description_prefix(description)
    return Read(
        fn,
        lambda: _model_schema(obj.args_schema),
        name=name,
        description=description,
        fields=_model_fields(obj.args_schema),
    )


def _ag2(obj: Any) -> Read:
    """AG2's ``FunctionTool`` holds the function in a FastDepends call model (wrapped to run async) and the
    declaration it sends in ``schema.function``."""
    call = getattr(getattr(obj, "model", None), "call", None)
    definition = obj.schema.function
    return Read(
        inspect.unwrap(call) if call is not None else None,
        lambda: definition.parameters,
        name=definition.name,
        description=definition.description,
    )


def _autogen(obj: Any) -> Read:
    """AG2 before 1.0 (``autogen.tools.Tool``): ``func`` already has the parameters AG2 injects (its
    ``ChatContext``, ``Depends(...)``) taken out of its signature, and fills them when called."""
    definition = obj.tool_schema["function"]
    return Read(
        getattr(obj, "func", None),
        lambda: definition["parameters"],
        name=definition.get("name"),
        description=definition.get("description"),
    )


Reader = Callable[[Any], Read]
READERS: Mapping[tuple[str, str], Reader] = {
    ("google-adk", "google.adk.tools.function_tool.FunctionTool"): _adk,
    ("langchain", "langchain_core.tools.base.BaseTool"): _langchain,
    ("fastmcp", "fastmcp.tools.base.Tool"): _fn_and_parameters,
    ("mcp", "mcp.server.mcpserver.tools.base.Tool"): _fn_and_parameters,
    ("mcp", "mcp.server.fastmcp.tools.base.Tool"): _fn_and_parameters,  # mcp 1.x
    ("openai-agents", "agents.tool.FunctionTool"): _openai_agents,
    ("pydantic-ai", "pydantic_ai.tools.Tool"): _pydantic_ai,
    ("agno", "agno.tools.function.Function"): _agno,
    ("smolagents", "smolagents.tools.Tool"): _smolagents,
    ("llama-index", "llama_index.core.tools.types.BaseTool"): _llama_index,
    ("haystack", "haystack.tools.tool.Tool"): _haystack,
    ("crewai", "crewai.tools.base_tool.BaseTool"): _crewai,
    ("ag2", "ag2.tools.final.function_tool.FunctionTool"): _ag2,
    ("ag2", "autogen.tools.tool.Tool"): _autogen,
}
