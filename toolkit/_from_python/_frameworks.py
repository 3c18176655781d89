"""Agent frameworks' tool objects: the function inside, and the truth the object carries about it.

:func:`read_tool_object` recognises an object by the qualified names of its class and bases (so no framework
is imported to ask) and returns the function to derive the contract from, with what the framework holds
(the readers are in :mod:`._framework_readers`):

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
smolagents     ``smolagents.Tool``, ``@tool``              ``.forward``                 ``.inputs``
llama-index    ``FunctionTool``, any ``BaseTool``           ``.real_fn``, else ``.call`` ``.metadata.fn_schema``
haystack       ``Tool``, ``ComponentTool``, ``@tool``       ``.function``, else the      ``.parameters``
                                                           component's ``run``
crewai         ``BaseTool``, ``@tool``                     ``.func``, else ``._run``    ``.args_schema``
ag2            ``ag2.tools.FunctionTool``, ``@tool``        ``.model.call`` (unwrapped)  ``.schema.function``
ag2 < 1.0      ``autogen.tools.Tool``                      ``.func``                    ``.tool_schema``
=============  ==========================================  ===========================  ===========================

The object's name is the tool's name; its description is used unless it is only the function's docstring
again (ADK, LangChain and MCP send the whole docstring, ``Args:`` included: toolkit reads the docstring
itself); the parameter descriptions its schema carries fill those the docstring lacks. A model the framework
validates arguments against before it calls the function (LangChain's and CrewAI's ``args_schema``) stands
in for the function's annotations: its fields' types, constraints, defaults. A function that takes only
``**kwargs`` (a tool class's ``_run``, a llama-index tool's ``call``) is given a signature made of those
fields (or of the framework's JSON Schema). A bound ``_run``/``_arun`` (``forward`` for smolagents) of a
tool object is read with its owner. Parameters the framework fills for this object (haystack's
``inputs_from_state``, llama-index's workflow ``Context``) are injected. Reading the schema never fails the
build: a framework that refuses to declare the tool is recorded as a refusal, which a lint shows.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple

from toolkit._contract import FrameworkSource
from toolkit._exceptions import SignatureError
from toolkit._from_python._injected import dotted

if TYPE_CHECKING:
    from toolkit._from_python._framework_readers import Read

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
    """pydantic ``FieldInfo`` by parameter name, from the model the framework validates arguments against
    (or its JSON Schema, for parameters it alone types), so their types, constraints and defaults replace
    the function's own."""
    hidden: Mapping[str, str] = MappingProxyType({})
    """Parameters the framework fills for this object, by name, with the reason."""


def read_tool_object(obj: Any) -> ToolObject | None:
    """The tool object's function and truth, or ``None`` when ``obj`` is no known framework's tool object."""
    if inspect.isfunction(obj) or inspect.ismethod(obj):
        meta = getattr(obj, "__fastmcp__", None)
        if dotted(type(meta)) == "fastmcp.tools.function_tool.ToolMeta":
            return _fastmcp_function(obj, meta)
        owner = getattr(obj, "__self__", None)
        if getattr(obj, "__name__", None) in ("_run", "_arun", "forward") and owner is not None:
            return _read(owner, obj)  # a tool class's own method: its owner's schema describes it
        return None
    return _read(obj, None)


def _read(obj: Any, method: Any) -> ToolObject | None:
    # the readers (and pydantic's FieldInfo) load for an object that may be a framework's, not for a function
    from toolkit._from_python._framework_readers import READERS

    names = {dotted(c) for c in getattr(type(obj), "__mro__", ())}
    for (framework, marker), reader in READERS.items():
        if marker in names:
            read = reader(obj)
            return _tool_object(obj, framework, read if method is None else read._replace(function=method))
    return None


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


def _tool_object(obj: Any, framework: str, read: Read) -> ToolObject:
    # loaded already: _read found this object's reader there
    from toolkit._from_python._framework_readers import with_fields

    kind = dotted(type(obj))
    fn = read.function
    if not callable(fn):
        raise SignatureError(
            f"this {framework} tool object ({kind}) carries no Python function toolkit can read; pass the "
            "function it was made from to from_function instead",
            slug="no_tool_function",
        )
    schema, refusal = _schema(read.schema)
    name = read.name if read.name is not None else getattr(obj, "name", None)
    description = read.description if read.description is not None else getattr(obj, "description", None)
    return ToolObject(
        source=FrameworkSource(framework, kind, schema, refusal),
        function=with_fields(fn, read.fields),
        name=name if isinstance(name, str) and name else None,
        description=None if _is_docstring(description, fn) else description,
        descriptions=_descriptions(schema),
        fields=read.fields,
        hidden=read.hidden,
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
