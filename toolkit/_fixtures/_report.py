"""The report of firing fixtures at a tool's validator: where contract and validator disagree.

A row **fails** when the verdict the contract predicts (``accept``, ``accept_with_notice``, ``reject``)
differs from what the validator did: that is either a validator bug or a contract the author did not mean.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from toolkit._display import Displayable, displayed_by
from toolkit._display._reports import FIXTURE_REPORT_RENDERER
from toolkit._envelope import ToolResult
from toolkit._fixtures._fixture import Fixture

if TYPE_CHECKING:
    import pandas

__all__ = ["FixtureReport", "FixtureRow", "verdict"]


def verdict(result: ToolResult) -> str:
    """``accept`` (ok, nothing changed), ``accept_with_notice`` (ok, with notices), ``reject``, or ``error``."""
    if result.status == "ok":
        return "accept_with_notice" if result.notices else "accept"
    return "reject" if result.status in ("invalid_arguments", "rejected") else "error"


@dataclass(frozen=True, slots=True)
class FixtureRow:
    """One fixture fired: what the contract predicted, what the validator did, and the envelope it returned."""

    fixture: Fixture
    actual: str
    result: ToolResult

    @property
    def id(self) -> str:
        return self.fixture.id

    @property
    def family(self) -> str:
        return self.fixture.family

    @property
    def expected(self) -> str:
        return self.fixture.expected

    @property
    def envelope(self) -> ToolResult:
        """The envelope the validator returned (same as ``result``)."""
        return self.result

    @property
    def passed(self) -> bool:
        return self.actual == self.fixture.expected

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.fixture.id,
            "family": self.fixture.family,
            "field": self.fixture.field,
            "expected": self.fixture.expected,
            "actual": self.actual,
            "passed": self.passed,
            "args": self.fixture.args,
            "why": self.fixture.why,
            "envelope": self.result.to_dict(),
        }


@displayed_by(FIXTURE_REPORT_RENDERER)
@dataclass(frozen=True, slots=True, eq=False)
class FixtureReport(Displayable):
    """Every fixture fired at one tool; ``failures`` are the rows where contract and validator disagree."""

    tool_name: str
    rows: tuple[FixtureRow, ...]
    skipped: tuple[str, ...] = ()
    nested: tuple[int, int] = (0, 0)
    """Nested-field fixtures ``(generated, possible)``: a tool with many nested fields is sampled."""

    @property
    def nested_note(self) -> str:
        """One line on the nested-field fixtures: how many were generated out of how many possible."""
        made, possible = self.nested
        if not possible:
            return ""
        if made == possible:
            return f"nested fields: {made} fixtures, every one possible"
        return (f"nested fields: {made} of {possible} possible fixtures, a sample covering every depth and family "
                "(fixtures(tool, nested_cap=None) for all)")  # fmt: skip

    @property
    def failures(self) -> tuple[FixtureRow, ...]:
        return tuple(r for r in self.rows if not r.passed)

    @property
    def passed(self) -> bool:
        return not self.failures

    def __len__(self) -> int:
        return len(self.rows)

    def counts(self) -> dict[str, int]:
        """How many fixtures the validator accepted, accepted with a notice, rejected, or errored on."""
        out = {"accept": 0, "accept_with_notice": 0, "reject": 0, "error": 0}
        for row in self.rows:
            out[row.actual] = out.get(row.actual, 0) + 1
        return out

    def summary(self) -> str:
        """A few deterministic lines: totals, verdict counts, then each failure and each skipped family."""
        counts = self.counts()
        lines = [
            f"{self.tool_name}: {len(self.rows)} fixtures, {len(self.rows) - len(self.failures)} as expected, "
            f"{len(self.failures)} failed",
            "  " + ", ".join(f"{k} {v}" for k, v in counts.items() if v),
        ]
        for row in self.failures:
            lines.append(f"  FAIL {row.fixture.id}: expected {row.expected}, got {row.actual} ({row.fixture.why})")
        lines.extend(f"  skipped: {note}" for note in self.skipped)
        if self.nested_note:
            lines.append(f"  {self.nested_note}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.summary()

    def __repr__(self) -> str:
        return f"<FixtureReport {self.tool_name!r} fixtures={len(self.rows)} failures={len(self.failures)}>"

    def to_dict(self) -> dict[str, Any]:
        rows = [r.to_dict() for r in self.rows]
        made, possible = self.nested
        return {"tool": self.tool_name, "rows": rows, "skipped": list(self.skipped),
                "nested": {"generated": made, "possible": possible}}  # fmt: skip

    def to_frame(self) -> pandas.DataFrame:
        """One row per fixture: id, family, expected, actual, passed, status, first error code, args, why."""
        # pandas loads only when a DataFrame is asked for.
        import pandas

        records = [
            {
                "id": r.fixture.id,
                "family": r.fixture.family,
                "expected": r.expected,
                "actual": r.actual,
                "passed": r.passed,
                "status": r.result.status,
                "code": r.result.errors[0].code if r.result.errors else "",
                "field": r.result.errors[0].field if r.result.errors else "",
                "args": json.dumps(r.fixture.args, sort_keys=True, default=str)[:200],
                "why": r.fixture.why,
            }
            for r in self.rows
        ]
        columns = ["id", "family", "expected", "actual", "passed", "status", "code", "field", "args", "why"]
        return pandas.DataFrame.from_records(records, columns=columns)
