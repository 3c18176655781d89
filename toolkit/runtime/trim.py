"""Cut an API response down to what the model needs, and say what was cut.

Returning a full API payload burns the model's context and buries the answer. Every generated HTTP tool
carries :class:`Trim` settings; :func:`trim` applies them to the decoded response and returns the smaller
value together with one :class:`~toolkit.Notice` per kind of cut, so the model knows the result is partial.

The three cuts, in order:

* ``keep_fields``: at the *record level* only these keys are kept: the elements of a top-level list, the
  elements of the lists a page wrapper holds (``{"items": [...], "next_cursor": ...}``; the wrapper's own
  keys stay), or else the top-level object itself. Empty means keep everything.
* ``max_items``: every list longer than this, anywhere in the value, is cut to its first ``max_items``.
* ``max_bytes``: if the compact JSON is still larger, the longest list is halved until it fits; a value
  with no list left to cut is replaced by its first ``max_bytes`` characters of JSON text.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from toolkit._envelope import Notice

__all__ = ["Trim", "trim"]


@dataclass(frozen=True, slots=True)
class Trim:
    """Per-tool trimming settings (``None`` switches a cut off)."""

    keep_fields: tuple[str, ...] = ()
    max_items: int | None = 50
    max_bytes: int | None = 16_000

    def __post_init__(self) -> None:
        for label, value in (("max_items", self.max_items), ("max_bytes", self.max_bytes)):
            if value is not None and value < 1:
                raise ValueError(f"Trim.{label} must be a positive integer or None, not {value!r}")


def trim(value: Any, settings: Trim) -> tuple[Any, tuple[Notice, ...]]:
    """Apply ``settings`` to a decoded JSON response; return the trimmed value and what was cut."""
    notices: list[Notice] = []
    if settings.keep_fields:
        value, dropped = _keep_records(value, frozenset(settings.keep_fields))
        if dropped:
            notices.append(
                Notice(
                    field="",
                    action="trimmed",
                    message=f"dropped fields not needed here: {', '.join(sorted(dropped))}",
                )
            )
    if settings.max_items is not None:
        cuts: list[tuple[str, int]] = []
        value = _cut_lists(value, settings.max_items, "", cuts)
        notices.extend(
            Notice(field=path, action="trimmed", from_=length, to=settings.max_items, message="list cut to fit")
            for path, length in cuts
        )
    if settings.max_bytes is not None:
        value, shrunk = _fit_bytes(value, settings.max_bytes)
        if shrunk:
            notices.append(
                Notice(field="", action="trimmed", to=settings.max_bytes, message="result cut to a byte budget")
            )
    return value, tuple(notices)


def _keep_fields(record: Any, keep: frozenset[str], dropped: set[str]) -> Any:
    if not isinstance(record, Mapping):
        return record
    dropped.update(k for k in record if k not in keep)
    return {k: v for k, v in record.items() if k in keep}


def _keep_records(value: Any, keep: frozenset[str]) -> tuple[Any, set[str]]:
    dropped: set[str] = set()
    if isinstance(value, list):
        return [_keep_fields(item, keep, dropped) for item in value], dropped
    if isinstance(value, Mapping) and any(isinstance(item, list) for item in value.values()):
        # a page wrapper such as {"items": [...], "next_cursor": ...}: trim the records, keep the wrapper
        wrapper = {
            key: [_keep_fields(element, keep, dropped) for element in item] if isinstance(item, list) else item
            for key, item in value.items()
        }
        return wrapper, dropped
    return _keep_fields(value, keep, dropped), dropped


def _join(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def _cut_lists(value: Any, limit: int, path: str, cuts: list[tuple[str, int]]) -> Any:
    if isinstance(value, list):
        if len(value) > limit:
            cuts.append((path, len(value)))
            value = value[:limit]
        return [_cut_lists(item, limit, _join(path, i), cuts) for i, item in enumerate(value)]
    if isinstance(value, Mapping):
        return {k: _cut_lists(v, limit, _join(path, k), cuts) for k, v in value.items()}
    return value


def _size(value: Any) -> int:
    return len(json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str).encode("utf-8"))


def _longest_list(value: Any) -> list[Any] | None:
    """The longest list (more than one element) inside ``value``, to halve next."""
    best: list[Any] | None = None
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            if len(node) > 1 and (best is None or len(node) > len(best)):
                best = node
            stack.extend(node)
        elif isinstance(node, dict):
            stack.extend(node.values())
    return best


def _fit_bytes(value: Any, budget: int) -> tuple[Any, bool]:
    if _size(value) <= budget:
        return value, False
    value = json.loads(json.dumps(value, default=str))  # a private copy we may cut in place
    while _size(value) > budget:
        longest = _longest_list(value)
        if longest is None:
            text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)
            return text[:budget], True
        del longest[(len(longest) + 1) // 2 :]
    return value, True
