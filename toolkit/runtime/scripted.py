"""In-agent tests without a model: a scripted stand-in emits tool calls, the loop records an event stream.

A real model in CI is slow, costly and non-deterministic. :class:`ScriptedModel` emits a fixed sequence of
calls instead; an entry may also be a callable that looks at the previous turn's outcome and decides the next
call (how a model corrects itself from an error envelope). :func:`run_loop` feeds the calls through an
:class:`~toolkit.runtime.Executor` and records an :class:`EventStream` (``call``, ``validation``, ``result``,
``error`` events) with helpers to assert on it::

    events = run_loop(ScriptedModel([bad_call, retry_with({"limit": 10})]), executor)
    events.assert_corrected("limit")

:func:`toolkit.examples.scenario.seed_scenario` is the ready-made version of exactly that.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from toolkit._canonical import compact
from toolkit._context import ToolContext
from toolkit._envelope import FieldError, ToolResult
from toolkit.runtime.executor import Executor

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["Event", "EventStream", "ScriptedModel", "retry_with", "run_loop"]

EventKind = Literal["call", "validation", "result", "error"]
_FAILED = ("error", "timeout")


@dataclass(frozen=True, slots=True)
class Event:
    """One step of the loop. ``call`` carries args; ``validation`` the verdict; ``result``/``error`` the
    envelope the model read back (``error`` when the tool itself failed or timed out)."""

    kind: EventKind
    turn: int
    tool: str
    args: Mapping[str, Any] | None = None
    status: str = ""
    errors: tuple[FieldError, ...] = ()
    envelope: Mapping[str, Any] | None = None

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    def detail(self) -> str:
        """A one-line summary: the args of a call, the fields of a failed validation, the data or message."""
        if self.kind == "call":
            return compact(dict(self.args or {}))
        if self.errors:
            return ", ".join(f"{e.field}: {e.code}" for e in self.errors)
        envelope = self.envelope or {}
        if self.kind == "error" or envelope.get("message"):
            return str(envelope.get("message", ""))
        return "" if envelope.get("data") is None else compact(envelope["data"])

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "turn": self.turn, "tool": self.tool}
        if self.args is not None:
            out["args"] = dict(self.args)
        if self.status:
            out["status"] = self.status
        if self.errors:
            out["errors"] = [e.to_dict() for e in self.errors]
        if self.envelope is not None:
            out["envelope"] = dict(self.envelope)
        return out


ScriptedCall = Mapping[str, Any] | Callable[[Event | None], "Mapping[str, Any] | None"]
"""``{"name": ..., "args": {...}}``, or ``f(previous_outcome_event) -> that dict | None`` (``None`` ends)."""


class ScriptedModel:
    """A stand-in model that emits a fixed sequence of tool calls."""

    def __init__(self, calls: Iterable[ScriptedCall]) -> None:
        self._calls = list(calls)
        self._position = 0

    def next_call(self, previous: Event | None) -> dict[str, Any] | None:
        """The next call given the previous turn's outcome, or ``None`` when the script is over."""
        if self._position >= len(self._calls):
            return None
        entry = self._calls[self._position]
        self._position += 1
        call = entry(previous) if callable(entry) else entry
        if call is None:
            return None
        return {"name": str(call["name"]), "args": dict(call.get("args", {}))}


def retry_with(fixes: Mapping[str, Any]) -> Callable[[Event | None], dict[str, Any] | None]:
    """A scripted step that repeats the previous call with the fields its errors named replaced by ``fixes``
    (and stops when the previous call succeeded)."""

    def decide(previous: Event | None) -> dict[str, Any] | None:
        if previous is None or previous.ok:
            return None
        named = {e.field.split(".")[0].split("[")[0] for e in previous.errors}
        args = dict(previous.args or {})
        args.update({name: value for name, value in fixes.items() if name in named})
        return {"name": previous.tool, "args": args}

    return decide


