"""The seed's in-agent scenario: a model sends ``limit`` as a quoted number, reads the envelope, corrects itself.

:func:`seed_scenario` runs it through a :class:`~toolkit.runtime.ScriptedModel` and an
:class:`~toolkit.runtime.Executor`: a first call with a quoted number for ``limit``, the ``invalid_arguments``
envelope propagated back, a second call with the corrected field succeeding. :class:`IssueSearch` is the tiny
hand-written read tool it uses by default.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolkit._context import ToolContext
from toolkit._envelope import FieldError, ToolResult
from toolkit.runtime.executor import Executor
from toolkit.runtime.scripted import EventStream, ScriptedModel, retry_with, run_loop

__all__ = ["IssueSearch", "seed_scenario"]


class IssueSearch:
    """A tiny read tool with the seed's bound: ``limit`` must be an integer between 1 and 100."""

    name = "search_issues"
    effect = "read"
    confirm = False

    def validate(self, args: Mapping[str, Any]) -> ToolResult:
        errors = []
        if not isinstance(args.get("query"), str):
            errors.append(FieldError("query", "missing", f"got {args.get('query')!r}", "a search text"))
        limit = args.get("limit", 20)
        if isinstance(limit, bool) or not isinstance(limit, int):
            problem = f"{type(limit).__name__} {limit!r} is not an integer"
            errors.append(FieldError("limit", "wrong_type", problem, "integer between 1 and 100"))
        elif not 1 <= limit <= 100:
            errors.append(FieldError("limit", "out_of_range", f"out of range: {limit}", "integer between 1 and 100"))
        if errors:
            return ToolResult(status="invalid_arguments", errors=tuple(errors))
        return ToolResult(status="ok", data={"query": args["query"], "limit": limit})

    def call(self, args: Mapping[str, Any], context: ToolContext | None = None) -> ToolResult:
        checked = self.validate(args)
        if not checked.ok:
            return checked
        query, limit = checked.data["query"], checked.data["limit"]
        issues = [{"number": 100 + i, "title": f"{query} ({i + 1})"} for i in range(min(limit, 3))]
        return ToolResult(status="ok", data={"total": len(issues), "issues": issues})


def seed_scenario(tool: Any = None, *, bad_limit: Any = "10", fixed_limit: int = 10) -> EventStream:
    """The seed's in-agent test: ``limit`` sent as a quoted string → ``invalid_arguments`` → the corrected call
    (an integer) → ``ok``. (An out-of-range limit would not do: read parameters are clamped, not rejected.)

    ``tool`` defaults to :class:`IssueSearch`; any callable-tool-like with ``query`` and ``limit`` works (for
    instance ``tk.from_function(toolkit.examples.search_issues)``).
    """
    tool = tool if tool is not None else IssueSearch()
    model = ScriptedModel(
        [
            {"name": tool.name, "args": {"query": "login timeout", "limit": bad_limit}},
            retry_with({"limit": fixed_limit}),
        ]
    )
    return run_loop(model, Executor([tool]), ToolContext(session_id="seed-scenario"))
