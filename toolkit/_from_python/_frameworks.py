"""Agent frameworks' tool objects: the function inside, and the truth the object carries about it.

:func:`read_tool_object` recognises an object by the qualified names of its class and bases (so no framework
is imported to ask) and returns the function to derive the contract from, with what the framework holds:

=============  ==========================================  ===========================  ===========================
framework      object                                      function                     its parameters schema
=============  ==========================================  ===========================  ===========================
google-adk     ``google.adk.tools.FunctionTool``           ``.func``                    ``_get_declaration()``
langchain      ``BaseTool``, ``StructuredTool``, ``@tool``  ``.func``/``.coroutine``,    ``.tool_call_schema``
                                                           else the bound ``._run``
fastmcp        ``fastmcp.tools.FunctionTool``              ``.fn``                      ``.parameters``
mcp            ``mcp.server.mcpserver`` ``Tool``            ``.fn``                      ``.parameters``
openai-agents  ``agents.FunctionTool``                     ``.__wrapped__``             ``.params_json_schema``
pydantic-ai    ``pydantic_ai.Tool``                        ``.function``                ``.tool_def...schema``
agno           ``agno.tools.function.Function``            ``.entrypoint`` (unwrapped)  ``.parameters``
=============  ==========================================  ===========================  ===========================

The object's name is the tool's name; its description is used unless it is only the function's docstring
again (ADK, LangChain and MCP send the whole docstring, ``Args:`` included: toolkit reads the docstring
itself); the parameter descriptions its schema carries fill those the docstring lacks. A LangChain tool's
``args_schema`` model is what LangChain validates the arguments against before it calls ``_run``, so its
fields (type, constraints, default, description) stand in for the annotations of ``_run``. Reading the
schema never fails the build: a framework that refuses to declare the tool is recorded as a refusal, which
a lint shows.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, NamedTuple

from toolkit._contract import FrameworkSource
from toolkit._exceptions import SignatureError

__all__ = ["ToolObject", "read_tool_object"]


class ToolObject(NamedTuple):
    """What a framework's tool object says about its tool."""

    source: FrameworkSource
    function: Callable[..., Any]
    name: str | None = None
    description: str | None = None
    """``None`` when the framework's description is the docstring again (toolkit reads that itself)."""
    descriptions: Mapping[str, str] = MappingProxyType({})
    """Parameter descriptions from the framework's schema."""
    fields: Mapping[str, Any] = MappingProxyType({})
    """pydantic ``FieldInfo`` by parameter name, from a LangChain ``args_schema`` model: what the framework
    validates arguments against, so their types, constraints and defaults replace the function's own."""


def read_tool_object(obj: Any) -> ToolObject | None:
    """The tool object's function and truth, or ``None`` when ``obj`` is no known framework's tool object."""
    if inspect.isfunction(obj) or inspect.ismethod(obj):
        meta = getattr(obj, "__fastmcp__", None)
        if _qualified(type(meta)) == "fastmcp.tools.function_tool.ToolMeta":
            return _fastmcp_function(obj, meta)
        return None
    names = {_qualified(c) for c in getattr(type(obj), "__mro__", ())}
    for (framework, marker), reader in _READERS.items():
        if marker in names:
            fn, schema_of = reader(obj)
            return _tool_object(obj, framework, fn, schema_of)
    return None


def _qualified(cls: Any) -> str:
    return f"{getattr(cls, '__module__', '')}.{getattr(cls, '__qualname__', '')}"


def _fastmcp_function(fn: Any, meta: Any) -> ToolObject:
    """A function ``@server.tool`` decorated (FastMCP 3+ returns the function, with its options attached)."""

    def schema() -> Any:
        # the function came from FastMCP, so FastMCP is installed: its own schema is read for the cross-check
        from fastmcp.tools.function_tool import FunctionTool

        return FunctionTool.from_function(fn).parameters

    found, refusal = _schema(schema)
    name, description = getattr(meta, "name", None), getattr(meta, "description", None)
    return ToolObject(
        source=FrameworkSource("fastmcp", "fastmcp.tools.function_tool.FunctionTool", found, refusal),
        function=fn,
        name=name if isinstance(name, str) and name else None,
        description=None if _is_docstring(description, fn) else description,
        descriptions=_descriptions(found),
    )


def _args_fields(obj: Any) -> Mapping[str, Any]:
    """The fields of a LangChain tool's ``args_schema`` model (a dict schema has none to give)."""
    model = getattr(obj, "args_schema", None)
    fields = getattr(model, "model_fields", None) if isinstance(model, type) else None
    return dict(fields) if isinstance(fields, Mapping) else {}


