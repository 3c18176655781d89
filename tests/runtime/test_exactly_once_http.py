"""Exactly once over HTTP, in one process: an :class:`HttpTool` behind the ledger against a real upstream on
127.0.0.1 (``runtime_workers/bank_upstream.py`` in a thread) that logs every effect it applies. Every test
counts effects in that log, never in the ledger. The same schedules in real processes (a generated module, an
``Executor``, ``toolkit serve`` over stdio and HTTP) are in ``test_exactly_once_processes.py``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from runtime_workers.bank_upstream import SPEC, Upstream, in_thread

import toolkit as tk
from toolkit import ToolContext
from toolkit.runtime import Ledger, idempotent
from toolkit.runtime.http import HttpConfig, HttpTool

SESSION = ToolContext(session_id="s-1")
MOVE = {"account": "acct_A", "amount": 100}


@pytest.fixture
def upstream(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Upstream]:
    fail, times = getattr(request, "param", (None, 0))
    with in_thread(tmp_path / "effects.jsonl", fail, times) as running:
        yield running


@pytest.fixture(scope="module")
def bank() -> dict[str, tk.Tool]:
    return {tool.name: tool for tool in tk.from_openapi(SPEC, namespace="bank").tools}


def http(bank: dict[str, tk.Tool], name: str, upstream: Upstream, **config: Any) -> HttpTool:
    return HttpTool(bank[name], config=HttpConfig(base_url=upstream.url, timeout=5, **config))


# -- one key, from the validated call --------------------------------------------------------------------------
def test_a_retry_that_only_spells_a_null_differently_is_a_replay(
    bank: dict[str, tk.Tool], upstream: Upstream, tmp_path: Path
) -> None:
    wrapped = idempotent(http(bank, "bank_payout", upstream), ledger=Ledger(tmp_path / "ledger.sqlite3"))
    first = wrapped.call(MOVE, SESSION)
    again = wrapped.call({**MOVE, "note": None}, SESSION)
    assert first.ok
    assert first.replay is None
    assert again.replay is not None
    assert again.data == first.data
    assert len(upstream.effects()) == 1


@pytest.mark.parametrize(
    ("args", "code"),
    [
        ({"account": "acct_A", "amount": float("inf")}, "not_finite"),
        ({"account": "x" * 70_000, "amount": 1}, "too_long"),
        ({"account": "acct_\ud800", "amount": 1}, "invalid_json"),
        ({"account": "acct_A", "amount": 1, "note": "\udfff"}, "invalid_json"),
    ],
    ids=["non-finite-number", "70000-character-path", "lone-surrogate-in-path", "lone-surrogate-in-body"],
)
def test_what_no_request_can_carry_is_a_field_error_and_nothing_is_sent(
    bank: dict[str, tk.Tool], upstream: Upstream, tmp_path: Path, args: dict[str, Any], code: str
) -> None:
    tool = http(bank, "bank_transfer", upstream)
    for caller in (tool, idempotent(tool, ledger=Ledger(tmp_path / "ledger.sqlite3"))):
        result = caller.call(args, SESSION)
        assert (result.status, result.errors[0].code) == ("invalid_arguments", code), result.to_dict()
    assert upstream.effects() == []


# -- sent means maybe applied ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "upstream", [("drop", 1), ("504", 1)], ids=["dropped-after-body", "gateway-504"], indirect=True
)
def test_a_keyed_write_that_got_no_answer_is_unknown_and_its_retry_resends_the_same_key(
    bank: dict[str, tk.Tool], upstream: Upstream, tmp_path: Path
) -> None:
    ledger = Ledger(tmp_path / "ledger.sqlite3")
    wrapped = idempotent(http(bank, "bank_transfer", upstream), ledger=ledger)
    first = wrapped.call(MOVE, SESSION)
    assert first.status == "error"
    assert first.retryable is True
    assert [n.action for n in first.notices] == ["outcome_unknown"]
    [record] = ledger.records()
    assert record.state == "unknown"
    again = wrapped.call(MOVE, SESSION)
    assert again.ok, again.to_dict()
    assert len(upstream.effects()) == 1  # re-sent with the same Idempotency-Key: the upstream answered its receipt
    assert {e["key"] for e in upstream.effects()} == {wrapped.key_for(MOVE, SESSION)}
    assert wrapped.call(MOVE, SESSION).replay is not None
    assert len(upstream.effects()) == 1


@pytest.mark.parametrize(
    "upstream", [("drop", 1), ("504", 1)], ids=["dropped-after-body", "gateway-504"], indirect=True
)
def test_an_unkeyed_write_that_got_no_answer_is_never_resent_blindly(
    bank: dict[str, tk.Tool], upstream: Upstream, tmp_path: Path
) -> None:
    ledger = Ledger(tmp_path / "ledger.sqlite3")
    wrapped = idempotent(http(bank, "bank_payout", upstream), ledger=ledger)
    first = wrapped.call(MOVE, SESSION)
    assert (first.status, first.retryable) == ("error", False)
    [notice] = first.notices
    assert notice.action == "outcome_unknown"
    assert "reconcile" in notice.message
    for _ in range(3):
        again = wrapped.call(MOVE, SESSION)
        assert (again.status, again.retryable) == ("error", False)
        assert "outcome is unknown" in again.message
    assert len(upstream.effects()) == 1


@pytest.mark.parametrize("upstream", [("drop", 1)], indirect=True)
def test_a_reconcile_read_settles_an_unknown_write(
    bank: dict[str, tk.Tool], upstream: Upstream, tmp_path: Path
) -> None:
    def applied(key: str) -> Any:
        return None if not upstream.effects() else {"transfer_id": "tr_1"}

    ledger = Ledger(tmp_path / "ledger.sqlite3")
    wrapped = idempotent(http(bank, "bank_payout", upstream), ledger=ledger, reconcile=applied)
    assert wrapped.call(MOVE, SESSION).notices[0].action == "outcome_unknown"
    assert [r.state for r in ledger.records()] == ["completed"]  # the reconcile read found the effect
    again = wrapped.call(MOVE, SESSION)
    assert again.replay is not None
    assert again.data == {"transfer_id": "tr_1"}
    assert len(upstream.effects()) == 1


@pytest.mark.parametrize("upstream", [("drop", 1)], indirect=True)
def test_without_a_ledger_a_write_that_got_no_answer_is_unknown_and_not_retryable(
    bank: dict[str, tk.Tool], upstream: Upstream
) -> None:
    result = http(bank, "bank_transfer", upstream).call(MOVE)  # a random key per call: a retry is not safe
    assert (result.status, result.retryable, result.notices[0].action) == ("error", False, "outcome_unknown")


def test_a_read_that_got_no_answer_is_only_a_retryable_failure() -> None:
    spec = {
        "openapi": "3.1.0",
        "info": {"title": "t", "version": "1"},
        "paths": {
            "/x": {
                "get": {
                    "operationId": "getX",
                    "description": "Read x.",
                    "x-agent-tool": {"name": "t_x"},
                    "responses": {"200": {"description": "x"}},
                }
            }
        },
    }
    [tool] = tk.from_openapi(spec, namespace="t").tools
    result = HttpTool(tool, config=HttpConfig(base_url="http://127.0.0.1:9")).call({})
    assert (result.status, result.retryable, result.notices) == ("error", True, ())


@pytest.mark.parametrize("upstream", [("surrogate", 1)], indirect=True)
def test_a_lone_surrogate_in_the_reply_is_read_as_a_replacement_character_and_the_receipt_kept(
    bank: dict[str, tk.Tool], upstream: Upstream, tmp_path: Path
) -> None:
    ledger = Ledger(tmp_path / "ledger.sqlite3")
    wrapped = idempotent(http(bank, "bank_transfer", upstream), ledger=ledger)
    first = wrapped.call(MOVE, SESSION)
    assert first.ok, first.to_dict()
    assert first.data["memo"] == "\ufffd"
    first.to_json().encode("utf-8")  # the envelope travels as UTF-8
    assert [r.state for r in ledger.records()] == ["completed"]
    assert wrapped.call(MOVE, SESSION).data == first.data
    assert len(upstream.effects()) == 1


# -- the same key, other arguments ---------------------------------------------------------------------------------
def test_a_caller_key_reused_for_another_transfer_is_refused_and_sends_nothing(
    bank: dict[str, tk.Tool], upstream: Upstream, tmp_path: Path
) -> None:
    wrapped = idempotent(http(bank, "bank_transfer", upstream), ledger=Ledger(tmp_path / "ledger.sqlite3"))
    keyed = ToolContext(session_id="s-1", extras={"idempotency_key": "transfer-42"})
    assert wrapped.call(MOVE, keyed).ok
    other = wrapped.call({"account": "acct_B", "amount": 99_999}, keyed)
    assert (other.status, other.errors[0].code) == ("rejected", "idempotency_key_reused")
    assert [(e["account"], e["amount"]) for e in upstream.effects()] == [("acct_A", 100)]
