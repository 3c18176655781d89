"""The executor: governance, timeout, progress and metrics around every tool call.

:meth:`Executor.execute` is the one door through which a model's call reaches a tool. It looks the tool up,
asks the governance policy (allow / deny → ``rejected`` / confirm → ``needs_confirmation``), runs the tool in a
worker thread under its timeout (a late result is discarded and the model gets a ``timeout`` envelope with
``retryable=True``), turns exceptions into ``error`` envelopes, forwards progress reported through
:meth:`ToolContext.report <toolkit.ToolContext.report>` and records metrics per tool.

Give it a ledger and every tool whose ``effect`` (or whose wrapped ``tool.effect``) is ``"write"`` is put behind
:func:`~toolkit.runtime.idempotent` (external-effect mode, keyed in ``scope`` when given, else in each call's
session) unless it already is.
"""

from __future__ import annotations

import queue
import threading
import time
import types
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Literal

from toolkit._context import ToolContext
from toolkit._envelope import ToolResult
from toolkit._exceptions import RuntimeConfigError
from toolkit.runtime.batch import default_retryable
from toolkit.runtime.idempotency import DEFAULT_TTL, CallableTool, Idempotent
from toolkit.runtime.ledger import Ledger
from toolkit.runtime.metrics import Metrics

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["Decision", "Executor", "Governance", "ProgressEvent", "require_confirmation"]

Verdict = Literal["allow", "deny", "confirm"]


@dataclass(frozen=True, slots=True)
class Decision:
    """What a governance policy says about one call."""

    verdict: Verdict
    reason: str = ""

    @classmethod
    def allow(cls) -> Decision:
        return cls("allow")

    @classmethod
    def deny(cls, reason: str) -> Decision:
        return cls("deny", reason)

    @classmethod
    def confirm(cls, reason: str) -> Decision:
        return cls("confirm", reason)


Governance = Callable[[CallableTool, Mapping[str, Any], ToolContext], "Decision | Verdict | bool | None"]
"""``policy(tool, args, context)`` → a :class:`Decision` (or ``"allow"``/``"deny"``/``"confirm"``, ``True`` /
``False``; ``None`` means allow)."""


def require_confirmation(tool: CallableTool, args: Mapping[str, Any], context: ToolContext) -> Decision:
    """A ready policy: tools flagged ``confirm`` need ``context.extras["confirmed"] = True`` to run."""
    if _contract_attr(tool, "confirm") and not context.extras.get("confirmed"):
        return Decision.confirm(
            f"{tool.name} changes something that is hard to undo: confirm the details with the user, "
            "then call it again with the same arguments"
        )
    return Decision.allow()


def _contract_attr(tool: object, attribute: str) -> Any:
    """``effect`` / ``confirm`` from the tool, or from the tools it wraps (``.tool``: HTTP tools, idempotent
    wrappers), outermost first."""
    for _ in range(8):  # wrappers nest a few levels at most; never loop on a cycle
        value = getattr(tool, attribute, None)
        if value is not None or not hasattr(tool, "tool"):
            return value
        tool = tool.tool
    return None


def _decision(value: Decision | str | bool | None) -> Decision:
    if isinstance(value, Decision):
        return value
    if value is None or value is True or value == "allow":
        return Decision.allow()
    if value is False or value == "deny":
        return Decision.deny("denied by policy")
    if value == "confirm":
        return Decision.confirm("confirm with the user, then call again")
    raise RuntimeConfigError(f"governance returned {value!r}; return a Decision, 'allow', 'deny' or 'confirm'")


@dataclass(frozen=True, slots=True)
class ProgressEvent:
    """One progress report of a running tool: 0.0 … 1.0 and a short message."""

    tool: str
    call_id: str
    fraction: float
    message: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"tool": self.tool, "call_id": self.call_id, "fraction": self.fraction, "message": self.message}


ProgressListener = Callable[[ProgressEvent], None]


