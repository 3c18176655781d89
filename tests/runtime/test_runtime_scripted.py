"""The scripted-model loop: fixed calls through the executor, an event stream to assert on."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from toolkit import ToolContext, ToolResult
from toolkit.examples.scenario import IssueSearch, seed_scenario
from toolkit.runtime import Event, Executor, ScriptedModel, retry_with, run_loop


def test_seed_scenario_shows_the_corrected_retry() -> None:
    events = seed_scenario()
    assert events.kinds() == ["call", "validation", "result"] * 2
    bad, good = events.assert_corrected("limit")
    assert (bad.args, good.args) == ({"query": "login timeout", "limit": "10"}, {"query": "login timeout", "limit": 10})
    rejected = events.outcome(1)
    assert rejected.status == "invalid_arguments"
    assert rejected.envelope is not None
    assert rejected.envelope["errors"][0]["field"] == "limit"  # the envelope reached the model intact
    assert events.outcome(2).ok


def test_seed_scenario_with_a_function_tool() -> None:
    import toolkit as tk
    from toolkit import examples

    tool = tk.from_function(examples.search_issues, namespace="issues", effect="read")
    events = seed_scenario(tool)
    events.assert_corrected("limit")
    [validation, _] = [e for e in events if e.kind == "validation"]
    assert validation.errors[0].code == "wrong_type"
    assert len(events.calls_to(tool.name)) == 2


def test_assert_corrected_fails_when_the_model_repeats_the_mistake() -> None:
    bad = {"name": "search_issues", "args": {"query": "q", "limit": "10"}}
    events = run_loop(ScriptedModel([bad, bad]), Executor([IssueSearch()]))
    with pytest.raises(AssertionError, match="corrected"):
        events.assert_corrected("limit")


def test_assert_corrected_fails_when_nothing_was_wrong() -> None:
    events = run_loop(ScriptedModel([{"name": "search_issues", "args": {"query": "q"}}]), Executor([IssueSearch()]))
    with pytest.raises(AssertionError, match="limit"):
        events.assert_corrected("limit")


def test_callable_step_receives_the_previous_outcome_and_can_stop() -> None:
    seen: list[Event | None] = []

    def decide(previous: Event | None) -> dict[str, Any] | None:
        seen.append(previous)
        return None

    events = run_loop(
        ScriptedModel([{"name": "search_issues", "args": {"query": "q"}}, decide, {"name": "never", "args": {}}]),
        Executor([IssueSearch()]),
    )
    assert len(events.calls_to("search_issues")) == 1
    assert events.calls_to("never") == []
    [previous] = seen
    assert previous is not None
    assert (previous.kind, previous.status, previous.tool) == ("result", "ok", "search_issues")


def test_retry_with_stops_after_success() -> None:
    good = {"name": "search_issues", "args": {"query": "q", "limit": 5}}
    events = run_loop(ScriptedModel([good, retry_with({"limit": 10})]), Executor([IssueSearch()]))
    assert len(events.of_kind("call")) == 1


class Failing:
    name = "deploy"

    def call(self, args: Mapping[str, Any], context: ToolContext | None = None) -> ToolResult:
        raise ConnectionError("registry unreachable")


def test_tool_failures_are_error_events_and_validation_is_inferred_without_validate() -> None:
    events = run_loop(ScriptedModel([{"name": "deploy", "args": {"v": 1}}]), Executor([Failing()]))
    assert events.kinds() == ["call", "validation", "error"]
    assert events[1].status == "ok"
    assert events[2].status == "error"
    assert "registry unreachable" in events[2].detail()


def test_event_stream_exports_rows_dicts_and_a_readable_repr() -> None:
    events = seed_scenario()
    frame = events.to_frame()
    assert list(frame.columns) == ["turn", "kind", "tool", "status", "detail"]
    assert len(frame) == len(events)
    assert frame.loc[1, "detail"] == "limit: wrong_type"
    assert events.to_dicts()[0] == {
        "kind": "call",
        "turn": 1,
        "tool": "search_issues",
        "args": {"query": "login timeout", "limit": "10"},
    }
    assert repr(events).splitlines()[0] == "EventStream (6 events)"


def test_loop_stops_at_max_turns() -> None:
    call = {"name": "search_issues", "args": {"query": "q"}}
    events = run_loop(ScriptedModel([call] * 5), Executor([IssueSearch()]), max_turns=2)
    assert len(events.of_kind("call")) == 2
