"""google-adk adapter: any toolkit tool as a ``google.adk.tools.BaseTool`` (optional extra ``adk``).

    from toolkit.runtime.adk import to_adk
    agent = Agent(..., tools=[to_adk(tool) for tool in orders_tools.load_tools(config)])

The ADK tool's ``_get_declaration()`` is the tool's payload in one of the two Gemini dialects:
``to_adk(tool)`` sends the ``gemini`` declaration (``parameters``, the golden file unchanged),
``to_adk(tool, dialect="gemini_json")`` the full JSON Schema in ``parametersJsonSchema``. A declaration google-genai
refuses, or a tool the dialect cannot express, raises a :class:`~toolkit.SchemaError` (``adk_refused``) naming the
tool, never pydantic's own error.

``run_async`` goes through the toolkit runtime: strict validation, binding, credentials, confirmation,
response mapping and trimming. The model gets the envelope (``ToolResult.to_dict()``) back, never an
exception. The ADK ``ToolContext`` reaches the function twice over: toolkit's :class:`~toolkit.ToolContext`
carries its session and call ids (and the object itself in ``extras["adk_tool_context"]``), and a
parameter the function types as ADK's ``ToolContext`` (``contract.injected``) receives it directly.

Written for google-adk 2.x (the ``adk`` extra); google-adk is imported only when an adapter is made; without
it, :func:`to_adk` raises a :class:`~toolkit.RuntimeConfigError` that says how to install it.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Mapping
from typing import Any, Protocol

from toolkit._context import ToolContext
from toolkit._envelope import ToolResult
from toolkit._exceptions import RuntimeConfigError, SchemaError
from toolkit._tool import Tool

__all__ = ["ADK_DIALECTS", "CallableTool", "to_adk"]

ADK_DIALECTS = ("gemini", "gemini_json")
"""The dialects ADK sends (its models are Gemini's): ``parameters`` or ``parametersJsonSchema``."""


class CallableTool(Protocol):
    """What the adapter wraps: a :class:`toolkit.Tool` or a generated HTTP tool."""

    @property
    def name(self) -> str: ...

    @property
    def description(self) -> str: ...

    @property
    def declaration(self) -> dict[str, Any]: ...

    def call(self, args: Any, context: ToolContext | None = None) -> ToolResult: ...


def _context(tool: CallableTool, adk_context: Any) -> ToolContext:
    """The toolkit context for one ADK call: session and call ids, and the ADK context for who takes it."""
    if adk_context is None:
        return ToolContext(tool_name=tool.name)
    session = getattr(adk_context, "session", None)  # 2.x; 1.x keeps it on the invocation context only
    if session is None:
        session = getattr(getattr(adk_context, "_invocation_context", None), "session", None)
    injected = getattr(getattr(tool, "contract", None), "injected", ())
    takers = {i.name: adk_context for i in injected if i.framework == "google-adk"}
    return ToolContext(
        session_id=str(getattr(session, "id", None) or "default"),
        call_id=str(getattr(adk_context, "function_call_id", None) or ""),
        tool_name=tool.name,
        extras={"adk_tool_context": adk_context, **takers},
    )


def _payload(tool: CallableTool, dialect: str) -> dict[str, Any]:
    """The declaration ``tool`` sends in ``dialect``: its own for ``gemini``, its payload for ``gemini_json``."""
    if dialect not in ADK_DIALECTS:
        raise SchemaError(
            f"ADK sends {' or '.join(ADK_DIALECTS)} declarations, not {dialect!r}", slug="unknown_dialect"
        )
    if dialect == "gemini":
        return dict(tool.declaration)
    inner = tool if isinstance(tool, Tool) else getattr(tool, "tool", None)  # a generated HTTP tool wraps one
    if not isinstance(inner, Tool):
        raise SchemaError(f"{tool.name!r} is not a toolkit tool: its {dialect} payload is unknown", slug="adk_refused")
    payload = inner.payload(dialect)
    if payload.body is None:
        raise SchemaError(f"tool {tool.name!r} cannot be sent as {dialect}: {payload.refusal}", slug="adk_refused")
    return dict(payload.body)


def _declaration(tool: CallableTool, types: Any, dialect: str) -> Any:
    """The genai ``FunctionDeclaration`` of ``tool`` in ``dialect``."""
    declaration = _payload(tool, dialect)
    try:
        return types.FunctionDeclaration.model_validate(declaration)
    except ValueError as error:  # pydantic's ValidationError: google-genai refuses a field of the declaration
        problem = str(error).strip().splitlines()
        raise SchemaError(
            f"google-adk refuses the declaration of tool {tool.name!r}: {' '.join(problem[:3])}. Look at "
            "tool.declaration and tool.losses; lower it with the default gemini dialect or fix the schema",
            slug="adk_refused",
        ) from None


async def _run(tool: CallableTool, args: Mapping[str, Any], adk_context: Any) -> dict[str, Any]:
    context = _context(tool, adk_context)
    acall = getattr(tool, "acall", None)
    if acall is not None:
        result: ToolResult = await acall(dict(args), context)
    else:
        result = await asyncio.to_thread(tool.call, dict(args), context)
    return result.to_dict()


@functools.cache
def _adapter_class() -> type[Any]:
    try:
        # google-adk is the optional `adk` extra: it loads only when an adapter is made.
        from google.adk.tools.base_tool import BaseTool
        from google.genai import types
    except ImportError as error:  # pragma: no cover - exercised only without the extra
        raise RuntimeConfigError(
            f"google-adk is not installed ({error}); install the extra: pip install 'toolkit-workbench[adk]'",
            slug="adk_missing",
        ) from error

    class ToolkitAdkTool(BaseTool):  # type: ignore[misc,unused-ignore]
        """An ADK tool whose declaration and behaviour come from a toolkit tool."""

        def __init__(self, tool: CallableTool, dialect: str) -> None:
            super().__init__(name=tool.name, description=tool.description)
            self.toolkit_tool = tool
            self._declaration = _declaration(tool, types, dialect)

        def _get_declaration(self) -> Any:
            return self._declaration.model_copy(deep=True)

        async def run_async(self, *, args: dict[str, Any], tool_context: Any) -> Any:
            return await _run(self.toolkit_tool, args, tool_context)

    return ToolkitAdkTool


def to_adk(tool: CallableTool, *, dialect: str = "gemini") -> Any:
    """Wrap ``tool`` (a :class:`toolkit.Tool` or a generated HTTP tool) as a ``google.adk.tools.BaseTool`` that
    declares itself in ``dialect`` (``gemini`` or ``gemini_json``, see :data:`ADK_DIALECTS`)."""
    return _adapter_class()(tool, dialect)
