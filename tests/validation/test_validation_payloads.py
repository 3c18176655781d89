"""Hostile arguments (``tests/hostile_payloads.py``) meet ``validate()`` and ``call()``: each gives an envelope.

For every payload the envelope must come back (nothing raised, no hang), its ``to_json()`` must be JSON
(no ``NaN``/``Infinity``) that encodes as UTF-8, it must hold at most :data:`MAX_FIELD_ERRORS` field errors
with a notice counting the rest, and an ``ok`` envelope's data must be plain JSON.
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


def _cases(limit: int | None = None) -> list[Any]:
    return [pytest.param(p, id=p.id) for p in PAYLOADS if limit is None or (p.many or 0) < limit]


def test_payload_ids_are_unique() -> None:
    ids = [p.id for p in PAYLOADS]
    assert len(ids) == len(set(ids))


@pytest.mark.slow
@pytest.mark.timeout(120)
@pytest.mark.parametrize("payload", _cases())
def test_validate_returns_a_bounded_json_envelope(payload: Payload) -> None:
    check_envelope(TOOLS[payload.schema].validate(payload.make()), payload)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("payload", _cases(limit=CALL_SKIPPED))
def test_call_returns_a_bounded_json_envelope(payload: Payload) -> None:
    check_envelope(FUNCTION.call(payload.make()), payload)
