"""The executor: timeouts, progress, governance, exceptions as envelopes, metrics, ledger integration."""

from __future__ import annotations

import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from toolkit import RuntimeConfigError, ToolContext, ToolResult
from toolkit.runtime import Decision, Executor, Idempotent, Ledger, ManualClock, ProgressEvent, require_confirmation


class Echo:
    name = "echo"
    effect = "read"

    def call(self, args: Mapping[str, Any], context: ToolContext | None = None) -> ToolResult:
        return ToolResult(status="ok", data={"echo": dict(args), "call_id": context.call_id if context else None})


class Stuck:
    """Blocks until released: a tool that overruns its timeout (the test releases it afterwards)."""

    name = "stuck"
    effect = "read"

    def __init__(self) -> None:
        self.release = threading.Event()
        self.finished = threading.Event()

    def call(self, args: Mapping[str, Any], context: ToolContext | None = None) -> ToolResult:
        assert context is not None
        self.release.wait(10)
        context.report(1.0, "too late")
        self.finished.set()
        return ToolResult(status="ok", data="late")


class Steps:
    """A long tool that reports progress as it goes."""

    name = "export"
    effect = "read"

    def call(self, args: Mapping[str, Any], context: ToolContext | None = None) -> ToolResult:
        assert context is not None
        for part in range(1, 4):
            context.report(part / 4, f"part {part} of 3")
        return ToolResult(status="ok", data={"parts": 3})


class Raises:
    name = "flaky"
    effect = "read"

    def __init__(self, error: Exception) -> None:
        self.error = error

    def call(self, args: Mapping[str, Any], context: ToolContext | None = None) -> ToolResult:
        raise self.error


class Transfer:
    name = "transfer"
    effect = "write"
    confirm = True

    def __init__(self) -> None:
        self.effects = 0

    def call(self, args: Mapping[str, Any], context: ToolContext | None = None) -> ToolResult:
        self.effects += 1
        return ToolResult(status="ok", data={"transfer_id": f"tr_{self.effects}"})


def test_slow_tool_times_out_with_a_retryable_envelope_and_its_late_result_is_discarded() -> None:
    stuck = Stuck()
    executor = Executor([stuck, Echo()], timeout=5, per_tool_timeout={"stuck": 0.05})
    result = executor.execute("stuck", {})
    assert (result.status, result.retryable) == ("timeout", True)
    assert "0.05 s" in result.message
    stuck.release.set()
    assert stuck.finished.wait(10)
    assert executor.progress_events == []  # the late progress was dropped with the late result
    assert executor.metrics_dict()["stuck"]["by_status"] == {"timeout": 1}


def test_per_tool_timeout_must_name_known_tools() -> None:
    with pytest.raises(RuntimeConfigError, match="unknown tools"):
        Executor([Echo()], per_tool_timeout={"ecoh": 1})


def test_progress_reaches_callback_listener_and_event_list() -> None:
    seen: list[ProgressEvent] = []
    executor = Executor([Steps()], on_progress=seen.append)
    per_call: list[ProgressEvent] = []
    result = executor.execute("export", {}, ToolContext(call_id="c-7"), on_progress=per_call.append)
    assert result.data == {"parts": 3}
    assert [e.fraction for e in seen] == [0.25, 0.5, 0.75]
    assert per_call == seen == executor.progress_events
    assert {(e.tool, e.call_id) for e in seen} == {("export", "c-7")}


def test_stream_yields_progress_then_the_result() -> None:
    items = list(Executor([Steps()]).stream("export", {}))
    assert [type(i).__name__ for i in items] == ["ProgressEvent"] * 3 + ["ToolResult"]
    assert items[1].to_dict()["message"] == "part 2 of 3"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("decision", "status"),
    [
        (Decision.allow(), "ok"),
        ("allow", "ok"),
        (None, "ok"),
        (Decision.deny("weekends are read-only"), "rejected"),
        (False, "rejected"),
        (Decision.confirm("ask the user first"), "needs_confirmation"),
        ("confirm", "needs_confirmation"),
    ],
    ids=["allow", "allow-str", "none", "deny", "deny-bool", "confirm", "confirm-str"],
)
def test_governance_decides_each_call(decision: Any, status: str) -> None:
    transfer = Transfer()
    executor = Executor([transfer], governance=lambda tool, args, context: decision)
    result = executor.execute("transfer", {"amount": 5})
    assert result.status == status
    assert transfer.effects == (1 if status == "ok" else 0)
    if isinstance(decision, Decision) and decision.reason:
        assert decision.reason in result.message


def test_governance_sees_tool_args_and_session() -> None:
    seen: list[tuple[str, dict[str, Any], str]] = []

    def policy(tool: Any, args: Mapping[str, Any], context: ToolContext) -> Decision:
        seen.append((tool.name, dict(args), context.session_id))
        return Decision.allow()

    Executor([Echo()], governance=policy).execute("echo", {"x": 1}, ToolContext(session_id="s-9"))
    assert seen == [("echo", {"x": 1}, "s-9")]


def test_broken_policy_fails_closed() -> None:
    def policy(tool: Any, args: Mapping[str, Any], context: ToolContext) -> Decision:
        raise KeyError("role")

    result = Executor([Echo()], governance=policy).execute("echo", {})
    assert result.status == "rejected"
    assert "governance policy failed" in result.message


def test_require_confirmation_asks_once_then_runs_when_confirmed() -> None:
    transfer = Transfer()
    executor = Executor([transfer, Echo()], governance=require_confirmation)
    assert executor.execute("transfer", {"amount": 5}).status == "needs_confirmation"
    assert executor.execute("echo", {}).ok  # tools not flagged confirm run directly
    confirmed = ToolContext(extras={"confirmed": True})
    assert executor.execute("transfer", {"amount": 5}, confirmed).ok
    assert transfer.effects == 1


