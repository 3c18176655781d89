"""Firing fixtures at a tool's validator, and the report of where contract and validator disagree.

A row **fails** when the verdict the contract predicts (``accept``, ``accept_with_notice``, ``reject``)
differs from what the validator did: that is either a validator bug or a contract the author did not mean.
User fixtures (rejected payloads promoted from production logs) load from YAML or JSON with
:func:`load_fixtures`: a list of ``{id, args, expected, why}`` (``family`` optional, default ``"user"``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolkit._display import Displayable, displayed_by
from toolkit._display._reports import FIXTURE_REPORT_RENDERER
from toolkit._envelope import ToolResult
from toolkit._exceptions import ToolkitError

if TYPE_CHECKING:
    import pandas

    from toolkit._fixtures import Fixture
    from toolkit._tool import Tool

__all__ = ["FixtureReport", "FixtureRow", "fire", "load_fixtures", "verdict"]


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
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.summary()

    def __repr__(self) -> str:
        return f"<FixtureReport {self.tool_name!r} fixtures={len(self.rows)} failures={len(self.failures)}>"

    def to_dict(self) -> dict[str, Any]:
        return {"tool": self.tool_name, "rows": [r.to_dict() for r in self.rows], "skipped": list(self.skipped)}

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


def fire(tool: Tool, fixtures: Iterable[Fixture] | None = None) -> FixtureReport:
    """Run ``fixtures`` (default: :func:`toolkit.fixtures` of the tool) through ``tool.validate``."""
    from toolkit._fixtures import fixtures as generate

    chosen = list(fixtures) if fixtures is not None else generate(tool)
    skipped = getattr(fixtures if fixtures is not None else chosen, "skipped", ())
    rows = []
    for fixture in chosen:
        result = tool.validate(fixture.args)
        rows.append(FixtureRow(fixture, verdict(result), result))
    return FixtureReport(tool.name, tuple(rows), tuple(skipped))


def _read(path: Path) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ToolkitError(f"cannot read fixtures file {path}: {exc.strerror}", slug="bad_fixture_file") from None
    try:
        if path.suffix.lower() == ".json":
            return json.loads(text)
        # PyYAML loads only when YAML text is read.
        import yaml

        return yaml.safe_load(text)
    except ValueError as exc:  # json.JSONDecodeError; a YAML error is handled by the caller
        raise ToolkitError(f"{path} is not valid JSON: {exc}", slug="bad_fixture_file") from None


def load_fixtures(path: str | PathLike[str]) -> list[Fixture]:
    """User fixtures from a YAML or JSON file: a list of ``{id, args, expected, why}`` (``family`` optional)."""
    from toolkit._fixtures import EXPECTED, Fixture

    where = Path(path)
    try:
        data = _read(where)
    except ToolkitError:
        raise
    except Exception as exc:  # yaml.YAMLError
        raise ToolkitError(f"{where} is not valid YAML: {exc}", slug="bad_fixture_file") from None
    if isinstance(data, dict) and isinstance(data.get("fixtures"), list):
        data = data["fixtures"]
    if not isinstance(data, list):
        message = f"{where} must hold a list of fixtures, each {{id, args, expected, why}}"
        raise ToolkitError(message, slug="bad_fixture_file")
    out: list[Fixture] = []
    for i, entry in enumerate(data):
        if not isinstance(entry, dict) or not {"id", "args", "expected"} <= set(entry):
            raise ToolkitError(f"{where}: fixture #{i} needs id, args and expected", slug="bad_fixture_file")
        if entry["expected"] not in EXPECTED:
            raise ToolkitError(
                f"{where}: fixture {entry['id']!r} expects {entry['expected']!r}; use one of {', '.join(EXPECTED)}",
                slug="bad_fixture_file",
            )
        family = str(entry.get("family", "user"))
        out.append(Fixture(str(entry["id"]), family, entry["args"], entry["expected"], str(entry.get("why", ""))))
    return out
