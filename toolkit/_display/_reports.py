"""Renderers for the reports of the later stages: fixture reports, declaration and spec diffs, golden checks.

Pure functions over the report types, which are imported for type checking only: the stage modules import
this one to register their renderers, so importing a report type here at run time would be a circle (and
would load stages a display does not need).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from toolkit._display import Renderer
from toolkit._display._markup import badge, esc, html_table, one_line_json, section, text_table, wrap

if TYPE_CHECKING:
    from toolkit._diff import Change, DeclarationDiff, SpecDiff
    from toolkit._envelope import ToolResult
    from toolkit._fixtures import Fixture, FixtureReport, FixtureRow
    from toolkit._golden import GoldenReport

__all__ = [
    "CELL_LIMIT",
    "CHANGE_RENDERER",
    "DECLARATION_DIFF_RENDERER",
    "FIXTURE_RENDERER",
    "FIXTURE_REPORT_RENDERER",
    "GOLDEN_REPORT_RENDERER",
    "SPEC_DIFF_RENDERER",
    "FixtureTableRow",
    "changes_html",
    "cut_cell",
    "fixture_rows",
    "fixture_table_html",
    "tried_cell",
]


# -- fixture reports -------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class FixtureTableRow:
    """One fired fixture, flattened for tables and for the envelope inspector."""

    id: str
    family: str
    args: Any
    expected: str
    actual: str
    passed: bool
    why: str
    envelope: ToolResult
    field: str = ""
    """The path of the value the fixture changed (``address.postcode``, ``lines[0].sku``); empty for a whole
    call."""


_STEP = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def tried_cell(row: FixtureTableRow) -> str:
    """The value the fixture is about, at its path (``address.postcode = "00000"``), cut like every cell; the
    whole arguments for a whole-call fixture."""
    if not row.field:
        return cut_cell(one_line_json(row.args))
    value = row.args
    for name, index in _STEP.findall(row.field):
        try:
            value = value[int(index)] if index else value[name]
        except (KeyError, IndexError, TypeError):
            return cut_cell(f"{row.field} absent")
    return cut_cell(f"{row.field} = {one_line_json(value)}")


def _row(row: FixtureRow) -> FixtureTableRow:
    fixture = row.fixture
    return FixtureTableRow(
        id=fixture.id,
        family=fixture.family,
        args=fixture.args,
        expected=fixture.expected,
        actual=row.actual,
        passed=row.passed,
        why=fixture.why,
        envelope=row.result,
        field=fixture.field,
    )


def fixture_rows(report: FixtureReport) -> list[FixtureTableRow]:
    """The report's rows in order, each with its envelope."""
    return [_row(row) for row in report.rows]


def _verdict(row: FixtureTableRow) -> str:
    return "pass" if row.passed else "FAIL"


def _status(row: FixtureTableRow) -> str:
    codes = ",".join(e.code for e in row.envelope.errors)
    return f"{row.envelope.status} {codes}".strip()


_FIXTURE_HEADERS = ("id", "expected", "actual", "envelope", "verdict")
_FIXTURE_HTML_HEADERS = ("id", "family", "expected", "actual", "envelope", "verdict", "args")


def _fixture_cells(row: FixtureTableRow) -> tuple[str, ...]:
    """Text columns; the arguments are left to the HTML table and the envelope inspector."""
    return (row.id, row.expected, row.actual, _status(row), _verdict(row))


def _report_headline(report: FixtureReport, rows: Sequence[FixtureTableRow]) -> str:
    failed = sum(1 for r in rows if not r.passed)
    target = f" for {report.tool_name}" if report.tool_name else ""
    return f"FixtureReport{target}: {len(rows)} fixtures, {len(rows) - failed} passed, {failed} failed"


def _fixture_report_text(report: FixtureReport) -> str:
    rows = fixture_rows(report)
    note = [f"  {report.nested_note}"] if report.nested_note else []
    return "\n".join([_report_headline(report, rows), *note, *text_table(_FIXTURE_HEADERS, map(_fixture_cells, rows))])


CELL_LIMIT = 80
"""Characters of a fixture's arguments a table shows (a 10,000-character fixture would make it pages wide)."""


def cut_cell(text: str) -> str:
    """``text``, cut to :data:`CELL_LIMIT` characters with an ellipsis and the full length."""
    return text if len(text) <= CELL_LIMIT else f"{text[: CELL_LIMIT - 1]}… ({len(text):,} characters)"


def fixture_table_html(rows: Sequence[FixtureTableRow], *, selected: str | None = None) -> str:
    """The fixture table coloured by pass/fail, long arguments cut; the row whose id is ``selected`` is marked
    with ▶."""

    def id_cell(row: FixtureTableRow) -> str:
        return f"<b>▶ {esc(row.id)}</b>" if row.id == selected else esc(row.id)

    def cells(row: FixtureTableRow) -> tuple[str, ...]:
        args = f"<code style='font-size:85%'>{esc(cut_cell(one_line_json(row.args)))}</code>"
        middle = tuple(esc(cell) for cell in _fixture_cells(row)[1:-1])
        return (id_cell(row), esc(row.family), *middle, badge(_verdict(row), "pass" if row.passed else "fail"), args)

    kinds = ["pass" if r.passed else "fail" for r in rows]
    return html_table(_FIXTURE_HTML_HEADERS, [cells(r) for r in rows], row_kinds=kinds, raw_columns=range(7))