@pytest.mark.parametrize(
    ("error", "retryable"), [(ValueError("no such account"), False), (ConnectionError("reset"), True)]
)
def test_exceptions_become_error_envelopes(error: Exception, retryable: bool) -> None:
    result = Executor([Raises(error)]).execute("flaky", {})
    assert (result.status, result.retryable) == ("error", retryable)
    assert type(error).__name__ in result.message


def test_unknown_tool_is_an_error_envelope_naming_the_available_ones() -> None:
    result = Executor([Echo()]).execute("ecoh", {})
    assert result.status == "error"
    assert "echo" in result.message


def test_duplicate_tool_names_are_refused() -> None:
    with pytest.raises(RuntimeConfigError, match="unique"):
        Executor([Echo(), Echo()])


def test_call_ids_are_assigned_when_missing() -> None:
    executor = Executor([Echo()])
    ids = [executor.execute("echo", {}).data["call_id"] for _ in range(2)]
    assert ids == ["call-1", "call-2"]


def test_metrics_count_invocations_statuses_and_latency_percentiles() -> None:
    executor = Executor([Echo(), Transfer(), Raises(ValueError("x"))], governance=require_confirmation)
    for _ in range(3):
        executor.execute("echo", {})
    executor.execute("transfer", {})
    executor.execute("flaky", {})
    snapshot = executor.metrics_dict()
    assert snapshot["echo"]["invocations"] == 3
    assert snapshot["echo"]["errors"] == 0
    assert snapshot["transfer"]["by_status"] == {"needs_confirmation": 1}
    assert snapshot["flaky"]["errors"] == 1
    assert 0 <= snapshot["echo"]["p50_ms"] <= snapshot["echo"]["p95_ms"]
    frame = executor.metrics_frame()
    assert list(frame.index) == ["echo", "flaky", "transfer"]
    assert list(frame.columns) == ["invocations", "errors", "ok", "needs_confirmation", "error", "p50_ms", "p95_ms"]
    assert frame.loc["echo", "ok"] == 3
    assert "p50_ms" not in executor.metrics_frame(latency=False).columns


def test_ledger_makes_write_tools_idempotent(tmp_path: Path) -> None:
    transfer = Transfer()
    executor = Executor([transfer, Echo()], ledger=Ledger(tmp_path / "ledger.sqlite3"))
    assert isinstance(executor.tools["transfer"], Idempotent)
    assert not isinstance(executor.tools["echo"], Idempotent)
    session = ToolContext(session_id="s-1")
    first = executor.execute("transfer", {"amount": 5}, session)
    second = executor.execute("transfer", {"amount": 5}, session)
    assert transfer.effects == 1
    assert second.data == first.data
    assert second.replay is not None


def test_async_tools_run_to_completion() -> None:
    class Async:
        name = "async_echo"

        async def call(self, args: Mapping[str, Any], context: ToolContext | None = None) -> ToolResult:
            return ToolResult(status="ok", data=dict(args))

    assert Executor([Async()]).execute("async_echo", {"a": 1}).data == {"a": 1}  # type: ignore[list-item]


def test_function_tool_write_is_confirmed_then_replayed_through_the_executor(tmp_path: Path) -> None:
    import toolkit as tk
    from toolkit import examples

    transfer = tk.from_function(examples.transfer_funds, namespace="payments", confirm=True)
    executor = Executor([transfer], ledger=Ledger(tmp_path / "ledger.sqlite3"), governance=require_confirmation)
    args = {
        "from_account": "acc_10000001",
        "to_account": "acc_20000002",
        "amount": "19.99",
        "currency": "eur",
        "execute_on": "2026-01-02",
    }
    assert executor.execute(transfer.name, args, ToolContext(session_id="s-1")).status == "needs_confirmation"
    confirmed = ToolContext(session_id="s-1", extras={"confirmed": True})
    first = executor.execute(transfer.name, args, confirmed)
    second = executor.execute(transfer.name, {**args, "reference": ""}, confirmed)  # the default, sent explicitly
    assert first.ok
    assert first.replay is None
    assert second.replay is not None
    assert second.data == first.data
    invalid = executor.execute(transfer.name, {**args, "amount": 19.99}, confirmed)
    assert invalid.status == "invalid_arguments"


class Wrapping:
    """Shaped like a generated HTTP tool: effect and confirm live on the wrapped ``tool``."""

    name = "create_order"

    def __init__(self) -> None:
        self.tool = Transfer()

    def call(self, args: Mapping[str, Any], context: ToolContext | None = None) -> ToolResult:
        return self.tool.call(args, context)


def test_effect_and_confirm_are_read_from_a_wrapped_tool(tmp_path: Path) -> None:
    executor = Executor([Wrapping()], ledger=Ledger(tmp_path / "ledger.sqlite3"), governance=require_confirmation)
    assert isinstance(executor.tools["create_order"], Idempotent)
    assert executor.execute("create_order", {}).status == "needs_confirmation"


def test_idempotency_ttl_can_be_set_per_tool(tmp_path: Path) -> None:
    clock = ManualClock()
    ledger = Ledger(tmp_path / "ledger.sqlite3", clock=clock)
    transfer, order = Transfer(), Wrapping()
    executor = Executor([transfer, order], ledger=ledger, idempotency_ttl={"transfer": 60})
    assert executor.tools["transfer"].ttl == 60  # type: ignore[attr-defined]
    assert executor.tools["create_order"].ttl == 24 * 3600  # type: ignore[attr-defined]
    executor.execute("transfer", {"amount": 5})
    clock.advance(60)
    assert executor.execute("transfer", {"amount": 5}).replay is None
    assert transfer.effects == 2
