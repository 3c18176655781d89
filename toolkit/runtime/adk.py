"""google-adk adapter: any toolkit tool as a ``google.adk.tools.BaseTool`` (optional extra ``adk``).

    from toolkit.runtime.adk import to_adk
    agent = Agent(..., tools=[to_adk(tool) for tool in orders_tools.load_tools(config)])

The ADK tool's ``_get_declaration()`` is built from the toolkit declaration (the golden file, unchanged),
and ``run_async`` goes through the toolkit runtime: strict validation, binding, credentials, confirmation,
response mapping and trimming. The model gets the envelope (``ToolResult.to_dict()``) back, never an
exception. google-adk is imported only when an adapter is made; without it, :func:`to_adk` raises a
:class:`~toolkit.RuntimeConfigError` that says how to install it.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Mapping
from typing import Any, Protocol

from toolkit._context import ToolContext
from toolkit._envelope import ToolResult
from toolkit._exceptions import RuntimeConfigError

__all__ = ["CallableTool", "to_adk"]


class CallableTool(Protocol):
    """What the adapter wraps: a :class:`toolkit.Tool` or a generated HTTP tool."""

    @property
    def name(self) -> str: ...

    @property
    def description(self) -> str: ...

    @property
    def declaration(self) -> dict[str, Any]: ...

    def call(self, args: Any, context: ToolContext | None = None) -> ToolResult: ...


def _context(name: str, adk_context: Any) -> ToolContext:
    """The toolkit context for one ADK call: session and call ids when ADK provides them."""
    if adk_context is None:
        return ToolContext(tool_name=name)
    invocation = getattr(adk_context, "_invocation_context", None)
    session = getattr(getattr(invocation, "session", None), "id", None)
    return ToolContext(
        session_id=str(session or "default"),
        call_id=str(getattr(adk_context, "function_call_id", None) or ""),
        tool_name=name,
        extras={"adk_tool_context": adk_context},
    )


async def _run(tool: CallableTool, args: Mapping[str, Any], adk_context: Any) -> dict[str, Any]:
    context = _context(tool.name, adk_context)
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

        def __init__(self, tool: CallableTool) -> None:
            super().__init__(name=tool.name, description=tool.description)
            self.toolkit_tool = tool
            self._declaration = types.FunctionDeclaration.model_validate(tool.declaration)

        def _get_declaration(self) -> Any:
            return self._declaration.model_copy(deep=True)

        async def run_async(self, *, args: dict[str, Any], tool_context: Any) -> Any:
            return await _run(self.toolkit_tool, args, tool_context)

    return ToolkitAdkTool


def to_adk(tool: CallableTool) -> Any:
    """Wrap ``tool`` (a :class:`toolkit.Tool` or a generated HTTP tool) as a ``google.adk.tools.BaseTool``."""
    return _adapter_class()(tool)
