"""Negative paths of the idempotency ledger with real processes and a real SQLite file.

Each test runs ``tests/runtime_workers/transfer_worker.py`` with this interpreter: the worker calls an
idempotent ``transfer`` tool once, writing its effect either to an "external" SQLite file or into the ledger's
own database, and prints the envelope. Crashes are real SIGKILLs; races start together at a file barrier.
"""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from toolkit.runtime import Ledger

WORKER = Path(__file__).parent / "runtime_workers" / "transfer_worker.py"


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    return {"ledger": tmp_path / "ledger.sqlite3", "external": tmp_path / "external.sqlite3", "tmp": tmp_path}


def _command(files: dict[str, Path], *extra: str) -> list[str]:
    return [sys.executable, str(WORKER), "--ledger", str(files["ledger"]), "--external", str(files["external"]), *extra]


def run_worker(files: dict[str, Path], *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(_command(files, *extra), capture_output=True, text=True, timeout=60, check=False)


def envelope(process: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    assert process.returncode == 0, process.stderr
    return json.loads(process.stdout)  # type: ignore[no-any-return]


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
    assert again["retryable"] is True  # the claim is younger than the lease: maybe still in flight
    assert len(effects(files["external"])) == 1


@pytest.mark.parametrize("mode", ["external", "transaction"])
def test_processes_racing_on_one_key_make_exactly_one_effect(files: dict[str, Path], mode: str) -> None:
    barrier = files["tmp"] / "barrier"
    barrier.mkdir()
    parties = 3
    extra = ("--mode", mode, "--wait", "20", "--barrier", str(barrier), "--parties", str(parties))
    workers = [subprocess.Popen(_command(files, *extra), stdout=subprocess.PIPE, text=True) for _ in range(parties)]
    outputs = [json.loads(worker.communicate(timeout=60)[0]) for worker in workers]
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
    outputs = [json.loads(worker.communicate(timeout=60)[0]) for worker in workers]
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