class EventStream:
    """The recorded events of one loop, with helpers to assert on them."""

    def __init__(self, events: Iterable[Event]) -> None:
        self.events = tuple(events)

    def __iter__(self) -> Iterator[Event]:
        return iter(self.events)

    def __len__(self) -> int:
        return len(self.events)

    def __getitem__(self, index: int) -> Event:
        return self.events[index]

    def __repr__(self) -> str:
        lines = [f"{e.turn:>3} {e.kind:<10} {e.tool:<24} {e.status:<18} {e.detail()}".rstrip() for e in self.events]
        return "\n".join([f"EventStream ({len(self.events)} events)", *lines])

    def kinds(self) -> list[str]:
        return [e.kind for e in self.events]

    def of_kind(self, kind: EventKind) -> list[Event]:
        return [e for e in self.events if e.kind == kind]

    def calls_to(self, name: str) -> list[Event]:
        """The ``call`` events addressed to tool ``name``, in order."""
        return [e for e in self.events if e.kind == "call" and e.tool == name]

    def outcome(self, turn: int) -> Event:
        """The ``result`` or ``error`` event of one turn."""
        return next(e for e in self.events if e.turn == turn and e.kind in ("result", "error"))

    def assert_corrected(self, field: str) -> tuple[Event, Event]:
        """Assert a call failed validation on ``field`` and a later call to the same tool changed that field
        and succeeded; returns the (failed, corrected) call events."""
        for failed in self.of_kind("validation"):
            if failed.ok or not any(_names(e.field, field) for e in failed.errors):
                continue
            bad_args = self._call(failed.turn).args or {}
            for later in self.calls_to(failed.tool):
                fixed = later.args or {}
                if later.turn > failed.turn and fixed.get(field) != bad_args.get(field) and self.outcome(later.turn).ok:
                    return self._call(failed.turn), later
        raise AssertionError(f"no call failed on {field!r} and was then corrected successfully:\n{self!r}")

    def _call(self, turn: int) -> Event:
        return next(e for e in self.events if e.turn == turn and e.kind == "call")

    def to_dicts(self) -> list[dict[str, Any]]:
        return [e.to_dict() for e in self.events]

    def to_frame(self) -> pd.DataFrame:
        """One row per event: turn, kind, tool, status, detail."""
        # pandas loads only when a DataFrame is asked for.
        import pandas as pd

        rows = [(e.turn, e.kind, e.tool, e.status, e.detail()) for e in self.events]
        return pd.DataFrame(rows, columns=["turn", "kind", "tool", "status", "detail"])


def _names(error_field: str, field: str) -> bool:
    return error_field == field or error_field.startswith((f"{field}.", f"{field}["))


def run_loop(
    model: ScriptedModel, executor: Executor, context: ToolContext | None = None, *, max_turns: int = 50
) -> EventStream:
    """Feed the model's calls through the executor until the script ends; record every step."""
    events: list[Event] = []
    previous: Event | None = None
    for turn in range(1, max_turns + 1):
        call = model.next_call(previous)
        if call is None:
            break
        name, args = call["name"], call["args"]
        events.append(Event("call", turn, name, args=args))
        verdict = executor.validate(name, args)
        result = executor.execute(name, args, context)
        events.append(_validation_event(turn, name, verdict, result))
        kind: EventKind = "error" if result.status in _FAILED else "result"
        previous = Event(kind, turn, name, args, result.status, result.errors, result.to_dict())
        events.append(previous)
    return EventStream(events)


def _validation_event(turn: int, name: str, verdict: ToolResult | None, result: ToolResult) -> Event:
    """The tool's own validation verdict, or (for tools without ``validate``) what the envelope implies."""
    if verdict is None:
        structural = result.status == "invalid_arguments"
        verdict = result if structural else ToolResult(status="ok")
    return Event("validation", turn, name, status=verdict.status, errors=verdict.errors)
