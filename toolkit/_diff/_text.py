"""How a declaration change is worded for a reviewer: short JSON values, and long texts cut to what differs.

A changed description of 2,000 characters is useless in a review table when shown whole; :func:`contrast`
shows the differing middle with a little context, so the summary says *what* changed in one line.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["contrast", "plural", "shorten", "show"]


def plural(count: int, noun: str, many: str | None = None) -> str:
    """``1 change``, ``2 changes``, ``0 changes`` (``many`` for an irregular plural)."""
    return f"{count} {noun if count == 1 else many or noun + 's'}"


def _boundary_before(text: str, limit: int) -> int:
    """Where to cut ``text`` at most ``limit`` characters in: after the last word, unless that loses too much."""
    cut = max(text.rfind(" ", 0, limit + 1), text.rfind("\n", 0, limit + 1))
    return cut if cut >= limit // 2 else limit


def shorten(text: str, limit: int = 80) -> str:
    """``text`` cut to ``limit`` characters at a word boundary, ending in ``…`` when anything was cut."""
    if len(text) <= limit:
        return text
    return text[: _boundary_before(text, limit - 1)].rstrip() + "…"


def show(value: Any) -> str:
    """A value as a reviewer reads it: JSON, short (cut at a word boundary)."""
    return shorten(json.dumps(value, ensure_ascii=False, sort_keys=True))


def contrast(before: Any, after: Any) -> str:
    """``from X to Y``; for long texts only the part that differs, with a little context either side."""
    if not (isinstance(before, str) and isinstance(after, str)) or max(len(before), len(after)) <= 60:
        return f"from {show(before)} to {show(after)}"
    start = 0
    while start < min(len(before), len(after)) and before[start] == after[start]:
        start += 1
    end = 0
    while end < min(len(before), len(after)) - start and before[-1 - end] == after[-1 - end]:
        end += 1
    return f"from {_excerpt(before, start, end)} to {_excerpt(after, start, end)}"


def _excerpt(text: str, start: int, end: int, context: int = 24, limit: int = 80) -> str:
    """The differing middle of ``text`` (common prefix ``start`` and suffix ``end`` cut), as JSON; the
    context either side starts and ends at word boundaries, so no word is cut in half."""
    begin, stop = max(0, start - context), min(len(text), len(text) - end + context)
    if 0 < begin < start and not text[begin - 1].isspace():  # mid-word: start after the next space
        spaces = [i for i in range(begin, start) if text[i].isspace()]
        begin = spaces[0] + 1 if spaces else begin
    if len(text) - end < stop < len(text) and not text[stop].isspace():  # mid-word: end at the last space
        spaces = [i for i in range(len(text) - end, stop) if text[i].isspace()]
        stop = spaces[-1] if spaces else stop
    middle = text[begin:stop]
    if len(middle) > limit:
        middle = shorten(middle, limit)
    quoted = json.dumps(middle, ensure_ascii=False)
    return ("…" if begin > 0 else "") + quoted + ("…" if stop < len(text) and not quoted.endswith('…"') else "")
