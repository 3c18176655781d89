"""The idempotency ledger in one process: keys, replays, TTL, overrides, transactions and pending claims.

Internals: ``_canonical.compact``, to compute the ledger's expected key independently."""

from __future__ import annotations

import contextlib
import hashlib
import os
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from toolkit import RuntimeConfigError, ToolContext, ToolResult
from toolkit._canonical import compact
from toolkit.runtime import (
    DEDUPE_KEY_EXTRA,
    Ledger,
    LedgerError,
    ManualClock,
    dedupe_key,
    holders,
    idempotent,
    iso_time,
    ledger_connection,
    reconcile_pending,
)
from toolkit.runtime.idempotency import args_hash

SESSION = ToolContext(session_id="s-1")


class Counter:
    """A write tool that counts its effects; ``fail_with`` makes it answer a non-ok envelope instead."""

    name = "send_invoice"
    effect = "write"

    def __init__(self) -> None:
        self.effects: list[Mapping[str, Any]] = []
        self.fail_with: str | None = None
        self.keys: list[str] = []

    def call(self, args: Mapping[str, Any], context: ToolContext | None = None) -> ToolResult:
        if self.fail_with:
            return ToolResult(status="rejected", message=self.fail_with)  # type: ignore[arg-type]
        self.effects.append(dict(args))
        self.keys.append(context.extras.get(DEDUPE_KEY_EXTRA, "") if context else "")
        return ToolResult(status="ok", data={"invoice_id": f"inv_{len(self.effects)}"})


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(1_767_225_600)


@pytest.fixture
def ledger(tmp_path: Path, clock: ManualClock) -> Ledger:
    return Ledger(tmp_path / "ledger.sqlite3", clock=clock)


def test_dedupe_key_is_sha256_of_session_tool_and_canonical_args() -> None:
    args = {"b": 1.0, "a": [2, "x"]}
    expected = hashlib.sha256(f"s-1|transfer|{compact(args)}".encode()).hexdigest()
    assert dedupe_key("s-1", "transfer", args) == expected


@pytest.mark.parametrize(
    ("left", "right"),
    [({"a": 1, "b": 2}, {"b": 2, "a": 1}), ({"amount": 1.0}, {"amount": 1}), ({"x": 1.50}, {"x": 1.5})],
    ids=["key-order", "int-vs-float", "trailing-zero"],
)
def test_dedupe_key_ignores_formatting_differences(left: dict[str, Any], right: dict[str, Any]) -> None:
    assert dedupe_key("s", "t", left) == dedupe_key("s", "t", right)


@pytest.mark.parametrize(
    ("other_session", "other_tool", "other_args"),
    [("s2", "t", {"a": 1}), ("s", "t2", {"a": 1}), ("s", "t", {"a": 2})],
    ids=["session", "tool", "args"],
)
def test_dedupe_key_changes_with_each_part(other_session: str, other_tool: str, other_args: dict[str, Any]) -> None:
    assert dedupe_key("s", "t", {"a": 1}) != dedupe_key(other_session, other_tool, other_args)


