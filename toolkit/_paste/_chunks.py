"""YAML read a block at a time, so an edit re-reads only the block it touched.

A pasted fragment is re-read on every edit; a large one (an operation that references most of a spec's schemas)
takes a YAML parser a fifth of a second, and almost all of it did not change. :func:`parse_blocks` cuts a block
mapping document at its top-level keys and, for a key whose value is a block mapping (``paths``,
``components``), at that value's keys too; it parses each block on its own and keeps the value under the
block's text in ``cache``, so unchanged blocks are not parsed again. The assembled value equals what one parse
of the whole text gives.

Text the cut cannot vouch for is not cut (``None``; the caller parses the whole text, which also locates any
mistake): directives and document markers, tabs or flow collections at a block's start, a line that is neither
a key nor indented under one, and a block that does not parse alone (an alias to an anchor in another block).
Cached values are shared between versions: callers must not change them (the OpenAPI stage never does).
"""

from __future__ import annotations

import re
from collections.abc import MutableMapping
from typing import Any

from toolkit._exceptions import SpecError
from toolkit._openapi._parse import MAX_BYTES

__all__ = ["CACHE_LIMIT", "parse_blocks"]

CACHE_LIMIT = 4096
"""How many parsed blocks a cache keeps (the oldest go first)."""

_END = r"(?=[ \t\r\n]|\Z)"
_KEY = re.compile(rf"""(?:[^\s#\-{{}}\[\]&*!|>%@`,?:][^\n]*?|'[^'\n]*'|"[^"\n]*"):{_END}""")
"""A line that starts a block mapping entry (a plain, single- or double-quoted key, then ``:``)."""
_MARKERS = re.compile(r"^(?:%|---|\.\.\.)", re.M)
"""Directives and document markers: the text is not one plain block mapping document."""
_ITEM = re.compile(rf"-{_END}")
_BARE = re.compile(r"""[^\s#'"{}\[\]&*!|>%@`,?][^\n#]*?:[ \t]*(?:#.*)?""")
"""A key line whose value is the block below it (nothing after the colon but a comment)."""


_FIRST = re.compile(r"\n( *)(?=[^ \r\n#])")
"""The indentation of a line that is neither blank nor a comment.

The patterns that find lines start at the line end before them (a literal the regular expression engine
scans for quickly, where ``^`` with ``re.M`` is tried at every character); the text read starts with one."""


def _at(indent: int) -> re.Pattern[str]:
    """Lines that start with exactly ``indent`` spaces and then something other than a space, a line end or a
    comment (a comment belongs to the block it sits in)."""
    return re.compile(rf"\n {{{indent}}}(?=[^ \r\n#])")


def _shallower(indent: int) -> re.Pattern[str]:
    """Lines (not blank, not a comment) indented less than ``indent``."""
    return re.compile(rf"\n {{0,{indent - 1}}}(?=[^ \r\n#])")


def _split(text: str, start: int, end: int, indent: int) -> list[tuple[int, int]] | None:
    """The ``[first, last)`` character ranges of the entries at ``indent`` in ``text[start:end]``; ``None`` when
    a line there is less indented, comes before the first entry, or sits at ``indent`` without being a key or a
    list item under the key above."""
    if indent and _shallower(indent).search(text, start - 1, end):
        return None
    starts: list[int] = []
    for match in _at(indent).finditer(text, start - 1, end):
        if starts and _ITEM.match(text, match.end()):
            continue  # a list item under the entry above (YAML lets a list sit at its key's indent)
        if not _KEY.match(text, match.end()):
            return None
        starts.append(match.start() + 1)
    if not starts or _FIRST.search(text, start - 1, starts[0] - 1):
        return None
    return list(zip(starts, [*starts[1:], end], strict=True))


def _parse(text: str, cache: MutableMapping[str, Any]) -> Any:
    if text in cache:
        return cache[text]
    # PyYAML loads only when YAML text is read (a heavy dependency).
    from toolkit._openapi._yaml import parse_yaml

    value = parse_yaml(text)
    while len(cache) >= CACHE_LIMIT:
        cache.pop(next(iter(cache)))
    cache[text] = value
    return value


def _entry(value: Any) -> tuple[str, Any]:
    if not isinstance(value, dict) or len(value) != 1:
        raise SpecError("the block is not one mapping entry", slug="parse_error")
    ((key, inner),) = value.items()
    return str(key), inner


def _block_value(text: str, first: int, last: int, cache: MutableMapping[str, Any]) -> tuple[str, Any]:
    """One top-level entry as ``(key, value)``, its value's entries parsed one by one when it is a block map."""
    body = text.index("\n", first) + 1
    head = text[first:body]
    children = None
    if _BARE.fullmatch(head.rstrip("\r\n")):
        found = _FIRST.search(text, body - 1, last)
        indent = len(found.group(1)) if found is not None else 0
        if indent > 0 and not _ITEM.match(text, found.end() if found is not None else body):
            children = _split(text, body, last, indent)
    if not children or len(children) < 2:
        return _entry(_parse(text[first:last], cache))
    merged: dict[str, Any] = {}
    key = ""
    for start, stop in children:
        key, inner = _entry(_parse(head + text[start:stop], cache))
        if not isinstance(inner, dict):
            raise SpecError("the block is not a mapping", slug="parse_error")
        merged.update(inner)
    return key, merged


def parse_blocks(text: str, cache: MutableMapping[str, Any]) -> dict[str, Any] | None:
    """``text`` (YAML) parsed block by block through ``cache``; ``None`` when it is not cut (see the module)."""
    if len(text) > MAX_BYTES or text.lstrip()[:1] in ("{", "[") or _MARKERS.search(text):
        return None
    text = "\n" + (text if text.endswith("\n") else text + "\n")  # every line starts after a line end
    blocks = _split(text, 1, len(text), 0)
    if not blocks:
        return None
    value: dict[str, Any] = {}
    try:
        for first, last in blocks:
            key, inner = _block_value(text, first, last, cache)
            value[key] = inner
    except (SpecError, RecursionError):
        return None
    return value
