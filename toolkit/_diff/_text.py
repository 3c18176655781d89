"""How a declaration change is worded for a reviewer: short JSON values, and long texts cut to what differs.

A changed description of 2,000 characters is useless in a review table when shown whole; :func:`contrast`
shows the differing middle with a little context, so the summary says *what* changed in one line.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["contrast", "show"]


def show(value: Any) -> str:
    """A value as a reviewer reads it: JSON, short."""
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= 80 else text[:77] + "..."


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
    """The differing middle of ``text`` (common prefix ``start`` and suffix ``end`` cut), as JSON."""
    begin, stop = max(0, start - context), min(len(text), len(text) - end + context)
    middle = text[begin:stop]
    if len(middle) > limit:
        middle = middle[:limit] + "…"
    quoted = json.dumps(middle, ensure_ascii=False)
    return ("…" if begin > 0 else "") + quoted + ("…" if stop < len(text) and not quoted.endswith('…"') else "")