def test_ledger_file_uses_wal_and_defaults_under_the_working_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    ledger = Ledger()
    assert ledger.path == tmp_path / ".toolkit" / "ledger.sqlite3"
    assert ledger.path.is_file()
    conn = sqlite3.connect(ledger.path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()


@pytest.mark.parametrize("mode", ["external", "transaction"])
def test_identical_call_twice_makes_one_effect_and_replays_the_receipt(
    ledger: Ledger, clock: ManualClock, mode: str
) -> None:
    tool = Counter()
    wrapped = idempotent(tool, ledger=ledger, mode=mode)
    first = wrapped.call({"amount": 5}, SESSION)
    clock.advance(90)
    second = wrapped.call({"amount": 5.0}, SESSION)
    assert len(tool.effects) == 1
    assert first.replay is None
    assert second.ok
    assert second.data == first.data
    assert second.replay is not None
    assert second.replay.original_at == iso_time(1_767_225_600)
    assert second.replay.key == dedupe_key("s-1", "send_invoice", {"amount": 5})
    assert "Already done" in second.message


@pytest.mark.parametrize("mode", ["external", "transaction"])
def test_call_runs_again_after_the_ttl(ledger: Ledger, clock: ManualClock, mode: str) -> None:
    tool = Counter()
    wrapped = idempotent(tool, ledger=ledger, ttl=600, mode=mode)
    wrapped.call({"amount": 5}, SESSION)
    clock.advance(599)
    assert wrapped.call({"amount": 5}, SESSION).replay is not None
    clock.advance(1)
    again = wrapped.call({"amount": 5}, SESSION)
    assert again.replay is None
    assert again.data == {"invoice_id": "inv_2"}
    assert len(tool.effects) == 2


def test_sweep_deletes_expired_records(ledger: Ledger, clock: ManualClock) -> None:
    wrapped = idempotent(Counter(), ledger=ledger, ttl=10)
    wrapped.call({"amount": 1}, SESSION)
    clock.advance(5)
    wrapped.call({"amount": 2}, SESSION)
    clock.advance(5)
    assert ledger.sweep().expired_records == 1
    assert len(ledger.records()) == 1


@pytest.mark.parametrize(
    ("options", "context"),
    [
        ({"repeat_ok": True}, SESSION),
        ({}, ToolContext(session_id="s-1", extras={"idempotency": "off"})),
    ],
    ids=["repeat_ok", "per-call-off"],
)
def test_overrides_let_a_meaningful_repeat_run(ledger: Ledger, options: dict[str, Any], context: ToolContext) -> None:
    tool = Counter()
    wrapped = idempotent(tool, ledger=ledger, **options)
    wrapped.call({"amount": 5}, context)
    assert wrapped.call({"amount": 5}, context).replay is None
    assert len(tool.effects) == 2
    assert ledger.records() == []


def test_caller_supplied_key_replaces_the_argument_hash(ledger: Ledger) -> None:
    tool = Counter()
    wrapped = idempotent(tool, ledger=ledger)
    keyed = ToolContext(session_id="s-1", extras={"idempotency_key": "order-7"})
    wrapped.call({"amount": 5}, keyed)
    assert wrapped.call({"amount": 5}, keyed).replay is not None
    assert len(tool.effects) == 1
    assert wrapped.call({"amount": 5}, SESSION).replay is None


def test_a_caller_key_reused_with_other_arguments_is_refused_naming_both_hashes(ledger: Ledger) -> None:
    tool = Counter()
    wrapped = idempotent(tool, ledger=ledger)
    keyed = ToolContext(session_id="s-1", extras={"idempotency_key": "order-7"})
    first = wrapped.call({"amount": 5}, keyed)
    reused = wrapped.call({"amount": 99_999}, keyed)
    assert first.ok
    assert (reused.status, reused.errors[0].code, reused.replay) == ("rejected", "idempotency_key_reused", None)
    [record] = ledger.records()
    assert record.args_hash is not None
    assert record.args_hash in reused.errors[0].problem
    assert args_hash({"amount": 99_999}) in reused.errors[0].problem
    assert len(tool.effects) == 1


def test_decorator_form_wraps_the_tool(ledger: Ledger) -> None:
    tool = Counter()
    wrapped = idempotent(ledger=ledger, ttl=5)(tool)
    assert wrapped.name == "send_invoice"
    assert wrapped.effect == "write"  # other attributes come from the wrapped tool
    assert wrapped.ttl == 5


@pytest.mark.parametrize("mode", ["external", "transaction"])
def test_non_ok_envelope_records_nothing_so_a_fixed_retry_runs(ledger: Ledger, mode: str) -> None:
    tool = Counter()
    wrapped = idempotent(tool, ledger=ledger, mode=mode)
    tool.fail_with = "over the limit"
    assert wrapped.call({"amount": 5}, SESSION).status == "rejected"
    assert ledger.records() == []
    tool.fail_with = None
    assert wrapped.call({"amount": 5}, SESSION).replay is None
    assert len(tool.effects) == 1


class LedgerWriter:
    """A same-database write tool: its effect goes through the ledger's open transaction."""

    name = "book"
    effect = "write"

    def __init__(self, explode: bool = False) -> None:
        self.explode = explode

    def call(self, args: Mapping[str, Any], context: ToolContext | None = None) -> ToolResult:
        conn = ledger_connection(context)
        conn.execute("CREATE TABLE IF NOT EXISTS bookings (seat TEXT)")
        conn.execute("INSERT INTO bookings VALUES (?)", (args["seat"],))
        if self.explode:
            raise RuntimeError("crashed after writing the effect")
        return ToolResult(status="ok", data={"seat": args["seat"]})


def _bookings(ledger: Ledger) -> list[tuple[str]]:
    conn = ledger.connect()
    try:
        return conn.execute("SELECT seat FROM bookings").fetchall()
    except sqlite3.OperationalError:  # the table was rolled back with everything else
        return []
    finally:
        conn.close()


def test_transaction_mode_commits_effect_and_record_together(ledger: Ledger) -> None:
    wrapped = idempotent(LedgerWriter(), ledger=ledger, mode="transaction")
    wrapped.call({"seat": "12A"}, SESSION)
    wrapped.call({"seat": "12A"}, SESSION)
    assert _bookings(ledger) == [("12A",)]
    assert [r.state for r in ledger.records()] == ["completed"]


def test_transaction_mode_rolls_back_the_effect_when_the_tool_raises(ledger: Ledger) -> None:
    wrapped = idempotent(LedgerWriter(explode=True), ledger=ledger, mode="transaction")
    with pytest.raises(RuntimeError, match="crashed"):
        wrapped.call({"seat": "12A"}, SESSION)
    assert _bookings(ledger) == []
    assert ledger.records() == []


def test_ledger_connection_outside_a_transaction_says_how_to_fix() -> None:
    with pytest.raises(RuntimeConfigError, match="mode='transaction'") as caught:
        ledger_connection(ToolContext())
    assert caught.value.slug == "no_ledger_connection"


class Blocking(Counter):
    """Holds its effect until released, so a second caller meets the pending claim."""

    def __init__(self) -> None:
        super().__init__()
        self.entered = threading.Event()
        self.release = threading.Event()

    def call(self, args: Mapping[str, Any], context: ToolContext | None = None) -> ToolResult:
        self.entered.set()
        assert self.release.wait(10)
        return super().call(args, context)


def test_concurrent_identical_call_meets_pending_claim_and_gets_retryable_error(ledger: Ledger) -> None:
    tool = Blocking()
    wrapped = idempotent(tool, ledger=ledger)
    results: list[ToolResult] = []
    first = threading.Thread(target=lambda: results.append(wrapped.call({"amount": 5}, SESSION)))
    first.start()
    assert tool.entered.wait(10)
    concurrent = wrapped.call({"amount": 5}, SESSION)
    tool.release.set()
    first.join(10)
    assert concurrent.status == "error"
    assert concurrent.retryable is True
    assert "still in progress" in concurrent.message
    assert results[0].ok
    assert wrapped.call({"amount": 5}, SESSION).replay is not None
    assert len(tool.effects) == 1


def test_waiting_caller_receives_the_first_calls_receipt(ledger: Ledger) -> None:
    tool = Blocking()
    wrapped = idempotent(tool, ledger=ledger, wait=10)
    results: list[ToolResult] = []
    first = threading.Thread(target=lambda: results.append(wrapped.call({"amount": 5}, SESSION)))
    first.start()
    assert tool.entered.wait(10)
    tool.release.set()  # the waiting caller below polls until the first call completes
    waited = wrapped.call({"amount": 5}, SESSION)
    first.join(10)
    assert waited.ok
    assert waited.data == results[0].data
    assert len(tool.effects) == 1


class Exploding(Counter):
    def call(self, args: Mapping[str, Any], context: ToolContext | None = None) -> ToolResult:
        super().call(args, context)
        raise ConnectionError("the response was lost after the effect")


def test_exception_orphans_the_claim_and_the_next_call_is_told_the_outcome_is_unknown(ledger: Ledger) -> None:
    tool = Exploding()
    wrapped = idempotent(tool, ledger=ledger)
    with pytest.raises(ConnectionError):
        wrapped.call({"amount": 5}, SESSION)
    [record] = ledger.records()
    assert (record.state, record.orphaned) == ("unknown", True)
    unknown = wrapped.call({"amount": 5}, SESSION)
    assert (unknown.status, unknown.retryable) == ("error", False)
    assert "outcome is unknown" in unknown.message
    assert len(tool.effects) == 1


def test_crashed_claim_without_reconcile_is_unknown_once_its_lease_ran_out(ledger: Ledger, clock: ManualClock) -> None:
    crashed = ToolContext(session_id="s-1")
    key = dedupe_key("s-1", "send_invoice", {"amount": 5})
    with ledger.transaction() as conn:  # what a process killed mid-call leaves behind
        conn.execute(
            "INSERT INTO idempotency (key, session_id, tool, state, token, created_at, expires_at)"
            " VALUES (?, ?, 'send_invoice', 'pending', 'tok', ?, ?)",
            (key, crashed.session_id, clock(), clock() + 3600),
        )
    wrapped = idempotent(Counter(), ledger=ledger, lease=30)
    assert wrapped.call({"amount": 5}, SESSION).retryable is True  # may still be in flight
    clock.advance(30)
    assert wrapped.call({"amount": 5}, SESSION).retryable is False


class TimesOut(Counter):
    def call(self, args: Mapping[str, Any], context: ToolContext | None = None) -> ToolResult:
        super().call(args, context)
        return ToolResult(status="timeout", retryable=True, message="no answer from the provider")


@pytest.mark.parametrize("tool_class", [Exploding, TimesOut], ids=["exception", "timeout-envelope"])
def test_uncertain_outcome_is_settled_at_once_by_reconcile(ledger: Ledger, tool_class: type[Counter]) -> None:
    tool = tool_class()
    wrapped = idempotent(tool, ledger=ledger, reconcile=lambda key: {"invoice_id": "inv_1"})
    with contextlib.suppress(ConnectionError):
        wrapped.call({"amount": 5}, SESSION)
    [record] = ledger.records()
    assert (record.state, record.receipt) == ("completed", {"invoice_id": "inv_1"})
    assert wrapped.call({"amount": 5}, SESSION).replay is not None
    assert len(tool.effects) == 1


def test_timeout_envelope_without_reconcile_orphans_the_claim(ledger: Ledger) -> None:
    wrapped = idempotent(TimesOut(), ledger=ledger)
    assert wrapped.call({"amount": 5}, SESSION).status == "timeout"
    assert ledger.records()[0].orphaned


@pytest.mark.parametrize(("happened", "effects"), [(True, 1), (False, 2)], ids=["effect-found", "effect-missing"])
def test_stale_claim_is_settled_by_the_reconcile_lookup(
    ledger: Ledger, clock: ManualClock, happened: bool, effects: int
) -> None:
    tool = Exploding()
    with pytest.raises(ConnectionError):
        idempotent(tool, ledger=ledger).call({"amount": 5}, SESSION)
    clock.advance(61)
    looked_up: list[str] = []

    def lookup(key: str) -> dict[str, str] | None:
        looked_up.append(key)
        return {"invoice_id": "inv_1"} if happened else None

    healthy = Counter()
    healthy.effects = list(tool.effects)
    result = idempotent(healthy, ledger=ledger, reconcile=lookup).call({"amount": 5}, SESSION)
    assert looked_up == [dedupe_key("s-1", "send_invoice", {"amount": 5})]
    assert result.ok
    assert (result.replay is not None) is happened
    assert len(healthy.effects) == effects


def test_reconcile_pending_resolves_each_record_once(ledger: Ledger) -> None:
    tool = Exploding()
    wrapped = idempotent(tool, ledger=ledger)
    for amount in (1, 2):
        with pytest.raises(ConnectionError):
            wrapped.call({"amount": amount}, SESSION)
    found = dedupe_key("s-1", "send_invoice", {"amount": 1})
    report = reconcile_pending(ledger, "send_invoice", lambda key: {"ok": True} if key == found else None)
    assert report.completed == (found,)
    assert len(report.released) == 1
    assert [(r.key, r.state) for r in ledger.records()] == [(found, "completed")]
    assert reconcile_pending(ledger, "send_invoice", lambda key: None) == type(report)()


def test_dedupe_key_reaches_the_tool_for_external_systems(ledger: Ledger) -> None:
    tool = Counter()
    idempotent(tool, ledger=ledger).call({"amount": 5}, SESSION)
    assert tool.keys == [dedupe_key("s-1", "send_invoice", {"amount": 5})]


@pytest.mark.parametrize(("option", "value"), [("mode", "sometimes"), ("ttl", 0), ("lease", 0), ("wait", -1)])
def test_bad_options_are_refused(ledger: Ledger, option: str, value: Any) -> None:
    with pytest.raises(RuntimeConfigError):
        idempotent(Counter(), ledger=ledger, **{option: value})


class Validating(Counter):
    """A write tool with its own validation: ``copies`` defaults to 1 and must be an integer."""

    def validate(self, args: Mapping[str, Any]) -> ToolResult:
        copies = args.get("copies", 1)
        if not isinstance(copies, int):
            return ToolResult(status="invalid_arguments", message="copies must be an integer")
        return ToolResult(status="ok", data={"to": args.get("to"), "copies": copies})

    def call(self, args: Mapping[str, Any], context: ToolContext | None = None) -> ToolResult:
        checked = self.validate(args)
        return super().call(checked.data, context) if checked.ok else checked


def test_key_hashes_cleaned_arguments_so_an_explicit_default_is_the_same_call(ledger: Ledger) -> None:
    tool = Validating()
    wrapped = idempotent(tool, ledger=ledger)
    wrapped.call({"to": "c_1"}, SESSION)
    assert wrapped.call({"to": "c_1", "copies": 1}, SESSION).replay is not None
    assert wrapped.key_for({"to": "c_1", "copies": 1}, SESSION) == ledger.records()[0].key
    assert len(tool.effects) == 1


def test_invalid_arguments_reach_the_tool_and_leave_no_record(ledger: Ledger) -> None:
    tool = Validating()
    result = idempotent(tool, ledger=ledger).call({"to": "c_1", "copies": "2"}, SESSION)
    assert result.status == "invalid_arguments"
    assert ledger.records() == []


def test_ledger_closes_and_works_as_a_context_manager(tmp_path: Path) -> None:
    with Ledger(tmp_path / "ledger.sqlite3", synchronous="FULL") as ledger:
        idempotent(Counter(), ledger=ledger).call({"amount": 1}, SESSION)
    assert len(Ledger(tmp_path / "ledger.sqlite3").records()) == 1
    with pytest.raises(RuntimeConfigError, match="synchronous"):
        Ledger(tmp_path / "other.sqlite3", synchronous="OFF")  # type: ignore[arg-type]


# -- pending claims outlive their TTL; completed ones measure it on the host clock --------------------------------
def test_sweep_never_deletes_pending_or_orphaned_claims(ledger: Ledger, clock: ManualClock) -> None:
    wrapped = idempotent(Exploding(), ledger=ledger, ttl=10)
    with pytest.raises(ConnectionError):
        wrapped.call({"amount": 1}, SESSION)
    idempotent(Counter(), ledger=ledger, ttl=10).call({"amount": 2}, SESSION)
    clock.advance(3600)
    assert ledger.sweep().expired_records == 1
    [kept] = ledger.records()
    assert kept.orphaned


def test_a_pending_claim_past_its_ttl_stays_unknown_instead_of_running_again(
    ledger: Ledger, clock: ManualClock
) -> None:
    tool = Exploding()
    wrapped = idempotent(tool, ledger=ledger, ttl=10)
    with pytest.raises(ConnectionError):
        wrapped.call({"amount": 5}, SESSION)
    clock.advance(3600)
    again = wrapped.call({"amount": 5}, SESSION)
    assert (again.status, again.retryable) == ("error", False)
    assert len(tool.effects) == 1


def test_ttl_counts_from_completion_so_a_slow_effect_is_remembered_for_its_full_ttl(
    ledger: Ledger, clock: ManualClock
) -> None:
    class Slow(Counter):
        def call(self, args: Mapping[str, Any], context: ToolContext | None = None) -> ToolResult:
            clock.advance(100)  # the external system took longer than the TTL
            return super().call(args, context)

    tool = Slow()
    wrapped = idempotent(tool, ledger=ledger, ttl=60)
    wrapped.call({"amount": 5}, SESSION)
    clock.advance(59)
    assert wrapped.call({"amount": 5}, SESSION).replay is not None
    clock.advance(1)
    assert wrapped.call({"amount": 5}, SESSION).replay is None
    assert len(tool.effects) == 2


def test_a_record_dated_in_the_future_by_another_timeline_is_unexpired_and_reported(tmp_path: Path) -> None:
    """Across a reboot only wall clocks compare: a record dated ahead of the caller counts as unexpired."""
    ahead = Ledger(tmp_path / "ledger.sqlite3", clock=ManualClock(1_767_225_600 + 25 * 3600))
    tool = Counter()
    idempotent(tool, ledger=ahead, ttl=3600).call({"amount": 5}, SESSION)
    behind = Ledger(tmp_path / "ledger.sqlite3", clock=ManualClock(1_767_225_600))
    again = idempotent(tool, ledger=behind, ttl=3600).call({"amount": 5}, SESSION)
    assert again.replay is not None
    assert [(n.action, "25.0 h in this caller's future" in n.message) for n in again.notices] == [("clock_skew", True)]
    assert len(tool.effects) == 1


def test_a_wall_clock_25_hours_ahead_on_the_same_host_replays_and_reports(tmp_path: Path) -> None:
    tool = Counter()
    idempotent(tool, ledger=Ledger(tmp_path / "ledger.sqlite3")).call({"amount": 5}, SESSION)
    skewed = Ledger(tmp_path / "ledger.sqlite3", clock=lambda: time.time() + 25 * 3600)
    again = idempotent(tool, ledger=skewed).call({"amount": 5}, SESSION)
    assert again.replay is not None
    [notice] = again.notices
    assert notice.action == "clock_skew"
    assert "25.0 h ahead of" in notice.message
    assert len(tool.effects) == 1


# -- lease renewal and liveness -----------------------------------------------------------------------------------
def test_the_lease_is_renewed_while_the_tool_runs(tmp_path: Path) -> None:
    ledger = Ledger(tmp_path / "ledger.sqlite3")

    class Watching(Counter):
        renewed = False

        def call(self, args: Mapping[str, Any], context: ToolContext | None = None) -> ToolResult:
            assert context is not None
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline and not self.renewed:
                record = ledger.record(context.extras[DEDUPE_KEY_EXTRA])
                assert record is not None
                self.renewed = (record.heartbeat_mono or 0.0) > (record.created_mono or 0.0)
                time.sleep(0.01)
            return super().call(args, context)

    tool = Watching()
    assert idempotent(tool, ledger=ledger, lease=0.15).call({"amount": 5}, SESSION).ok
    assert tool.renewed


def test_a_call_running_in_this_process_past_its_lease_is_not_taken_over(ledger: Ledger, clock: ManualClock) -> None:
    tool = Blocking()
    looked_up: list[str] = []
    wrapped = idempotent(tool, ledger=ledger, lease=30, reconcile=lambda key: looked_up.append(key))
    results: list[ToolResult] = []
    first = threading.Thread(target=lambda: results.append(wrapped.call({"amount": 5}, SESSION)))
    first.start()
    assert tool.entered.wait(10)
    clock.advance(3600)  # far past the lease: the holder is still running here, so it is not gone
    concurrent = wrapped.call({"amount": 5}, SESSION)
    tool.release.set()
    first.join(10)
    assert (concurrent.status, concurrent.retryable) == ("error", True)
    assert looked_up == []
    assert wrapped.call({"amount": 5}, SESSION).data == results[0].data
    assert len(tool.effects) == 1


def test_reconcile_pending_leaves_a_live_call_alone(ledger: Ledger) -> None:
    tool = Blocking()
    wrapped = idempotent(tool, ledger=ledger)
    results: list[ToolResult] = []
    first = threading.Thread(target=lambda: results.append(wrapped.call({"amount": 5}, SESSION)))
    first.start()
    assert tool.entered.wait(10)
    report = reconcile_pending(ledger, "send_invoice", lambda key: None)
    tool.release.set()
    first.join(10)
    assert report.in_flight == (dedupe_key("s-1", "send_invoice", {"amount": 5}),)
    assert report.released == ()
    assert results[0].ok
    assert wrapped.call({"amount": 5}, SESSION).replay is not None
    assert len(tool.effects) == 1


def test_holder_verdicts_tell_live_dead_reused_and_foreign_processes() -> None:
    me = holders.this_process()
    assert holders.verdict(me) == "alive"
    assert holders.Holder.decode(me.encode()) == me
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    gone = holders.Holder(me.boot, me.namespace, int(done.stdout), "1")
    assert holders.verdict(gone) == "dead"
    if me.started:
        reused = holders.Holder(me.boot, me.namespace, os.getpid(), str(int(me.started) - 1))
        assert holders.verdict(reused) == "dead"
    assert holders.verdict(holders.Holder(me.boot, "pid:[elsewhere]", os.getpid(), me.started)) == "unknown"
    assert holders.Holder.decode("not a holder") is None


# -- an outcome the ledger cannot record is kept, reported and recorded later --------------------------------------
class LockingAfterEffect(Counter):
    """Applies its effect, then has another connection take the ledger's write lock and keep it."""

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = path
        self.holder: sqlite3.Connection | None = None

    def call(self, args: Mapping[str, Any], context: ToolContext | None = None) -> ToolResult:
        result = super().call(args, context)
        self.holder = sqlite3.connect(self.path, isolation_level=None)
        self.holder.execute("BEGIN IMMEDIATE")
        return result

    def unlock(self) -> None:
        assert self.holder is not None
        self.holder.execute("ROLLBACK")
        self.holder.close()


@pytest.mark.parametrize("side_folder", ["writable", "blocked"])
def test_a_receipt_the_locked_ledger_cannot_record_is_kept_and_replayed_later(
    tmp_path: Path, clock: ManualClock, side_folder: str
) -> None:
    path = tmp_path / "ledger.sqlite3"
    ledger = Ledger(path, clock=clock, busy_timeout=0.1)
    if side_folder == "blocked":
        (tmp_path / "ledger.sqlite3.unrecorded").write_text("a file where the side folder would go")
    tool = LockingAfterEffect(path)
    wrapped = idempotent(tool, ledger=ledger)
    first = wrapped.call({"amount": 5}, SESSION)
    tool.unlock()
    assert first.ok
    assert first.data == {"invoice_id": "inv_1"}
    [notice] = first.notices
    assert notice.action == "unrecorded"
    assert "The effect was applied" in notice.message
    assert ("memory of process" in notice.message) is (side_folder == "blocked")
    [pending] = ledger.records()
    assert pending.state == "pending"
    again = wrapped.call({"amount": 5}, SESSION)
    assert again.replay is not None
    assert again.data == first.data
    assert len(tool.effects) == 1
    assert [r.state for r in ledger.records()] == ["completed"]
    assert list((tmp_path / "ledger.sqlite3.unrecorded").glob("*.json")) == []


def test_reconcile_pending_applies_a_kept_receipt_without_asking_the_lookup(tmp_path: Path, clock: ManualClock) -> None:
    path = tmp_path / "ledger.sqlite3"
    ledger = Ledger(path, clock=clock, busy_timeout=0.1)
    tool = LockingAfterEffect(path)
    first = idempotent(tool, ledger=ledger).call({"amount": 5}, SESSION)
    tool.unlock()

    def lookup(key: str) -> None:
        raise AssertionError("the kept receipt settles it")

    report = reconcile_pending(ledger, "send_invoice", lookup)
    assert len(report.completed) == 1
    [record] = ledger.records()
    assert (record.state, record.receipt) == ("completed", first.data)


def test_a_locked_ledger_is_a_typed_error_naming_the_file(tmp_path: Path) -> None:
    path = tmp_path / "ledger.sqlite3"
    ledger = Ledger(path, busy_timeout=0.05)
    tool = Counter()
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as holder:
        holder.execute("BEGIN IMMEDIATE")
        with pytest.raises(LedgerError, match="stayed locked") as caught:
            idempotent(tool, ledger=ledger).call({"amount": 5}, SESSION)
        holder.execute("ROLLBACK")
    assert caught.value.slug == "ledger_locked"
    assert isinstance(caught.value, RuntimeConfigError)
    assert tool.effects == []
