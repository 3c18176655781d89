"""The context a tool receives from the runtime, never from the model.

A function parameter annotated with :class:`ToolContext` is *injected*: it does not appear in the
declaration or in ``args_schema``, and :meth:`toolkit.Tool.call` fills it in.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["ToolContext"]


@dataclass(frozen=True, slots=True)
class ToolContext:
    """Who is calling and how: the session (scopes idempotency keys), the call id, a progress callback."""

    session_id: str = "default"
    call_id: str = ""
    tool_name: str = ""
    progress: Callable[[float, str], None] | None = None
    extras: Mapping[str, Any] = field(default_factory=dict)

    def report(self, fraction: float, message: str = "") -> None:
        """Report progress of a long-running tool (0.0 to 1.0); a no-op without a listener."""
        if self.progress is not None:
            self.progress(fraction, message)
