"""Pure building blocks for the renderers: escaped HTML, aligned text tables and a JSON highlighter.

Everything here is a function of its arguments (no ids, no clocks), so the same object always renders to
the same bytes: nbval compares the text, golden files pin the HTML. Every piece of data that reaches HTML
goes through :func:`esc` first, so a hostile description cannot inject markup or script.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from toolkit._regex import lazy

__all__ = [
    "STATUS_COLOURS",
    "badge",
    "code_block",
    "esc",
    "highlight_json",
    "html_table",
    "json_text",
    "one_line_json",
    "plural",
    "section",
    "text_table",
    "wrap",
]

STATUS_COLOURS: dict[str, str] = {
    "ok": "#1a7f37",
    "pass": "#1a7f37",
    "accept": "#1a7f37",
    "additive": "#1a7f37",
    "info": "#0969da",
    "accept_with_notice": "#0969da",
    "behavioural": "#9a6700",
    "warning": "#9a6700",
    "needs_confirmation": "#9a6700",
    "partial": "#9a6700",
    "timeout": "#9a6700",
    "rejected": "#bc4c00",
    "reject": "#bc4c00",
    "invalid_arguments": "#cf222e",
    "error": "#cf222e",
    "fail": "#cf222e",
    "breaking": "#cf222e",
}

_TINTS: dict[str, str] = {"#1a7f37": "#dafbe1", "#cf222e": "#ffebe9", "#bc4c00": "#fff1e5", "#9a6700": "#fff8c5"}

_CELL = "text-align:left;vertical-align:top;padding:0.15em 0.6em"

_JSON_COLOURS = {"key": "#0550ae", "string": "#0a3069", "number": "#953800", "literal": "#8250df"}
_JSON_TOKEN = lazy(
    r'(?P<string>"(?:[^"\\]|\\.)*")(?P<colon>\s*:)?'
    r"|(?P<number>-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)"
    r"|(?P<literal>\btrue\b|\bfalse\b|\bnull\b)"
)


def esc(value: Any) -> str:
    """HTML-escape any value's text (quotes included, so it is safe inside attributes too).

    What ``html.escape(text, quote=True)`` gives; that module loads its table of 2,231 named entities on
    import, which only unescaping reads.
    """
    text = value if isinstance(value, str) else str(value)
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return text.replace('"', "&quot;").replace("'", "&#x27;")


def json_text(value: Any) -> str:
    """Canonical, readable JSON for display: sorted keys, indent 2, non-ASCII kept; never raises."""
    return json.dumps(value, sort_keys=True, indent=2, ensure_ascii=False, default=repr)


def one_line_json(value: Any) -> str:
    """Compact JSON on one line (for table cells); never raises."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=repr)


def highlight_json(text: str) -> str:
    """Wrap the tokens of JSON ``text`` in coloured spans; everything is escaped. Pure, no JavaScript."""
    out: list[str] = []
    position = 0
    for match in _JSON_TOKEN.finditer(text):
        out.append(esc(text[position : match.start()]))
        if match.group("string") is not None:
            kind = "key" if match.group("colon") else "string"
            out.append(_span(kind, match.group("string")) + esc(match.group("colon") or ""))
        else:
            kind = "number" if match.group("number") is not None else "literal"
            out.append(_span(kind, match.group(0)))
        position = match.end()
    out.append(esc(text[position:]))
    return "".join(out)


def _span(kind: str, token: str) -> str:
    return f'<span class="tk-json-{kind}" style="color:{_JSON_COLOURS[kind]}">{esc(token)}</span>'


def code_block(text: str, *, highlighted: bool = False) -> str:
    """A ``<pre>`` block; ``highlighted`` treats ``text`` as JSON and colours it."""
    body = highlight_json(text) if highlighted else esc(text)
    return f'<pre class="tk-code" style="margin:0.2em 0;padding:0.4em;background:#f6f8fa">{body}</pre>'


def plural(count: int, word: str) -> str:
    """``1 loss``, ``2 losses``, ``3 tools``: a count and its noun."""
    return f"{count} {word}" if count == 1 else f"{count} {word}{'es' if word.endswith('s') else 's'}"


def badge(label: str, kind: str | None = None) -> str:
    """A small coloured label (status, verdict, severity)."""
    colour = STATUS_COLOURS.get(kind or label, "#57606a")
    return (
        f'<span class="tk-badge tk-{esc(kind or label)}" '
        f'style="color:#fff;background:{colour};padding:0 0.4em;border-radius:3px">{esc(label)}</span>'
    )


def html_table(
    headers: Sequence[str],
    rows: Iterable[Sequence[Any]],
    *,
    row_kinds: Sequence[str] | None = None,
    raw_columns: Iterable[int] = (),
) -> str:
    """An HTML table; cells are escaped except in ``raw_columns`` (already-rendered markup).

    ``row_kinds`` colours each row's left border by kind (pass/fail, breaking/additive ...).
    """
    raw = set(raw_columns)
    head = "".join(f"<th style='{_CELL}'>{esc(h)}</th>" for h in headers)
    body: list[str] = []
    for index, row in enumerate(rows):
        kind = row_kinds[index] if row_kinds is not None else ""
        colour = STATUS_COLOURS.get(kind, "transparent")
        cells = "".join(f"<td style='{_CELL}'>{cell if i in raw else esc(cell)}</td>" for i, cell in enumerate(row))
        tint = _TINTS.get(colour, "transparent")
        style = f" style='border-left:4px solid {colour};background:{tint}'" if kind else ""
        css = f" class='tk-row tk-{esc(kind)}'" if kind else " class='tk-row'"
        body.append(f"<tr{css}{style}>{cells}</tr>\n")
    return f"<table class='tk-table'>\n<thead><tr>{head}</tr></thead>\n<tbody>\n{''.join(body)}</tbody></table>\n"


def section(title: str, body: str) -> str:
    """A titled block of already-rendered HTML."""
    return f"<div class='tk-section'><b>{esc(title)}</b>\n{body}</div>\n"


def wrap(kind: str, body: str) -> str:
    """The outer element every renderer returns, named for the kind of object it shows."""
    return f"<div class='tk-display tk-{esc(kind)}'>{body}</div>"


def text_table(headers: Sequence[str], rows: Iterable[Sequence[Any]], *, indent: str = "  ") -> list[str]:
    """Columns padded to their widest cell (the last column is never padded); one string per line."""
    cells = [[str(h) for h in headers], *[[_one_line(c) for c in row] for row in rows]]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    lines = []
    for row in cells:
        padded = [c.ljust(widths[i]) for i, c in enumerate(row[:-1])] + row[-1:]
        lines.append((indent + "  ".join(padded)).rstrip())
    return lines


def _one_line(value: Any) -> str:
    text = value if isinstance(value, str) else one_line_json(value)
    return " ".join(text.split())
