"""Fixtures view: the fixture report as a table coloured pass/fail; picking a row shows its envelope."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from toolkit._display._markup import esc
from toolkit._display._reports import FixtureTableRow, fixture_rows, fixture_table_html
from toolkit.widgets._base import View, html_widget
from toolkit.widgets.envelope import EnvelopeInspector

if TYPE_CHECKING:
    from toolkit._fixtures import FixtureReport

__all__ = ["FixturesView"]


def _label(row: FixtureTableRow) -> str:
    return f"{'pass' if row.passed else 'FAIL'} · {row.id} · expected {row.expected}, got {row.actual}"


class FixturesView(View):
    """The rows of a :class:`~toolkit.FixtureReport`; selecting one sends its envelope to ``inspector``."""

    def __init__(self, report: FixtureReport, inspector: EnvelopeInspector | None = None, name: str = "") -> None:
        self.report = report
        self.name = name
        self.rows = fixture_rows(report)
        self.inspector = inspector or EnvelopeInspector()
        self.selected: FixtureTableRow | None = None
        failed = sum(1 for r in self.rows if not r.passed)
        self.headline = html_widget(
            f"<b>{len(self.rows)} fixtures</b>: {len(self.rows) - failed} passed, "
            f"<span style='color:{'#cf222e' if failed else 'inherit'}'>{failed} failed</span>"
            " (a failing row means the contract and the validator disagree). Pick one to see its envelope."
            + (f"<br><i>{esc(report.nested_note)}</i>" if report.nested_note else "")
        )
        self.picker = widgets.Select(
            options=[(_label(r), r.id) for r in self.rows],
            value=None,
            rows=min(10, max(2, len(self.rows))),
            description="Fixture",
            layout=widgets.Layout(width="100%"),
        )
        self.picker.observe(self._on_pick, names="value")
        self.table = html_widget(fixture_table_html(self.rows))
        self.widget = widgets.VBox([self.headline, self.picker, self.inspector.widget, self.table])

    def _on_pick(self, change: dict[str, Any]) -> None:
        if change["new"] is not None:
            self.select(change["new"])

    def select(self, fixture_id: str) -> FixtureTableRow:
        """Mark the row ``fixture_id`` and show its envelope in the inspector."""
        row = next((r for r in self.rows if r.id == fixture_id), None)
        if row is None:
            known = ", ".join(r.id for r in self.rows[:5])
            raise KeyError(f"no fixture {fixture_id!r} in this report; ids look like: {known}")
        self.selected = row
        self.table.value = fixture_table_html(self.rows, selected=row.id)
        self.inspector.show(row.envelope, f"fixture {row.id} ({row.family}): {row.why}")
        if self.picker.value != row.id:
            self.picker.value = row.id
        return row

    def summary(self) -> str:
        failed = [r.id for r in self.rows if not r.passed]
        head = f"Fixtures{' of ' + self.name if self.name else ''}: {len(self.rows)} fired, "
        head += f"{len(self.rows) - len(failed)} passed, {len(failed)} failed"
        if failed:
            head += f" ({', '.join(failed)})"
        if self.selected is not None:
            head += f"; selected {self.selected.id}"
        return head
