"""Hostile arguments (``tests/hostile_payloads.py``) meet ``validate()`` and ``call()``: each gives an envelope.

For every payload the envelope must come back (nothing raised, no hang), its ``to_json()`` must be JSON
(no ``NaN``/``Infinity``) that encodes as UTF-8, it must hold at most :data:`MAX_FIELD_ERRORS` field errors
with a notice counting the rest, and an ``ok`` envelope's data must be plain JSON. The payloads that break
one of these today are marked ``xfail(strict=True)`` with the reason, so the fix that mends one flips it.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hostile_payloads import PAYLOADS, SCHEMAS, Payload

import toolkit as tk
from toolkit import Policy, Tool, ToolContract, ToolResult

MAX_FIELD_ERRORS = 50
"""The most field errors one envelope may carry; a notice counts the rest."""

CALL_SKIPPED = 10_000
"""Payloads with this many problems or more run through ``validate()`` only (``call()`` validates the same way)."""

HUGE = "validate() raises ValueError: str() of an integer over 4,300 digits"
HUGE_OK = "a 5,000-digit integer is accepted and to_json() raises ValueError (str() of an int over 4,300 digits)"
DEEP_OK = "nesting 10^5 deep is accepted and to_json() raises RecursionError"
CYCLE = "validate() raises ValueError (circular reference) on a cycle under enum, const or uniqueItems"
CYCLE_OK = "a Python object cycle is accepted and to_json() raises ValueError (circular reference)"
MIXED = "validate() raises TypeError sorting a dict with int and str keys under enum, const or uniqueItems"
MIXED_OK = "a dict with int and str keys is accepted and to_json() raises TypeError"
REPR = "validate() raises the RuntimeError of an object whose __repr__ raises"
REPR_OK = "an object (or key) whose __repr__ raises is accepted under {} and to_json() raises"
MANY = "every problem becomes a field error: no bound, no notice counting the rest"
SURROGATE = "a lone surrogate goes into the envelope, whose JSON then cannot be encoded as UTF-8"
NAN = "NaN/Infinity accepted under {} and written into the envelope as NaN/Infinity, which is not JSON"
NOT_JSON = "a value JSON cannot hold (bytes, Decimal, objects) is accepted under {} and left in the data"

FAILING_VALIDATE: dict[str, str] = {
    "huge_int_integer": HUGE_OK,
    "huge_negative_int": HUGE_OK,
    "huge_int_bounded": HUGE,
    "huge_int_string": HUGE,
    "huge_int_any": HUGE_OK,
    "huge_int_in_array": HUGE_OK,
    "huge_int_enum": HUGE,
    "huge_int_const": HUGE,
    "deep_dict_any": DEEP_OK,
    "deep_list_any": DEEP_OK,
    "deep_list_unique": DEEP_OK,
    "cyclic_dict_any": CYCLE_OK,
    "cyclic_list_any": CYCLE_OK,
    "cyclic_dict_enum": CYCLE,
    "cyclic_list_const": CYCLE,
    "cyclic_unique": CYCLE,
    "cyclic_args": CYCLE_OK,
    "mixed_keys_any": MIXED_OK,
    "mixed_keys_enum": MIXED,
    "mixed_keys_unique": MIXED,
    "mixed_keys_const": MIXED,
    "raising_repr_key": REPR_OK,
    "raising_repr_key_args": REPR,
    "raising_repr_any": REPR_OK,
    "raising_repr_string": REPR,
    "raising_repr_enum": REPR,
    "raising_repr_args": REPR,
    "unknown_keys_300k": MANY,
    "wrong_items_300k": MANY,
    "unknown_keys_100": MANY,
    "lone_surrogate_string": SURROGATE,
    "lone_surrogate_key": SURROGATE,
    "nan_any": NAN,
    "inf_any": NAN,
    "bytes_any": NOT_JSON,
    "bytearray_any": NOT_JSON,
    "object_any": NOT_JSON,
    "decimal_any": NOT_JSON,
    "raising_eq_unique": NOT_JSON,
    "raising_hash_unique": NOT_JSON,
}
"""Payloads whose ``validate()`` envelope breaks a rule today, with why."""

FAILING_CALL: dict[str, str] = {
    "huge_int_string": HUGE,
    "raising_repr_key_args": REPR,
    "raising_repr_string": REPR,
    "raising_repr_args": REPR,
    "unknown_keys_100": MANY,
    "lone_surrogate_key": SURROGATE,
}
"""Payloads whose ``call()`` envelope breaks a rule today, with why."""


def make_tool(name: str) -> Tool:
    """A tool holding one schema as the validator sees it (no lowering or lints: this file is about validation)."""
    contract = ToolContract(name=name, description="Hostile payloads.", args_schema=SCHEMAS[name])
    return Tool(contract=contract, parameters=None, policy=Policy())


def store(x: Any = None, n: int = 0, s: str = "", a: list[int] | None = None) -> dict[str, Any]:
    """Store a thing.

    Args:
        x: Anything at all.
        n: A count.
        s: A label.
        a: Some numbers.
    """
    return {"stored": True}


TOOLS = {name: make_tool(name) for name in SCHEMAS}
FUNCTION = tk.from_function(store, effect="read")


def _not_json(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


def check_envelope(result: Any, payload: Payload) -> None:
    assert isinstance(result, ToolResult)
    text = result.to_json()
    json.loads(text, parse_constant=_not_json)
    text.encode("utf-8")
    assert len(result.errors) <= MAX_FIELD_ERRORS, f"{len(result.errors)} field errors"
    if payload.many is not None and payload.many > MAX_FIELD_ERRORS:
        rest = payload.many - len(result.errors)
        shown = [json.dumps(n.to_dict()) for n in result.notices]
        assert any(str(rest) in n or f"{rest:,}" in n for n in shown), f"no notice counts the other {rest}"
    if result.status == "ok":
        json.dumps(result.data, allow_nan=False)


def _cases(failing: dict[str, str], limit: int | None = None) -> list[Any]:
    chosen = [p for p in PAYLOADS if limit is None or (p.many or 0) < limit]
    return [
        pytest.param(
            p, id=p.id, marks=[pytest.mark.xfail(strict=True, reason=failing[p.id])] if p.id in failing else []
        )
        for p in chosen
    ]


def test_payload_ids_are_unique_and_the_failing_lists_name_real_payloads() -> None:
    ids = [p.id for p in PAYLOADS]
    assert len(ids) == len(set(ids))
    assert set(FAILING_VALIDATE) | set(FAILING_CALL) <= set(ids)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("payload", _cases(FAILING_VALIDATE))
def test_validate_returns_a_bounded_json_envelope(payload: Payload) -> None:
    check_envelope(TOOLS[payload.schema].validate(payload.make()), payload)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("payload", _cases(FAILING_CALL, limit=CALL_SKIPPED))
def test_call_returns_a_bounded_json_envelope(payload: Payload) -> None:
    check_envelope(FUNCTION.call(payload.make()), payload)
