"""Renderers for reports from lazily loaded stages: fixture reports, declaration and spec diffs, golden checks.

These types live in modules this one must not import (they load pandas or pydantic), so the renderers read
them by attribute, the way the stages document them, and are registered by class name.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from toolkit._display import Renderer, register
from toolkit._display._markup import badge, esc, html_table, one_line_json, section, text_table, wrap

__all__ = ["FixtureTableRow", "changes_html", "fixture_rows", "fixture_table_html"]


def _attr(obj: Any, *names: str, default: Any = None) -> Any:
    for name in names:
        value = getattr(obj, name, None)
        if value is not None:
            return value
    return default


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
    envelope: Any


def _row(item: Any) -> FixtureTableRow:
    fixture = _attr(item, "fixture", default=item)
    return FixtureTableRow(
        id=str(_attr(fixture, "id", default="")),
        family=str(_attr(fixture, "family", default="")),
        args=_attr(fixture, "args", default=None),
        expected=str(_attr(item, "expected", default=_attr(fixture, "expected", default=""))),
        actual=str(_attr(item, "actual", default="")),
        passed=bool(_attr(item, "passed", "ok", default=False)),
        why=str(_attr(fixture, "why", default="")),
        envelope=_attr(item, "result", "envelope"),
    )


def fixture_rows(report: Any) -> list[FixtureTableRow]:
    """The report's rows in order, each with its envelope."""
    items = _attr(report, "rows", "results", "outcomes")
    if items is None:
        items = list(report) if isinstance(report, Iterable) else []
    return [_row(item) for item in items]


def _verdict(row: FixtureTableRow) -> str:
    return "pass" if row.passed else "FAIL"


def _status(row: FixtureTableRow) -> str:
    codes = ",".join(e.code for e in _attr(row.envelope, "errors", default=()))
    status = str(_attr(row.envelope, "status", default=""))
    return f"{status} {codes}".strip()


_FIXTURE_HEADERS = ("id", "expected", "actual", "envelope", "verdict")
_FIXTURE_HTML_HEADERS = ("id", "family", "expected", "actual", "envelope", "verdict", "args")


def _fixture_cells(row: FixtureTableRow) -> tuple[str, ...]:
    """Text columns; the arguments are left to the HTML table and the envelope inspector."""
    return (row.id, row.expected, row.actual, _status(row), _verdict(row))


def _report_headline(report: Any, rows: Sequence[FixtureTableRow]) -> str:
    failed = sum(1 for r in rows if not r.passed)
    tool = _attr(report, "tool_name", "tool", default="")
    name = getattr(tool, "name", tool)
    target = f" for {name}" if name else ""
    return f"FixtureReport{target}: {len(rows)} fixtures, {len(rows) - failed} passed, {failed} failed"


def _fixture_report_text(report: Any) -> str:
    rows = fixture_rows(report)
    return "\n".join([_report_headline(report, rows), *text_table(_FIXTURE_HEADERS, map(_fixture_cells, rows))])


def fixture_table_html(rows: Sequence[FixtureTableRow], *, selected: str | None = None) -> str:
    """The fixture table coloured by pass/fail; the row whose id is ``selected`` is marked with ▶."""

    def id_cell(row: FixtureTableRow) -> str:
        return f"<b>▶ {esc(row.id)}</b>" if row.id == selected else esc(row.id)

    def cells(row: FixtureTableRow) -> tuple[str, ...]:
        args = f"<code style='font-size:85%'>{esc(one_line_json(row.args))}</code>"
        middle = tuple(esc(cell) for cell in _fixture_cells(row)[1:-1])
        return (id_cell(row), esc(row.family), *middle, badge(_verdict(row), "pass" if row.passed else "fail"), args)

    kinds = ["pass" if r.passed else "fail" for r in rows]
    return html_table(_FIXTURE_HTML_HEADERS, [cells(r) for r in rows], row_kinds=kinds, raw_columns=range(7))


def _fixture_report_html(report: Any) -> str:
    rows = fixture_rows(report)
    head = f"<div class='tk-headline'><b>{esc(_report_headline(report, rows))}</b></div>"
    return wrap("fixture-report", head + fixture_table_html(rows))


def _fixture_text(fixture: Any) -> str:
    return (
        f"Fixture {_attr(fixture, 'id', default='')} ({_attr(fixture, 'family', default='')}): "
        f"expect {_attr(fixture, 'expected', default='')} for {one_line_json(_attr(fixture, 'args'))}"
        + (f" — {fixture.why}" if _attr(fixture, "why") else "")
    )


register("FixtureReport", Renderer(_fixture_report_text, _fixture_report_html))
register("Fixture", Renderer(_fixture_text, lambda f: wrap("fixture", esc(_fixture_text(f)))))


# -- declaration diffs -----------------------------------------------------------------------------------
_CHANGE_HEADERS = ("kind", "tool", "rule", "path", "summary")