class Executor:
    """Runs callable-tool-like objects (``.name``, ``.call(args, context)``) by name.

    ``timeout`` (seconds) applies to every tool unless ``per_tool_timeout`` names another; ``governance`` is
    asked before every call; ``ledger`` makes write tools idempotent, remembering calls for ``idempotency_ttl``
    seconds (one number, or ``{tool name: seconds}`` with 24 h for the rest) and keying them in ``scope`` (a
    stable name: a run or conversation id) instead of each call's session; ``on_progress`` receives every
    :class:`ProgressEvent` (they are also kept in :attr:`progress_events`).
    """

    def __init__(
        self,
        tools: Iterable[CallableTool] | Mapping[str, CallableTool],
        *,
        timeout: float = 30.0,
        per_tool_timeout: Mapping[str, float] | None = None,
        governance: Governance | None = None,
        ledger: Ledger | None = None,
        idempotency_ttl: float | Mapping[str, float] = DEFAULT_TTL,
        on_progress: ProgressListener | None = None,
        scope: str | None = None,
    ) -> None:
        listed = list(tools.values()) if isinstance(tools, Mapping) else list(tools)
        self.tools: dict[str, CallableTool] = {}
        for tool in listed:
            if tool.name in self.tools:
                raise RuntimeConfigError(f"two tools are named {tool.name!r}; tool names must be unique")
            wrap = ledger is not None and _contract_attr(tool, "effect") == "write" and not isinstance(tool, Idempotent)
            if wrap and ledger is not None:
                ttl = (
                    idempotency_ttl.get(tool.name, DEFAULT_TTL)
                    if isinstance(idempotency_ttl, Mapping)
                    else idempotency_ttl
                )
                tool = Idempotent(tool, ledger, ttl=ttl, scope=scope)
            self.tools[tool.name] = tool
        unknown = sorted(set(per_tool_timeout or {}) - set(self.tools))
        if unknown:
            raise RuntimeConfigError(f"per_tool_timeout names unknown tools {unknown}; known: {sorted(self.tools)}")
        self.timeout = timeout
        self.per_tool_timeout = dict(per_tool_timeout or {})
        self.governance = governance
        self.on_progress = on_progress
        self.metrics = Metrics()
        self.progress_events: list[ProgressEvent] = []
        self._calls = 0
        self._lock = threading.Lock()

    def timeout_for(self, name: str) -> float:
        return self.per_tool_timeout.get(name, self.timeout)

    def validate(self, name: str, args: Mapping[str, Any]) -> ToolResult | None:
        """The tool's own validation verdict, if it has a ``validate`` method (``None`` otherwise)."""
        validate = getattr(self.tools.get(name), "validate", None)
        return validate(args) if callable(validate) else None

    def execute(
        self,
        name: str,
        args: Mapping[str, Any],
        context: ToolContext | None = None,
        *,
        on_progress: ProgressListener | None = None,
    ) -> ToolResult:
        """Run one call and return its envelope; never raises for a tool's failure."""
        started = time.perf_counter()
        result = self._execute(name, args, context, on_progress)
        self.metrics.record(name, result.status, time.perf_counter() - started)
        return result

    def stream(
        self, name: str, args: Mapping[str, Any], context: ToolContext | None = None
    ) -> Iterator[ProgressEvent | ToolResult]:
        """Yield progress events as the tool reports them, then its :class:`ToolResult` last."""
        events: queue.Queue[ProgressEvent | ToolResult] = queue.Queue()
        worker = threading.Thread(
            target=lambda: events.put(self.execute(name, args, context, on_progress=events.put)), daemon=True
        )
        worker.start()
        while True:
            item = events.get()
            yield item
            if isinstance(item, ToolResult):
                return

    def metrics_dict(self) -> dict[str, dict[str, Any]]:
        """Per-tool invocations, errors, counts by status and latency p50/p95 (ms) as plain data."""
        return self.metrics.snapshot()

    def metrics_frame(self, *, latency: bool = True) -> pd.DataFrame:
        """The same as a pandas DataFrame indexed by tool (``latency=False`` leaves out the volatile columns)."""
        return self.metrics.to_frame(latency=latency)

    # -- one call ------------------------------------------------------------------------------------
    def _execute(
        self, name: str, args: Mapping[str, Any], context: ToolContext | None, listener: ProgressListener | None
    ) -> ToolResult:
        tool = self.tools.get(name)
        if tool is None:
            known = ", ".join(sorted(self.tools)) or "none"
            return ToolResult(status="error", retryable=False, message=f"Unknown tool {name!r}; available: {known}.")
        finished = threading.Event()
        context = self._context_for(name, context, listener, finished)
        refusal = self._govern(tool, args, context)
        if refusal is not None:
            return refusal
        try:
            return self._run(tool, args, context, self.timeout_for(name), finished)
        finally:
            finished.set()

    def _context_for(
        self, name: str, context: ToolContext | None, listener: ProgressListener | None, finished: threading.Event
    ) -> ToolContext:
        context = context or ToolContext()
        with self._lock:
            self._calls += 1
            call_id = context.call_id or f"call-{self._calls}"

        def report(fraction: float, message: str = "") -> None:
            if finished.is_set():  # a timed-out tool still running: its progress is discarded with its result
                return
            event = ProgressEvent(name, call_id, fraction, message)
            with self._lock:
                self.progress_events.append(event)
            for sink in (self.on_progress, listener):
                if sink is not None:
                    sink(event)

        return replace(context, call_id=call_id, tool_name=name, progress=report)

    def _govern(self, tool: CallableTool, args: Mapping[str, Any], context: ToolContext) -> ToolResult | None:
        if self.governance is None:
            return None
        try:
            decision = _decision(self.governance(tool, args, context))
        except Exception as error:  # fail closed: a broken policy must not let a call through
            decision = Decision.deny(f"the governance policy failed ({type(error).__name__}: {error})")
        if decision.verdict == "deny":
            return ToolResult(status="rejected", retryable=False, message=f"Not allowed by policy: {decision.reason}")
        if decision.verdict == "confirm":
            return ToolResult(status="needs_confirmation", retryable=False, message=decision.reason)
        return None

    def _run(
        self,
        tool: CallableTool,
        args: Mapping[str, Any],
        context: ToolContext,
        seconds: float,
        finished: threading.Event,
    ) -> ToolResult:
        box: dict[str, Any] = {}

        def target() -> None:
            try:
                outcome: Any = tool.call(args, context)
                if isinstance(outcome, types.CoroutineType):  # an async tool: run it to completion here
                    import asyncio

                    outcome = asyncio.run(outcome)
                box["result"] = outcome
            except BaseException as error:  # reported as an envelope below, never lost in the thread
                box["error"] = error
            finally:
                done.set()

        done = threading.Event()
        threading.Thread(target=target, name=f"tool:{tool.name}", daemon=True).start()
        if not done.wait(seconds):
            return ToolResult(
                status="timeout",
                retryable=True,
                message=f"{tool.name} did not finish within {seconds:g} s; its late result will be discarded. "
                "Retrying is safe for idempotent tools.",
            )
        if "error" in box:
            error = box["error"]
            return ToolResult(
                status="error",
                retryable=default_retryable(error),
                message=f"{tool.name} failed: {type(error).__name__}: {error}",
            )
        result = box["result"]
        return result if isinstance(result, ToolResult) else ToolResult(status="ok", data=result)