def _fixture_report_html(report: FixtureReport) -> str:
    rows = fixture_rows(report)
    head = f"<div class='tk-headline'><b>{esc(_report_headline(report, rows))}</b></div>"
    if report.nested_note:
        head += f"<div class='tk-note'>{esc(report.nested_note)}</div>"
    return wrap("fixture-report", head + fixture_table_html(rows))


def _fixture_text(fixture: Fixture) -> str:
    why = f" — {fixture.why}" if fixture.why else ""
    return f"Fixture {fixture.id} ({fixture.family}): expect {fixture.expected} for {one_line_json(fixture.args)}{why}"


FIXTURE_REPORT_RENDERER = Renderer(_fixture_report_text, _fixture_report_html)
FIXTURE_RENDERER = Renderer(_fixture_text, lambda f: wrap("fixture", esc(_fixture_text(f))))


# -- declaration diffs -----------------------------------------------------------------------------------
_CHANGE_HEADERS = ("kind", "tool", "rule", "path", "summary")


def _change_row(change: Change) -> tuple[str, ...]:
    return (change.kind, change.tool, change.rule, change.path, change.summary)


def _diff_headline(diff: DeclarationDiff | SpecDiff, label: str = "DeclarationDiff") -> str:
    changes = diff.changes
    if not changes:
        return f"{label}: no changes"
    tally = {kind: sum(1 for c in changes if c.kind == kind) for kind in ("breaking", "behavioural", "additive")}
    counts = ", ".join(f"{n} {k}" for k, n in tally.items() if n)
    verdict = diff.verdict
    note = " — needs a versioning decision" if verdict == "breaking" else ""
    return f"{label} {verdict}: {len(changes)} change{'s' if len(changes) != 1 else ''} ({counts}){note}"


def changes_html(changes: Sequence[Change]) -> str:
    """The changes table, each row coloured by its kind (breaking, behavioural, additive)."""
    if not changes:
        return "<p class='tk-empty'>No changes.</p>"
    cells = [(badge(c.kind), *_change_row(c)[1:]) for c in changes]
    return html_table(_CHANGE_HEADERS, cells, row_kinds=[c.kind for c in changes], raw_columns=[0])


def _diff_text(diff: DeclarationDiff | SpecDiff) -> str:
    """The diff's own deterministic text, so notebooks, the CLI and displays agree."""
    return diff.to_text()


def _diff_html(diff: DeclarationDiff) -> str:
    head = f"<div class='tk-headline'><b>{esc(_diff_headline(diff))}</b></div>"
    return wrap("declaration-diff", head + changes_html(diff.changes))


DECLARATION_DIFF_RENDERER = Renderer(_diff_text, _diff_html)
CHANGE_RENDERER: Renderer[Change] = Renderer(
    lambda c: "  ".join(x for x in _change_row(c) if x), lambda c: wrap("change", changes_html([c]))
)


# -- spec diffs ----------------------------------------------------------------------------------------------
def _spec_diff_html(diff: SpecDiff) -> str:
    parts = [f"<div class='tk-headline'><b>{esc(_diff_headline(diff, f'SpecDiff {diff.namespace}'.strip()))}</b></div>"]
    added, removed = sorted(diff.added), sorted(diff.removed)
    if added or removed:
        rows = [("added", n) for n in added] + [("removed", n) for n in removed]
        kinds = ["additive"] * len(added) + ["breaking"] * len(removed)
        parts.append(section("Tools added and removed", html_table(("", "tool"), rows, row_kinds=kinds)))
    if diff.newly_rejected:
        refused = [(r.operation_id or "-", r.slug, r.message) for r in diff.newly_rejected]
        parts.append(section("Newly refused operations", html_table(("operationId", "slug", "reason"), refused)))
    parts.append(section("Changes", changes_html(diff.changes)))
    return wrap("spec-diff", "".join(parts))


SPEC_DIFF_RENDERER = Renderer(_diff_text, _spec_diff_html)


# -- golden checks ---------------------------------------------------------------------------------------------
def _golden_headline(report: GoldenReport) -> str:
    counts = {
        "ok": len(report.ok),
        "missing": len(report.missing),
        "stale": len(report.stale),
        "orphaned": len(report.orphaned),
    }
    state = "passed" if report.passed else "FAILED"
    return f"golden {state}: " + ", ".join(f"{n} {part}" for part, n in counts.items())


def _golden_text(report: GoldenReport) -> str:
    """The report's own deterministic text, so notebooks, the CLI and displays agree."""
    return report.to_text()


def _golden_html(report: GoldenReport) -> str:
    rows: list[tuple[str, str, str]] = [(name, "missing", "no golden file yet") for name in report.missing]
    kinds = ["fail"] * len(rows)
    for entry in report.stale:
        verdict = entry.diff.verdict if entry.diff is not None else "unreadable"
        rows.append((entry.name, "stale", f"{verdict} {entry.reason}".strip()))
        kinds.append(verdict if verdict in ("breaking", "behavioural", "additive") else "fail")
    rows += [(name, "orphaned", "golden file with no tool") for name in report.orphaned]
    kinds += ["warning"] * len(report.orphaned)
    parts = [f"<div class='tk-headline'><b>{esc(_golden_headline(report))}</b></div>"]
    if rows:
        parts.append(html_table(("tool", "state", "detail"), rows, row_kinds=kinds))
    for entry in report.stale:
        if entry.diff is not None and entry.diff.changes:
            parts.append(section(f"{entry.name}: golden → now", changes_html(entry.diff.changes)))
    return wrap("golden-report", "".join(parts))


GOLDEN_REPORT_RENDERER = Renderer(_golden_text, _golden_html)
