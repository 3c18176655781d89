"""A table whose rows are picked by click or keyboard: the one widget here with a front end of its own.

ipywidgets has no table whose rows send events back, so :class:`RowTable` is an ``anywidget`` with a small ES
module: it draws the rows it is given (each cell as text, never markup; a long cell cut with an ellipsis and
shown whole in its tooltip), marks the ``selected`` row, and sets ``selected`` when a row is clicked or when
Arrow Up / Arrow Down / Home / End / j / k move the selection while the table has focus (the notebook's own
shortcuts are suppressed there). What a selection means is the Python side's business.
"""

from __future__ import annotations

from typing import Any

import anywidget
import traitlets

__all__ = ["RowTable"]

_ESM = """
function render({ model, el }) {
  const box = document.createElement("div");
  box.className = "tk-rowtable";
  const table = document.createElement("table");
  table.tabIndex = 0;
  table.setAttribute("role", "grid");
  table.setAttribute("data-lm-suppress-shortcuts", "true");
  box.appendChild(table);
  el.appendChild(box);
  const choose = (id) => { model.set("selected", id); model.save_changes(); };
  const draw = () => {
    table.replaceChildren();
    const selected = model.get("selected");
    const head = table.createTHead().insertRow();
    for (const name of model.get("columns")) {
      const th = document.createElement("th");
      th.textContent = name;
      head.appendChild(th);
    }
    const body = table.createTBody();
    for (const row of model.get("rows")) {
      const tr = body.insertRow();
      tr.dataset.id = row.id;
      tr.className = "tk-row tk-" + row.kind + (row.id === selected ? " tk-selected" : "");
      tr.setAttribute("aria-selected", row.id === selected ? "true" : "false");
      for (const cell of row.cells) {
        const td = tr.insertCell();
        td.textContent = cell;
        td.title = cell;
      }
      tr.addEventListener("click", () => { table.focus(); choose(row.id); });
    }
    const chosen = body.querySelector(".tk-selected");
    if (chosen && chosen.scrollIntoView) chosen.scrollIntoView({ block: "nearest" });
  };
  table.addEventListener("keydown", (event) => {
    const rows = model.get("rows");
    if (!rows.length) return;
    const at = rows.findIndex((r) => r.id === model.get("selected"));
    const moves = { ArrowDown: at + 1, j: at + 1, ArrowUp: at - 1, k: at - 1, Home: 0, End: rows.length - 1 };
    if (!(event.key in moves)) return;
    event.preventDefault();
    event.stopPropagation();
    choose(rows[Math.max(0, Math.min(rows.length - 1, moves[event.key]))].id);
  });
  model.on("change:rows", draw);
  model.on("change:selected", draw);
  model.on("change:columns", draw);
  draw();
}
export default { render };
"""

_CSS = """
.tk-rowtable { max-height: 26em; overflow: auto; width: 100%; }
.tk-rowtable table { width: 100%; table-layout: fixed; border-collapse: collapse; font-size: 90%; }
.tk-rowtable table:focus { outline: 2px solid #0969da; outline-offset: -2px; }
.tk-rowtable th, .tk-rowtable td {
  text-align: left; padding: 0.15em 0.5em; white-space: nowrap; overflow: hidden; text-overflow: ellipsis;
}
.tk-rowtable th { position: sticky; top: 0; background: var(--jp-layout-color1, #fff); }
.tk-rowtable tr.tk-row { cursor: pointer; border-left: 4px solid transparent; }
.tk-rowtable tr.tk-pass { border-left-color: #1a7f37; }
.tk-rowtable tr.tk-fail { border-left-color: #cf222e; background: #ffebe9; }
.tk-rowtable tr.tk-row:hover { background: #eaeef2; }
.tk-rowtable tr.tk-selected, .tk-rowtable tr.tk-selected:hover { background: #ddf4ff; font-weight: 600; }
"""


class RowTable(anywidget.AnyWidget):
    """``columns`` (names), ``rows`` (``{"id", "cells", "kind"}`` dicts, cells as text) and the ``selected`` id."""

    _esm = _ESM
    _css = _CSS
    columns = traitlets.List(traitlets.Unicode()).tag(sync=True)
    rows = traitlets.List(traitlets.Dict()).tag(sync=True)
    selected = traitlets.Unicode("").tag(sync=True)

    def __init__(self, columns: list[str], rows: list[dict[str, Any]], **kwargs: Any) -> None:
        super().__init__(columns=columns, rows=rows, **kwargs)