def _change_row(change: Any) -> tuple[str, ...]:
    return (
        str(change.kind),
        str(_attr(change, "tool", default="")),
        str(change.rule),
        str(change.path),
        str(change.summary),
    )


def _own_text(obj: Any) -> str | None:
    """The stage's own deterministic text (``to_text()``), so notebooks, CLI and displays agree."""
    to_text = getattr(obj, "to_text", None)
    return str(to_text()) if callable(to_text) else None


def _diff_headline(diff: Any, label: str = "DeclarationDiff") -> str:
    changes = list(_attr(diff, "changes", default=()))
    if not changes:
        return f"{label}: no changes"
    tally = {kind: sum(1 for c in changes if c.kind == kind) for kind in ("breaking", "behavioural", "additive")}
    counts = ", ".join(f"{n} {k}" for k, n in tally.items() if n)
    verdict = _attr(diff, "verdict", default="")
    note = " — needs a versioning decision" if verdict == "breaking" else ""
    return f"{label} {verdict}: {len(changes)} change{'s' if len(changes) != 1 else ''} ({counts}){note}"


def changes_html(changes: Sequence[Any]) -> str:
    """The changes table, each row coloured by its kind (breaking, behavioural, additive)."""
    if not changes:
        return "<p class='tk-empty'>No changes.</p>"
    cells = [(badge(str(c.kind)), *_change_row(c)[1:]) for c in changes]
    return html_table(_CHANGE_HEADERS, cells, row_kinds=[str(c.kind) for c in changes], raw_columns=[0])


def _diff_text(diff: Any) -> str:
    own = _own_text(diff)
    if own is not None:
        return own
    return "\n".join([_diff_headline(diff), *text_table(_CHANGE_HEADERS, [_change_row(c) for c in diff.changes])])


def _diff_html(diff: Any) -> str:
    head = f"<div class='tk-headline'><b>{esc(_diff_headline(diff))}</b></div>"
    return wrap("declaration-diff", head + changes_html(list(diff.changes)))


register("DeclarationDiff", Renderer(_diff_text, _diff_html))
register(
    "Change",
    Renderer(lambda c: "  ".join(x for x in _change_row(c) if x), lambda c: wrap("change", changes_html([c]))),
)


# -- spec diffs ----------------------------------------------------------------------------------------------
def _names(values: Iterable[Any]) -> list[str]:
    return sorted(str(getattr(v, "name", v)) for v in values)


def _spec_diff_text(diff: Any) -> str:
    own = _own_text(diff)
    if own is not None:
        return own
    added, removed = _names(_attr(diff, "added", default=())), _names(_attr(diff, "removed", default=()))
    lines = [f"SpecDiff: {len(added)} added, {len(removed)} removed", _diff_headline(diff, "changes")]
    return "\n".join(lines + text_table(_CHANGE_HEADERS, [_change_row(c) for c in _attr(diff, "changes", default=())]))


def _spec_diff_html(diff: Any) -> str:
    namespace = _attr(diff, "namespace", default="")
    parts = [f"<div class='tk-headline'><b>{esc(_diff_headline(diff, f'SpecDiff {namespace}'.strip()))}</b></div>"]
    added, removed = _names(_attr(diff, "added", default=())), _names(_attr(diff, "removed", default=()))
    if added or removed:
        rows = [("added", n) for n in added] + [("removed", n) for n in removed]
        kinds = ["additive"] * len(added) + ["breaking"] * len(removed)
        parts.append(section("Tools added and removed", html_table(("", "tool"), rows, row_kinds=kinds)))
    rejected = list(_attr(diff, "newly_rejected", default=()))
    if rejected:
        refused = [(r.operation_id or "-", r.slug, r.message) for r in rejected]
        parts.append(section("Newly refused operations", html_table(("operationId", "slug", "reason"), refused)))
    parts.append(section("Changes", changes_html(list(_attr(diff, "changes", default=())))))
    return wrap("spec-diff", "".join(parts))


register("SpecDiff", Renderer(_spec_diff_text, _spec_diff_html))


# -- golden checks ---------------------------------------------------------------------------------------------
def _golden_headline(report: Any) -> str:
    counts = {part: len(_attr(report, part, default=())) for part in ("ok", "missing", "stale", "orphaned")}
    state = "passed" if not (counts["missing"] or counts["stale"] or counts["orphaned"]) else "FAILED"
    return f"golden {state}: " + ", ".join(f"{n} {part}" for part, n in counts.items())


def _golden_text(report: Any) -> str:
    own = _own_text(report)
    return own if own is not None else _golden_headline(report)


def _golden_html(report: Any) -> str:
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
            parts.append(section(f"{entry.name}: golden → now", changes_html(list(entry.diff.changes))))
    return wrap("golden-report", "".join(parts))


register("GoldenReport", Renderer(_golden_text, _golden_html))