def _tool_object(obj: Any, framework: str, fn: Any, schema_of: Callable[[], Any]) -> ToolObject:
    kind = _qualified(type(obj))
    if not callable(fn):
        raise SignatureError(
            f"this {framework} tool object ({kind}) carries no Python function toolkit can read; pass the "
            "function it was made from to from_function instead",
            slug="no_tool_function",
        )
    schema, refusal = _schema(schema_of)
    name = getattr(obj, "name", None)
    description = getattr(obj, "description", None)
    return ToolObject(
        source=FrameworkSource(framework, kind, schema, refusal),
        function=fn,
        name=name if isinstance(name, str) and name else None,
        description=None if _is_docstring(description, fn) else description,
        descriptions=_descriptions(schema),
        fields=_args_fields(obj) if framework == "langchain" else {},
    )


def _schema(schema_of: Callable[[], Any]) -> tuple[Mapping[str, Any] | None, str]:
    try:
        schema = schema_of()
    except Exception as exc:  # the framework's own refusal, shown as a lint rather than failing the build
        text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
        return None, f"{type(exc).__name__}: {text}" if text else type(exc).__name__
    return (schema, "") if isinstance(schema, Mapping) else (None, "")


def _is_docstring(description: Any, fn: Any) -> bool:
    """Whether ``description`` is empty or only (a part of) the function's docstring again."""
    if not isinstance(description, str) or not description.strip():
        return True
    doc = " ".join(str(getattr(inspect.unwrap(fn), "__doc__", None) or "").split())
    return bool(doc) and " ".join(description.split()) in doc


def _descriptions(schema: Mapping[str, Any] | None) -> dict[str, str]:
    properties = (schema or {}).get("properties")
    if not isinstance(properties, Mapping):
        return {}
    found = {name: sub.get("description") for name, sub in properties.items() if isinstance(sub, Mapping)}
    return {name: " ".join(text.split()) for name, text in found.items() if isinstance(text, str) and text.strip()}


# -- one reader per framework: (the function, a thunk for its schema) --------------------------------------
Reader = Callable[[Any], tuple[Any, Callable[[], Any]]]


def _adk(obj: Any) -> tuple[Any, Callable[[], Any]]:
    def schema() -> Any:
        declaration = obj._get_declaration()
        if declaration is None:
            return None
        if declaration.parameters_json_schema is not None:
            return declaration.parameters_json_schema
        if declaration.parameters is None:
            return {"type": "object", "properties": {}}
        return _lower_types(declaration.parameters.model_dump(mode="json", exclude_none=True, by_alias=True))

    return obj.func, schema


def _lower_types(node: Any) -> Any:
    """A genai ``Schema`` dump (``"STRING"``, ``"OBJECT"``) with JSON Schema's lowercase type names."""
    if isinstance(node, list):
        return [_lower_types(item) for item in node]
    if not isinstance(node, Mapping):
        return node
    return {k: v.lower() if k == "type" and isinstance(v, str) else _lower_types(v) for k, v in node.items()}


def _langchain(obj: Any) -> tuple[Any, Callable[[], Any]]:
    fn = getattr(obj, "func", None) or getattr(obj, "coroutine", None)
    if fn is None and "func" not in getattr(type(obj), "model_fields", {}):  # a BaseTool subclass: _run or _arun
        overridden = type(obj)._run is not _base_method(obj, "_run")
        fn = obj._run if overridden else obj._arun

    def schema() -> Any:
        model = obj.tool_call_schema
        return model if isinstance(model, Mapping) else model.model_json_schema()

    return fn, schema


def _base_method(obj: Any, name: str) -> Any:
    bases = [c for c in type(obj).__mro__ if _qualified(c) == "langchain_core.tools.base.BaseTool"]
    return getattr(bases[0], name, None) if bases else None


def _fn_and_parameters(obj: Any) -> tuple[Any, Callable[[], Any]]:
    return getattr(obj, "fn", None), lambda: obj.parameters


def _openai_agents(obj: Any) -> tuple[Any, Callable[[], Any]]:
    return getattr(obj, "__wrapped__", None), lambda: obj.params_json_schema


def _pydantic_ai(obj: Any) -> tuple[Any, Callable[[], Any]]:
    return getattr(obj, "function", None), lambda: obj.tool_def.parameters_json_schema


def _agno(obj: Any) -> tuple[Any, Callable[[], Any]]:
    entrypoint = getattr(obj, "entrypoint", None)
    return (inspect.unwrap(entrypoint) if entrypoint is not None else None), lambda: obj.parameters


_READERS: Mapping[tuple[str, str], Reader] = {
    ("google-adk", "google.adk.tools.function_tool.FunctionTool"): _adk,
    ("langchain", "langchain_core.tools.base.BaseTool"): _langchain,
    ("fastmcp", "fastmcp.tools.base.Tool"): _fn_and_parameters,
    ("mcp", "mcp.server.mcpserver.tools.base.Tool"): _fn_and_parameters,
    ("mcp", "mcp.server.fastmcp.tools.base.Tool"): _fn_and_parameters,  # mcp 1.x
    ("openai-agents", "agents.tool.FunctionTool"): _openai_agents,
    ("pydantic-ai", "pydantic_ai.tools.Tool"): _pydantic_ai,
    ("agno", "agno.tools.function.Function"): _agno,
}
