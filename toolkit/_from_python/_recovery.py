"""Per-line docstring reading: what ``docstring-parser`` loses on one malformed line, recovered line by line.

``docstring-parser`` reads a style all or nothing: one line without a colon in a Google ``Args:`` section
raises inside it, the automatic style choice then falls back to a style that finds no parameter at all, and
the section's text lands in the description. :func:`recover` reads sections one line at a time instead:

* section headers are found case-insensitively (``Args:``, ``Arguments``, ``Parameters``, ``Keyword Args:``,
  ``Attributes:``, ``**Args:**``, ``# Args``, a NumPy title over a ``---``/``===`` underline of any length);
  a section ends at the next header (or reST field) no deeper than its own;
* reST and Epydoc fields (``:param [type] name: text``, ``@param name: text``, also with the colon after
  the name forgotten) are read anywhere;
* in a parameter section, an entry is ``[bullet] name [(type)] <sep> text`` with ``:``, ``-``, ``--``,
  ``–`` or ``—`` as the separator (``name``, ``` `name` ``` and ``*name`` alike); a NumPy ``name : type``
  line takes its text from the deeper lines below; a deeper line continues the current entry; a line at
  entry level that is no entry continues the previous entry when that one reads unfinished (no final
  ``.``, ``!`` or ``?``) or the line starts in lower case, and is otherwise skipped — with a note;
* the description is the text before the first header or field.

The caller (:func:`toolkit._from_python._docstrings.parse_docstring`) keeps what ``docstring-parser`` read
and takes from here only what it lost.
"""

from __future__ import annotations

import inspect
import re
from typing import NamedTuple

from toolkit._regex import lazy

__all__ = ["Recovered", "recover"]

PARAM_SECTIONS = frozenset(
    {
        "args", "arguments", "parameters", "params", "keyword args", "keyword arguments", "kwargs",
        "other parameters", "other params", "attributes",
    }
)  # fmt: skip
_OTHER_SECTIONS = frozenset(
    {
        "returns", "return", "yields", "yield", "raises", "raise", "except", "exceptions", "examples",
        "example", "notes", "note", "see also", "warnings", "warning", "warns", "references", "todo", "methods",
    }
)  # fmt: skip
_HEADER = lazy(r"^(?:#+\s*)?(?:\*\*)?(?P<title>[A-Za-z][A-Za-z ]*?)\s*(?::\s*)?(?:\*\*)?(?::)?$")
_UNDERLINE = lazy(r"^\s*(-{3,}|={3,})\s*$")
_NAME = r"`?\*{0,2}(?P<name>[A-Za-z_][A-Za-z0-9_]*)`?"
_ENTRY = lazy(rf"^(?:[-*+]\s+)?{_NAME}\s*(?:\((?P<type>[^)]*)\))?(?:\s*:|\s+(?:--|-|–|—)(?:\s+|$))\s*(?P<rest>.*)$")
_NUMPY_ENTRY = lazy(rf"^{_NAME}\s*:\s*(?P<type>[^.]*?)\s*$")
_NUMPY_SPACED = lazy(r"^`?\*{0,2}\w+`?\s+:")
_BARE_NAME = lazy(rf"^{_NAME}$")
_FIELD = lazy(r"^[:@](?:param|parameter|arg|argument|key|keyword)\s+(?P<body>.*)$")
_ANY_FIELD = lazy(r"^[:@]\w+")
_IDENTIFIER = lazy(r"^\*{0,2}[A-Za-z_][A-Za-z0-9_]*$")


class Recovered(NamedTuple):
    """What the per-line reader found: the description, entries by name, and the lines it could not read."""

    description: str
    params: dict[str, str]
    notes: tuple[str, ...]
    structured: bool
    """Whether the docstring has a parameter section or a parameter field at all."""


class _Entry:
    __slots__ = ("name", "parts")

    def __init__(self, name: str, parts: list[str] | None = None) -> None:
        self.name = name
        self.parts = [] if parts is None else parts

    def text(self) -> str:
        return " ".join(" ".join(self.parts).split())


