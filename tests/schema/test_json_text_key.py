"""``json_text_key``: the memos' key for "the same JSON text" agrees with ``json.dumps`` (the oracle) on which
values are the same, including the values orjson writes otherwise; the validator's ``json_key`` is JSON Schema's
equality instead, and each caller needs its own.

Internals: ``json_text_key`` and ``_validation._run.json_key``, the two keys under test, and ``build_tool`` for a
hand-written schema."""

from __future__ import annotations

import json
import math
from typing import Any

import jsonschema
import pytest

import toolkit as tk
from toolkit import ToolContract
from toolkit._canonical import json_text_key
from toolkit._tool import build_tool
from toolkit._validation._run import json_key


class _Text(str):
    __slots__ = ()


def _std(value: Any) -> str | None:
    try:
        return json.dumps(value, ensure_ascii=False, check_circular=False)
    except (TypeError, ValueError, RecursionError):
        return None


VALUES: list[Any] = [
    1,
    1.0,
    True,
    None,
    0.0,
    -0.0,
    1e-05,
    0.00001,
    1e16,
    float("nan"),
    float("inf"),
    -math.inf,
    2**64,
    2**64 + 1,
    "null",
    "x,null",
    "\ud800",
    _Text("a"),
    "a",
    {"a": 1},
    {"a": 1.0},
    {"a": None},
    {"a": float("nan")},
    {1: "a"},
    {"1": "a"},
    [None, 1],
    [float("nan"), 1],
    {"b": 1, "a": 2},
    {"a": 2, "b": 1},
    {"default": "2020-01-01"},
]


@pytest.mark.parametrize("index", range(len(VALUES)))
def test_key_equals_another_exactly_when_json_dumps_does(index: int) -> None:
    """Equal keys only for values ``json.dumps`` writes alike; for values a JSON document can hold (string
    keys), equal keys for every such pair too. ``json.dumps`` writes the key ``1`` as ``"1"``: the key keeps
    them apart, which only shares less."""
    value = VALUES[index]
    key = json_text_key(value)
    for other in VALUES:
        if _std(value) is None or _std(other) is None:
            continue
        if key == json_text_key(other):
            assert _std(value) == _std(other), (value, other)
        elif not any(isinstance(v, dict) and 1 in v for v in (value, other)):
            assert _std(value) != _std(other), (value, other)


def test_what_json_cannot_spell_has_no_key() -> None:
    assert json_text_key({"a": object()}) is None
    assert json_text_key({"a": {1, 2}}) is None
    assert json_text_key(_std) is None


def test_the_memos_and_the_validator_want_two_equalities() -> None:
    """``1`` and ``1.0`` lower to two declarations, so the memos' key keeps them apart; JSON Schema calls them
    one value (the ``jsonschema`` oracle accepts ``1.0`` for ``enum: [1]``), so the validator's key joins them."""

    def declared(bound: float) -> str:
        return json.dumps(tk.lower({"type": "object", "properties": {"x": {"maximum": bound}}}).schema)

    assert declared(1) != declared(1.0)
    assert json_text_key(1) != json_text_key(1.0)

    schema = {"type": "object", "properties": {"x": {"enum": [1]}}}
    assert jsonschema.Draft202012Validator(schema).is_valid({"x": 1.0})
    assert build_tool(ToolContract("t", "A tool.", schema, source="schema")).validate({"x": 1.0}).ok
    assert json_key(1) == json_key(1.0)
