"""Negative paths of the idempotency ledger with real processes and a real SQLite file.

The first tests run ``tests/runtime_workers/transfer_worker.py`` with this interpreter: the worker calls an
idempotent ``transfer`` tool once, writing its effect either to an "external" SQLite file or into the ledger's
own database, and prints the envelope. Crashes are real SIGKILLs; races start together at a file barrier.

The schedules after them run ``ledger_worker.py``, whose effect is a line appended to a log file: a lease that
runs out while the call is still in flight, SIGKILL at each step, a TTL passing over an unresolved claim, wall
clocks 25 hours off, a ledger held locked by another process, racing processes, and a paused holder. Every
test counts the effects in that log, never in the ledger.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from locations import TESTS
from module_support import load_module

from toolkit.runtime import Ledger

WORKER = TESTS / "runtime_workers" / "transfer_worker.py"


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    """The ledger, the external system's file (made here, as the worker makes it, before any worker runs: racing
    workers would each try to switch a new file to WAL, which SQLite refuses at once to all but one) and a
    scratch folder."""
    external = tmp_path / "external.sqlite3"
    load_module("transfer_worker", WORKER).external(str(external)).close()
    return {"ledger": tmp_path / "ledger.sqlite3", "external": external, "tmp": tmp_path}


def _command(files: dict[str, Path], *extra: str) -> list[str]:
    return [sys.executable, str(WORKER), "--ledger", str(files["ledger"]), "--external", str(files["external"]), *extra]


def run_worker(files: dict[str, Path], *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(_command(files, *extra), capture_output=True, text=True, timeout=60, check=False)


def envelope(process: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    assert process.returncode == 0, process.stderr
    return json.loads(process.stdout)  # type: ignore[no-any-return]


def outputs_of(workers: list[subprocess.Popen[str]]) -> list[str]:
    """What each racing worker printed; a worker still running when one fails is killed, not left to another
    test."""
    try:
        return [worker.communicate(timeout=180)[0] for worker in workers]
    finally:
        for worker in workers:
            if worker.poll() is None:
                worker.kill()
                worker.communicate()


def effects(path: Path, table: str = "effects") -> list[tuple[Any, ...]]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(f"SELECT key, amount FROM {table}").fetchall()
    finally:
        conn.close()


@pytest.mark.parametrize("mode", ["external", "transaction"])
def test_two_processes_calling_twice_with_identical_args_make_one_effect(files: dict[str, Path], mode: str) -> None:
    first = envelope(run_worker(files, "--mode", mode))
    second = envelope(run_worker(files, "--mode", mode))
    assert first["status"] == second["status"] == "ok"
    assert "replay" not in first
    assert second["replay"]["original_at"]
    assert second["data"] == first["data"]
    store = files["external"] if mode == "external" else files["ledger"]
    assert len(effects(store, "effects" if mode == "external" else "transfers")) == 1


def test_sigkill_after_external_effect_is_reconciled_without_a_second_effect(files: dict[str, Path]) -> None:
    crashed = run_worker(files, "--crash", "after")
    assert crashed.returncode == -signal.SIGKILL
    assert len(effects(files["external"])) == 1
    [pending] = Ledger(files["ledger"]).records(tool="transfer")
    assert pending.state == "pending"

    restarted = envelope(run_worker(files, "--reconcile"))
    assert restarted["reconciled"] == {"completed": 1, "released": 0}
    assert restarted["status"] == "ok"
    assert "replay" in restarted
    [(key, amount)] = effects(files["external"])
    assert amount == 100
    assert restarted["data"]["transfer_id"] == f"tr_{key[:10]}"
    [record] = Ledger(files["ledger"]).records(tool="transfer")
    assert (record.state, record.key) == ("completed", key)


def test_sigkill_before_external_effect_is_released_and_the_call_runs_once(files: dict[str, Path]) -> None:
    crashed = run_worker(files, "--crash", "before")
    assert crashed.returncode == -signal.SIGKILL
    assert effects(files["external"]) == []

    restarted = envelope(run_worker(files, "--reconcile"))
    assert restarted["reconciled"] == {"completed": 0, "released": 1}
    assert restarted["status"] == "ok"
    assert "replay" not in restarted
    assert len(effects(files["external"])) == 1
    assert [r.state for r in Ledger(files["ledger"]).records()] == ["completed"]


def test_restart_without_reconcile_refuses_instead_of_repeating(files: dict[str, Path]) -> None:
    assert run_worker(files, "--crash", "after").returncode == -signal.SIGKILL
    again = envelope(run_worker(files))
    assert again["status"] == "error"
    assert again["retryable"] is False  # the holder's pid is dead: not in flight, and nobody knows the outcome
    assert "outcome is unknown" in again["message"]
    assert len(effects(files["external"])) == 1


@pytest.mark.parametrize("mode", ["external", "transaction"])
def test_processes_racing_on_one_key_make_exactly_one_effect(files: dict[str, Path], mode: str) -> None:
    barrier = files["tmp"] / "barrier"
    barrier.mkdir()
    parties = 3
    extra = ("--mode", mode, "--wait", "20", "--barrier", str(barrier), "--parties", str(parties))
    workers = [subprocess.Popen(_command(files, *extra), stdout=subprocess.PIPE, text=True) for _ in range(parties)]
    outputs = [json.loads(out) for out in outputs_of(workers)]
    assert all(worker.returncode == 0 for worker in workers)
    assert [o["status"] for o in outputs] == ["ok"] * parties
    assert sum("replay" not in o for o in outputs) == 1
    assert len({json.dumps(o["data"], sort_keys=True) for o in outputs}) == 1
    store = files["external"] if mode == "external" else files["ledger"]
    assert len(effects(store, "effects" if mode == "external" else "transfers")) == 1


def test_racers_meeting_an_in_flight_claim_get_a_retryable_error_not_a_second_effect(
    files: dict[str, Path],
) -> None:
    barrier = files["tmp"] / "barrier"
    barrier.mkdir()
    parties = 3
    extra = ("--barrier", str(barrier), "--parties", str(parties), "--hold")
    workers = [subprocess.Popen(_command(files, *extra), stdout=subprocess.PIPE, text=True) for _ in range(parties)]
    outputs = [json.loads(out) for out in outputs_of(workers)]
    winners = [o for o in outputs if o["status"] == "ok"]
    losers = [o for o in outputs if o["status"] != "ok"]
    assert len(winners) == 1
    assert "replay" not in winners[0]
    assert [(o["status"], o["retryable"]) for o in losers] == [("error", True)] * (parties - 1)
    assert all("still in progress" in o["message"] for o in losers)
    assert len(effects(files["external"])) == 1
    again = envelope(run_worker(files))  # once the winner completed, a retry gets its receipt
    assert again["data"] == winners[0]["data"]
    assert "replay" in again


def test_other_sessions_are_not_deduplicated_against_each_other(files: dict[str, Path]) -> None:
    envelope(run_worker(files, "--session", "alice"))
    bob = envelope(run_worker(files, "--session", "bob"))
    assert "replay" not in bob
    assert len(effects(files["external"])) == 2


# -- schedules with an append-only effect log -----------------------------------------------------------------
# ``ledger_worker.py`` appends one line per effect to ``effects.log``; every test below counts effects there.

LEDGER_WORKER = TESTS / "runtime_workers" / "ledger_worker.py"
LOCKER = TESTS / "runtime_workers" / "ledger_locker.py"
DAY_AND_AN_HOUR = 25 * 3600


class Bench:
    """One ledger, one effect log and a folder of signal files shared by the workers of one test."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.ledger = tmp / "ledger.sqlite3"
        self.log = tmp / "effects.log"
        self.signals = tmp / "signals"
        self.signals.mkdir()
        self.started: list[subprocess.Popen[str]] = []

    def command(self, *extra: str) -> list[str]:
        base = [sys.executable, str(LEDGER_WORKER), "--ledger", str(self.ledger), "--log", str(self.log)]
        return [*base, "--signals", str(self.signals), *extra]

    def start(self, *extra: str) -> subprocess.Popen[str]:
        worker = subprocess.Popen(self.command(*extra), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.started.append(worker)
        return worker

    def run(self, *extra: str) -> dict[str, Any]:
        return self.output(self.start(*extra))

    @staticmethod
    def output(worker: subprocess.Popen[str]) -> dict[str, Any]:
        out, err = worker.communicate(timeout=60)
        assert worker.returncode == 0, err
        return json.loads(out)  # type: ignore[no-any-return]

    def lock(self, *, after: Path | None = None) -> Callable[[], None]:
        """Start a process that takes the ledger's write lock (once ``after`` exists); returns once it holds
        the lock, with a function that makes it let go."""
        locked, unlock = self.signals / "locked", self.signals / "unlock"
        command = [sys.executable, str(LOCKER), "--ledger", str(self.ledger), "--locked", str(locked)]
        command += ["--until", str(unlock), *(["--after", str(after)] if after else [])]
        locker = subprocess.Popen(command, text=True)
        self.started.append(locker)
        wait_for(locked)

        def release() -> None:
            unlock.touch()
            locker.wait(timeout=60)

        return release

    def effects(self) -> list[tuple[str, int]]:
        if not self.log.exists():
            return []
        return [(key, int(pid)) for key, pid in (line.split() for line in self.log.read_text().splitlines())]


def wait_for(path: Path, pattern: str = "") -> Path:
    deadline = time.monotonic() + 30
    while True:
        found = sorted(path.glob(pattern)) if pattern else ([path] if path.exists() else [])
        if found:
            return found[0]
        assert time.monotonic() < deadline, f"{path}/{pattern} never appeared"
        time.sleep(0.005)


@pytest.fixture
def bench(tmp_path: Path) -> Iterator[Bench]:
    bench = Bench(tmp_path)
    yield bench
    for process in bench.started:  # a failed assertion must not leave its workers running
        if process.poll() is None:
            process.kill()
        process.communicate(timeout=60)


@pytest.mark.parametrize(
    ("namespace", "lease"),
    [("same", 0.3), ("foreign", 0.9)],  # from another pid namespace only the heartbeat (every lease/3) tells
    ids=["same-namespace", "foreign-namespace"],
)
def test_a_call_in_flight_past_its_lease_is_not_taken_over_by_an_identical_call(
    bench: Bench, namespace: str, lease: float
) -> None:
    go = bench.signals / "go"
    first = bench.start("--lease", str(lease), "--go", str(go), *(("--foreign",) if namespace == "foreign" else ()))
    wait_for(bench.signals, "entered-*")
    time.sleep(lease + 0.1)  # the first call has held its claim longer than its lease; its effect is still to come
    second = bench.run("--lease", str(lease), "--reconcile")
    assert bench.effects() == []
    assert (second["status"], second["retryable"]) == ("error", True)
    assert "still in progress" in second["message"]
    go.touch()
    first_out = bench.output(first)
    third = bench.run("--reconcile")
    assert len(bench.effects()) == 1
    assert "replay" not in first_out
    assert third["data"] == first_out["data"]  # the first call's receipt was recorded and is replayed
    assert "replay" in third


@pytest.mark.parametrize("settle", ["wrapper-reconcile", "reconcile-pending"])
@pytest.mark.parametrize("step", ["before", "after"])
def test_sigkill_at_each_step_then_reconcile_makes_exactly_one_effect(bench: Bench, step: str, settle: str) -> None:
    crashed = bench.start("--crash", step)
    crashed.communicate(timeout=60)
    assert crashed.returncode == -signal.SIGKILL
    assert len(bench.effects()) == (1 if step == "after" else 0)
    again = bench.run("--reconcile" if settle == "wrapper-reconcile" else "--reconcile-first")
    assert len(bench.effects()) == 1
    assert again["status"] == "ok"
    assert ("replay" in again) is (step == "after")
    assert again["data"]["pid"] == bench.effects()[0][1]


@pytest.mark.parametrize("leftover", ["sigkill-after-effect", "sigkill-before-effect", "exception-after-effect"])
def test_ttl_passing_over_an_unresolved_claim_neither_sweeps_it_nor_lets_the_call_run_again(
    bench: Bench, leftover: str
) -> None:
    how = {
        "sigkill-after-effect": ("--crash", "after"),
        "sigkill-before-effect": ("--crash", "before"),
        "exception-after-effect": ("--raise-after",),
    }[leftover]
    left = bench.start("--ttl", "0.2", *how)
    left.communicate(timeout=60)
    before = len(bench.effects())
    time.sleep(0.3)  # the claim is older than its TTL now
    again = bench.run("--ttl", "0.2", "--sweep-first")
    assert len(bench.effects()) == before
    assert again["swept"] == 0
    assert again["status"] == "error"
    assert "outcome is unknown" in again["message"]
    [record] = Ledger(bench.ledger).records(tool="pay")
    assert record.state == "unknown"  # met once its holder was gone: no longer "pending"


def test_a_live_call_slower_than_the_ttl_is_not_repeated(bench: Bench) -> None:
    go = bench.signals / "go"
    first = bench.start("--ttl", "0.3", "--go", str(go))
    wait_for(bench.signals, "entered-*")
    time.sleep(0.4)  # the claim is older than the TTL, and the first call is still running
    second = bench.run("--ttl", "0.3")
    assert bench.effects() == []
    assert (second["status"], second["retryable"]) == ("error", True)
    go.touch()
    first_out = bench.output(first)
    assert len(bench.effects()) == 1
    assert first_out["status"] == "ok"
    [record] = Ledger(bench.ledger).records()
    assert (record.state, record.receipt) == ("completed", first_out["data"])


def test_callers_whose_clocks_jump_25_hours_forward_and_back_replay_instead_of_repeating(bench: Bench) -> None:
    first = bench.run()
    for offset in (DAY_AND_AN_HOUR, -DAY_AND_AN_HOUR):  # ahead: looks expired; behind: dated in the future
        skewed = bench.run("--clock-offset", str(offset))
        assert len(bench.effects()) == 1
        assert skewed["data"] == first["data"]
        assert "replay" in skewed
        [notice] = skewed["notices"]
        assert notice["action"] == "clock_skew"
        assert ("ahead of" if offset > 0 else "behind") in notice["message"]
    again = bench.run("--ttl", "3600")  # back on time: no notice
    assert (again["data"], again["notices"]) == (first["data"], [])
    assert len(bench.effects()) == 1


def test_ledger_locked_between_effect_and_completion_keeps_the_receipt(bench: Bench) -> None:
    first = bench.start("--busy-timeout", "0.3", "--hold-until", str(bench.signals / "locked"))
    release = bench.lock(after=wait_for(bench.signals, "applied-*"))
    first_out = bench.output(first)
    release()
    assert len(bench.effects()) == 1
    assert first_out["status"] == "ok"
    assert [n["action"] for n in first_out["notices"]] == ["unrecorded"]
    assert first_out["data"]["pid"] == bench.effects()[0][1]
    again = bench.run()
    assert len(bench.effects()) == 1
    assert again["data"] == first_out["data"]
    assert "replay" in again


def test_ledger_locked_before_the_claim_is_a_typed_error_and_no_effect(bench: Bench) -> None:
    release = bench.lock()
    refused = bench.run("--busy-timeout", "0.3")
    release()
    assert bench.effects() == []
    assert (refused.get("raised"), refused.get("slug")) == ("LedgerError", "ledger_locked")
    assert str(bench.ledger) in refused["message"]


def test_processes_racing_to_take_over_a_dead_holders_claim_make_one_effect(bench: Bench) -> None:
    crashed = bench.start("--crash", "before")
    crashed.communicate(timeout=60)
    barrier = bench.tmp / "barrier"
    barrier.mkdir()
    extra = ("--reconcile", "--wait", "30", "--barrier", str(barrier), "--parties", "3")
    outputs = [bench.output(worker) for worker in [bench.start(*extra) for _ in range(3)]]
    assert len(bench.effects()) == 1
    assert [o["status"] for o in outputs] == ["ok"] * 3
    assert sum("replay" not in o for o in outputs) == 1
    assert {o["data"]["pid"] for o in outputs} == {bench.effects()[0][1]}


def test_eight_processes_racing_on_one_key_make_one_effect(bench: Bench) -> None:
    barrier = bench.tmp / "barrier"
    barrier.mkdir()
    workers = [bench.start("--barrier", str(barrier), "--parties", "8", "--wait", "30") for _ in range(8)]
    outputs = [bench.output(worker) for worker in workers]
    assert len(bench.effects()) == 1
    assert [o["status"] for o in outputs] == ["ok"] * 8
    assert sum("replay" not in o for o in outputs) == 1
    assert {o["data"]["pid"] for o in outputs} == {bench.effects()[0][1]}


def test_a_paused_holder_finishing_after_a_takeover_is_reported_not_lost(bench: Bench) -> None:
    go = bench.signals / "go"
    first = bench.start("--foreign", "--lease", "0.3", "--hold-until", str(go))
    wait_for(bench.signals, "applied-*")
    os.kill(first.pid, signal.SIGSTOP)  # a paused container: its pid means nothing here, its lease lapses
    try:
        time.sleep(0.5)
        second = bench.run("--lease", "0.3", "--reconcile")
    finally:
        go.touch()
        os.kill(first.pid, signal.SIGCONT)
    first_out = bench.output(first)
    assert len(bench.effects()) == 1
    assert "replay" in second  # the lookup found the paused holder's effect
    assert second["data"]["pid"] == first.pid
    assert first_out["status"] == "ok"
    assert [n["action"] for n in first_out["notices"]] == ["late_completion"]
    restart = bench.run("--reconcile-first")
    assert restart["reconciled"] == {"completed": 0, "released": 0, "late": 1}
    assert "replay" in restart
    assert len(bench.effects()) == 1


def test_a_paused_holder_resuming_before_its_effect_after_a_takeover_is_flagged_as_a_duplicate(bench: Bench) -> None:
    """The limit of any lease: a holder whose pid cannot be checked and that resumes after its lease lapsed
    applies its effect too (only the external system's Idempotency-Key can stop it); the ledger reports it."""
    first = bench.start("--foreign", "--lease", "0.3", "--delay", "0.3")
    wait_for(bench.signals, "entered-*")
    os.kill(first.pid, signal.SIGSTOP)  # paused before its effect
    try:
        time.sleep(0.5)
        second = bench.run("--lease", "0.3", "--reconcile")
    finally:
        os.kill(first.pid, signal.SIGCONT)
    first_out = bench.output(first)
    assert len(bench.effects()) == 2
    assert "replay" not in second
    assert [n["action"] for n in first_out["notices"]] == ["late_completion"]
    restart = bench.run("--reconcile-first")
    assert restart["reconciled"]["late"] == 1