def recover(text: str) -> Recovered:
    """Read ``text`` (a raw docstring) line by line; see the module docstring for the rules."""
    lines = inspect.cleandoc(text.expandtabs(4)).splitlines()
    found: dict[str, str] = {}
    notes: list[str] = []
    first: int | None = None
    structured = False
    i = 0
    while i < len(lines):
        if _ANY_FIELD.match(lines[i].strip()):
            first = i if first is None else first
            structured = structured or _FIELD.match(lines[i].strip()) is not None
            i = _read_field(lines, i, found)
            continue
        title, span = _section_title(lines, i)
        if title is None:
            i += 1
            continue
        first = i if first is None else first
        end = _section_end(lines, i, i + span)
        if title in PARAM_SECTIONS:
            structured = True
            for name, description in _read_section(lines, i + span, end, numpy=span == 2, notes=notes):
                if description:
                    found.setdefault(name, description)
        i = end
    body = lines if first is None else lines[:first]
    description = re.sub(r"\n{3,}", "\n\n", "\n".join(body).strip())
    return Recovered(description, found, tuple(notes), structured)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _section_title(lines: list[str], i: int) -> tuple[str | None, int]:
    """``(normalised title, lines the header takes)`` when line ``i`` opens a section, else ``(None, 0)``."""
    raw = lines[i].strip()
    match = _HEADER.match(raw)
    if match is None:
        return None, 0
    title = " ".join(match.group("title").lower().split())
    if title not in PARAM_SECTIONS and title not in _OTHER_SECTIONS:
        return None, 0
    underlined = i + 1 < len(lines) and _UNDERLINE.match(lines[i + 1]) is not None
    marked = raw.endswith((":", "**")) or raw.startswith("#")
    if not (underlined or marked or title in PARAM_SECTIONS):
        return None, 0  # "Returns" as a word on its own line of prose, without colon or underline
    return title, 2 if underlined else 1


def _section_end(lines: list[str], header: int, start: int) -> int:
    level = _indent(lines[header])
    end = start
    while end < len(lines):
        line = lines[end]
        opens = line.strip() and (_section_title(lines, end)[0] is not None or _ANY_FIELD.match(line.strip()))
        if opens and _indent(line) <= level:
            break
        end += 1
    return end


def _read_field(lines: list[str], i: int, found: dict[str, str]) -> int:
    """One reST/Epydoc field and its deeper continuation lines; returns the index after it."""
    head = _FIELD.match(lines[i].strip())
    entry = _field_entry(head.group("body")) if head else None
    level = _indent(lines[i])
    i += 1
    while i < len(lines) and lines[i].strip() and _indent(lines[i]) > level and not _ANY_FIELD.match(lines[i].strip()):
        if entry is not None:
            entry.parts.append(lines[i].strip())
        i += 1
    if entry is not None and entry.text():
        found.setdefault(entry.name, entry.text())
    return i


def _field_entry(body: str) -> _Entry | None:
    """``[type] name: text``, or ``name text`` when the colon after the name was forgotten."""
    head, colon, rest = body.partition(":")
    tokens = head.split()
    if colon and tokens and _IDENTIFIER.match(tokens[-1]):
        return _Entry(tokens[-1].lstrip("*"), [rest.strip()])
    first, _, tail = body.partition(" ")
    return _Entry(first.lstrip("*"), [tail.strip()]) if _IDENTIFIER.match(first) else None


def _read_section(lines: list[str], start: int, end: int, *, numpy: bool, notes: list[str]) -> list[tuple[str, str]]:
    content = [n for n in range(start, end) if lines[n].strip()]
    if not content:
        return []
    base = min(_indent(lines[n]) for n in content)
    entries: list[_Entry] = []
    current: _Entry | None = None
    for n in content:
        stripped = lines[n].strip()
        if _indent(lines[n]) > base and current is not None:
            current.parts.append(stripped)
            continue
        entry = _entry(stripped, numpy)
        if entry is not None:
            current = entry
            entries.append(entry)
        elif current is not None and (stripped[:1].islower() or not current.text().endswith((".", "!", "?"))):
            current.parts.append(stripped)
            notes.append(f"line {n + 1}: {_cut(stripped)!r} read as more of {current.name!r}")
        else:
            notes.append(f"line {n + 1}: {_cut(stripped)!r} is not 'name: description'; skipped")
    return [(e.name, e.text()) for e in entries]


def _entry(line: str, numpy: bool) -> _Entry | None:
    # NumPy `name : type` (text on the deeper lines): under an underline, or with NumPy's space before ':'
    if (numpy or _NUMPY_SPACED.match(line)) and (match := _NUMPY_ENTRY.match(line)):
        return _Entry(match.group("name"))
    if numpy and (match := _BARE_NAME.match(line)):
        return _Entry(match.group("name"))
    match = _ENTRY.match(line)
    return _Entry(match.group("name"), [match.group("rest")]) if match else None


def _cut(text: str) -> str:
    return text if len(text) <= 60 else text[:57] + "..."
