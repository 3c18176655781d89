"""Fixtures view: the fixture report as a table that fits the cell, filtered by verdict and family; clicking a
row (or moving to it with the keyboard) shows its arguments and envelope in the view's own inspector."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from toolkit._display._markup import esc
from toolkit._display._reports import FixtureTableRow, cut_cell, fixture_rows, tried_cell
from toolkit.widgets._base import View, html_widget
from toolkit.widgets._table import RowTable
from toolkit.widgets.envelope import EnvelopeInspector

if TYPE_CHECKING:
    from toolkit._fixtures import FixtureReport

__all__ = ["FixturesView"]

_COLUMNS = ["id", "family", "expected", "actual", "envelope", "verdict", "value tried"]
_VERDICTS = (("all", "all"), ("failed", "fail"), ("passed", "pass"))


def _status(row: FixtureTableRow) -> str:
    codes = ",".join(e.code for e in row.envelope.errors)
    return f"{row.envelope.status} {codes}".strip()


def _table_row(row: FixtureTableRow) -> dict[str, Any]:
    verdict = "pass" if row.passed else "FAIL"
    cells = [cut_cell(c) for c in (row.id, row.family, row.expected, row.actual, _status(row), verdict)]
    return {"id": row.id, "cells": [*cells, tried_cell(row)], "kind": "pass" if row.passed else "fail"}


class FixturesView(View):
    """The rows of a :class:`~toolkit.FixtureReport`; selecting one shows it in this view's ``inspector``."""

    def __init__(self, report: FixtureReport, inspector: EnvelopeInspector | None = None, name: str = "") -> None:
        self.report = report
        self.name = name
        self.rows = fixture_rows(report)
        self.inspector = inspector or EnvelopeInspector()
        self.selected: FixtureTableRow | None = None
        failed = sum(1 for r in self.rows if not r.passed)
        self.headline = html_widget(
            f"<b>Fixtures{' of ' + esc(name) if name else ''}</b>: {len(self.rows)} fired, "
            f"{len(self.rows) - failed} passed, "
            f"<span style='color:{'#cf222e' if failed else 'inherit'}'>{failed} failed</span>"
            " (a failing row means the contract and the validator disagree). Click a row, or use the arrow keys, "
            "to see its envelope." + (f"<br><i>{esc(report.nested_note)}</i>" if report.nested_note else "")
        )
        self.verdict = widgets.ToggleButtons(options=list(_VERDICTS), value="all", description="Verdict")
        families = sorted({r.family for r in self.rows})
        self.family = widgets.Dropdown(options=[("all families", "all")] + [(f, f) for f in families], value="all")
        self.family.description = "Family"
        for control in (self.verdict, self.family):
            control.style.description_width = "initial"
            control.observe(lambda _change: self._filter(), names="value")
        self.table = RowTable(_COLUMNS, [_table_row(r) for r in self.rows])
        self.table.observe(self._on_pick, names="selected")
        filters = widgets.HBox([self.verdict, self.family])
        self.widget = widgets.VBox([self.headline, filters, self.table, self.inspector.widget])

    @property
    def shown(self) -> list[FixtureTableRow]:
        """The rows the filters let through, in report order."""
        verdict, family = self.verdict.value, self.family.value
        return [
            r
            for r in self.rows
            if (verdict == "all" or (verdict == "pass") == r.passed) and (family == "all" or r.family == family)
        ]

    def _filter(self) -> None:
        self.table.rows = [_table_row(r) for r in self.shown]

    def _on_pick(self, change: dict[str, Any]) -> None:
        if change["new"] and (self.selected is None or self.selected.id != change["new"]):
            self.select(change["new"])

    def filter(self, verdict: str = "all", family: str = "all") -> list[FixtureTableRow]:
        """Show only rows with ``verdict`` (``"pass"``, ``"fail"`` or ``"all"``) and ``family``; the rows shown."""
        self.verdict.value, self.family.value = verdict, family
        return self.shown

    def select(self, fixture_id: str) -> FixtureTableRow:
        """Mark the row ``fixture_id`` and show its arguments and envelope in the inspector."""
        row = next((r for r in self.rows if r.id == fixture_id), None)
        if row is None:
            known = ", ".join(r.id for r in self.rows[:5])
            raise KeyError(f"no fixture {fixture_id!r} in this report; ids look like: {known}")
        self.selected = row
        self.inspector.show(row.envelope, f"fixture {row.id} ({row.family}): {row.why}", row.args)
        if self.table.selected != row.id:
            self.table.selected = row.id
        return row

    def summary(self) -> str:
        failed = [r.id for r in self.rows if not r.passed]
        head = f"Fixtures{' of ' + self.name if self.name else ''}: {len(self.rows)} fired, "
        head += f"{len(self.rows) - len(failed)} passed, {len(failed)} failed"
        if failed:
            head += f" ({', '.join(failed)})"
        if self.selected is not None:
            head += f"; selected {self.selected.id}\n{self.inspector.summary()}"
        return head
