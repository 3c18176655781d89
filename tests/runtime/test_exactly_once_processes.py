"""Exactly once over HTTP in real processes: every schedule applies its effect once (or reports it unknown and
applies it at most once), counted in the log of a real upstream (``runtime_workers/bank_upstream.py``, its own
process on 127.0.0.1), never in the ledger.

The paths: a generated module's tool behind ``idempotent`` and the same tool in an ``Executor``
(``runtime_workers/http_caller.py``, one process per call, so every retry is a restart), and ``toolkit serve``
over stdio and over streamable HTTP, called with the MCP SDK's client.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from locations import TESTS
from runtime_workers.bank_upstream import SPEC, Upstream

import toolkit as tk

pytestmark = pytest.mark.slow  # real processes, each test several seconds

WORKERS = TESTS / "runtime_workers"
MOVE = {"account": "acct_A", "amount": 100}


@pytest.fixture
def upstream_factory(tmp_path: Path) -> Iterator[Callable[..., Upstream]]:
    started: list[subprocess.Popen[bytes]] = []

    def start(*options: str) -> Upstream:
        log, port_file = tmp_path / f"effects-{len(started)}.jsonl", tmp_path / f"port-{len(started)}"
        command = [sys.executable, str(WORKERS / "bank_upstream.py"), "--log", str(log), "--port-file", str(port_file)]
        started.append(subprocess.Popen([*command, *options]))
        deadline = time.monotonic() + 60
        while not port_file.exists():
            assert time.monotonic() < deadline, "the upstream did not start in 60 s"
            assert started[-1].poll() is None, "the upstream exited"
            time.sleep(0.02)
        return Upstream(f"http://127.0.0.1:{port_file.read_text()}", log)

    yield start
    for process in started:
        process.kill()
        process.wait(timeout=30)


@pytest.fixture(scope="module")
def package_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The generated package for the upstream's spec, written where a process can import it."""
    folder = tmp_path_factory.mktemp("generated")
    for relative, text in tk.generate(tk.from_openapi(SPEC, namespace="bank")).items():
        (folder / relative).parent.mkdir(parents=True, exist_ok=True)
        (folder / relative).write_text(text, encoding="utf-8")
    return folder


def caller(package_dir: Path, upstream: Upstream, ledger: Path, tool: str, args: Any, *extra: str) -> list[str]:
    return [
        sys.executable, str(WORKERS / "http_caller.py"), "--package-dir", str(package_dir),
        "--base-url", upstream.url, "--ledger", str(ledger), "--tool", tool, "--args", json.dumps(args), *extra,
    ]  # fmt: skip


def call(*command: str) -> dict[str, Any]:
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)  # type: ignore[no-any-return]


# -- a generated module behind idempotent(), and an Executor -----------------------------------------------------
@pytest.mark.parametrize("via", ["module", "executor"])
def test_a_retry_in_a_new_process_that_only_spells_a_null_differently_is_a_replay(
    package_dir: Path, upstream_factory: Callable[..., Upstream], tmp_path: Path, via: str
) -> None:
    upstream, ledger = upstream_factory(), tmp_path / "ledger.sqlite3"
    first = call(*caller(package_dir, upstream, ledger, "bank_transfer", MOVE, "--via", via))
    again = call(*caller(package_dir, upstream, ledger, "bank_transfer", {**MOVE, "note": None}, "--via", via))
    assert first["status"] == "ok"
    assert "replay" not in first
    assert again["replay"]["original_at"]
    assert again["data"] == first["data"]
    assert len(upstream.effects()) == 1


@pytest.mark.parametrize("via", ["module", "executor"])
@pytest.mark.parametrize("fail", ["drop", "504"])
def test_a_write_that_got_no_answer_applies_once_however_often_it_is_retried(
    package_dir: Path, upstream_factory: Callable[..., Upstream], tmp_path: Path, via: str, fail: str
) -> None:
    upstream = upstream_factory("--fail", fail, "--times", "2")
    keyed, unkeyed = tmp_path / "keyed.sqlite3", tmp_path / "unkeyed.sqlite3"
    first = call(*caller(package_dir, upstream, keyed, "bank_transfer", MOVE, "--via", via))
    assert [n["action"] for n in first["notices"]] == ["outcome_unknown"]
    resent = call(*caller(package_dir, upstream, keyed, "bank_transfer", MOVE, "--via", via))
    assert resent["status"] == "ok", resent  # re-sent with its Idempotency-Key: the upstream's stored receipt
    payout = {"account": "acct_B", "amount": 7}
    outcomes = [call(*caller(package_dir, upstream, unkeyed, "bank_payout", payout, "--via", via)) for _ in range(3)]
    assert [o["retryable"] for o in outcomes] == [False] * 3
    assert "outcome is unknown" in outcomes[2]["message"]
    assert [(e["kind"], e["amount"]) for e in upstream.effects()] == [("transfers", 100), ("payouts", 7)]


@pytest.mark.parametrize(("tool", "status"), [("bank_transfer", "ok"), ("bank_payout", "error")])
def test_a_caller_killed_mid_request_leaves_a_claim_met_as_unknown_never_run_blindly(
    package_dir: Path, upstream_factory: Callable[..., Upstream], tmp_path: Path, tool: str, status: str
) -> None:
    upstream, ledger = upstream_factory("--fail", "hang"), tmp_path / "ledger.sqlite3"
    process = subprocess.Popen(caller(package_dir, upstream, ledger, tool, MOVE), stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while not upstream.effects():
        assert time.monotonic() < deadline, "the request never reached the upstream"
        time.sleep(0.02)
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=30)
    restarted = call(*caller(package_dir, upstream, ledger, tool, MOVE))
    assert restarted["status"] == status, restarted  # keyed: re-sent and deduplicated; else refused as unknown
    assert len(upstream.effects()) == 1


def test_a_key_reused_with_other_arguments_is_refused_across_processes(
    package_dir: Path, upstream_factory: Callable[..., Upstream], tmp_path: Path
) -> None:
    upstream, ledger = upstream_factory(), tmp_path / "ledger.sqlite3"
    first = call(*caller(package_dir, upstream, ledger, "bank_transfer", MOVE, "--key", "t-42"))
    other = call(*caller(package_dir, upstream, ledger, "bank_transfer", {"account": "acct_B", "amount": 99_999},
                         "--key", "t-42"))  # fmt: skip
    assert first["status"] == "ok"
    assert (other["status"], other["errors"][0]["code"]) == ("rejected", "idempotency_key_reused")
    assert [(e["account"], e["amount"]) for e in upstream.effects()] == [("acct_A", 100)]


def test_a_ledger_deleted_mid_call_is_a_typed_error_on_restart_not_a_fresh_start(
    package_dir: Path, upstream_factory: Callable[..., Upstream], tmp_path: Path
) -> None:
    upstream, ledger = upstream_factory("--fail", "hang", "--hang", "2"), tmp_path / "ledger.sqlite3"
    process = subprocess.Popen(caller(package_dir, upstream, ledger, "bank_payout", MOVE), stdout=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while not upstream.effects():
        assert time.monotonic() < deadline, "the request never reached the upstream"
        time.sleep(0.02)
    for path in tmp_path.glob("ledger.sqlite3*"):
        if path.is_file():
            path.unlink()
    out, _ = process.communicate(timeout=60)
    first = json.loads(out)
    assert first["status"] == "ok"
    assert [n["action"] for n in first["notices"]] == ["unrecorded"]
    again = call(*caller(package_dir, upstream, ledger, "bank_payout", MOVE))
    assert again == {"error": "ledger_unavailable"}
    assert len(upstream.effects()) == 1


# -- toolkit serve ----------------------------------------------------------------------------------------------------
mcp = pytest.importorskip("mcp", reason="serving over MCP needs the mcp extra")
types = pytest.importorskip("mcp.types")
from mcp.client.stdio import stdio_client  # noqa: E402 - needs the mcp extra checked above


def _serve(upstream: Upstream, *options: str) -> list[str]:
    return [sys.executable, "-m", "toolkit.cli", "serve", str(SPEC), "--base-url", upstream.url, *options]


def _stdio(command: list[str], tmp_path: Path, calls: Callable[[Any], Any]) -> Any:
    params = mcp.StdioServerParameters(command=command[0], args=command[1:], cwd=str(tmp_path), env=dict(os.environ))

    async def run() -> Any:
        with (tmp_path / "stderr.txt").open("a") as errlog:
            async with stdio_client(params, errlog=errlog) as (read, write), mcp.ClientSession(read, write) as client:
                await client.initialize()
                return await calls(client)

    return anyio.run(run)


@pytest.mark.timeout(180)
def test_serve_over_stdio_restarted_on_the_same_ledger_and_scope_replays_what_it_ran(
    upstream_factory: Callable[..., Upstream], tmp_path: Path
) -> None:
    upstream = upstream_factory("--fail", "drop")
    command = _serve(upstream, "--ledger", str(tmp_path / "ledger.sqlite3"), "--scope", "support-desk")

    async def first(client: Any) -> Any:
        return [await client.call_tool("bank_transfer", MOVE) for _ in range(2)]

    lost, resent = _stdio(command, tmp_path, first)
    assert lost.structured_content["notices"][0]["action"] == "outcome_unknown"
    assert resent.structured_content["status"] == "ok"

    async def second(client: Any) -> Any:
        return await client.call_tool("bank_transfer", {**MOVE, "note": None})

    replayed = _stdio(command, tmp_path, second)  # a new server process, a new session
    assert replayed.structured_content["replay"]["original_at"]
    assert replayed.structured_content["data"] == resent.structured_content["data"]
    assert len(upstream.effects()) == 1


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _http(command: list[str], tmp_path: Path, calls: Callable[[str], Any]) -> Any:
    port = _free_port()
    with (tmp_path / "stderr.txt").open("a") as errlog:
        process = subprocess.Popen([*command, "--http", "--port", str(port)], cwd=tmp_path, stderr=errlog)
        try:
            deadline = time.monotonic() + 60
            while True:
                assert process.poll() is None, "toolkit serve --http exited"
                assert time.monotonic() < deadline, "toolkit serve --http did not listen in 60 s"
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                    break
                except OSError:
                    time.sleep(0.05)
            return anyio.run(calls, f"http://127.0.0.1:{port}/mcp")
        finally:
            process.terminate()
            process.wait(timeout=30)


async def _yes(context: Any, params: Any) -> Any:
    return types.ElicitResult(action="accept", content={"confirm": True})


@pytest.mark.timeout(180)
def test_serve_over_http_a_confirmation_is_single_use_and_bound_to_its_call(
    upstream_factory: Callable[..., Upstream], tmp_path: Path
) -> None:
    """Without a ledger, so that nothing but the confirmation's binding stands between a replay and a refund."""
    upstream = upstream_factory()
    refund = {"account": "acct_C", "amount": 250}

    async def calls(url: str) -> list[Any]:
        async with mcp.Client(url, elicitation_callback=_yes) as one, mcp.Client(url, elicitation_callback=_yes) as two:
            asked = await one.session.call_tool("bank_refund", refund, allow_input_required=True)
            assert isinstance(asked, types.InputRequiredResult)
            yes = {"confirm": types.ElicitResult(action="accept", content={"confirm": True})}
            replay = {"input_responses": yes, "request_state": asked.request_state, "allow_input_required": True}
            return [
                await one.session.call_tool("bank_refund", refund, **replay),
                await two.session.call_tool("bank_refund", refund, **replay),  # another client
                await one.session.call_tool("bank_refund", refund, **replay),  # the same answer again
                await one.session.call_tool("bank_refund", {**refund, "amount": 9_999}, **replay),
            ]

    confirmed, *replayed = _http(_serve(upstream, "--no-ledger"), tmp_path, calls)
    assert confirmed.structured_content["status"] == "ok"
    assert all(isinstance(result, types.InputRequiredResult) for result in replayed)  # asked again, nothing sent
    assert [(e["account"], e["amount"]) for e in upstream.effects()] == [("acct_C", 250)]


@pytest.mark.timeout(180)
def test_serve_over_http_a_write_that_got_a_504_applies_once(
    upstream_factory: Callable[..., Upstream], tmp_path: Path
) -> None:
    upstream = upstream_factory("--fail", "504", "--times", "2")
    command = _serve(upstream, "--ledger", str(tmp_path / "ledger.sqlite3"))

    async def calls(url: str) -> list[Any]:
        async with mcp.Client(url) as client:
            keyed = [await client.call_tool("bank_transfer", MOVE) for _ in range(2)]
            unkeyed = [await client.call_tool("bank_payout", {**MOVE, "note": None}) for _ in range(2)]
            return [*keyed, *unkeyed, await client.call_tool("bank_transfer", {**MOVE, "note": None})]

    gateway, resent, payout, refused, replayed = (r.structured_content for r in _http(command, tmp_path, calls))
    assert (gateway["status"], gateway["notices"][0]["action"]) == ("error", "outcome_unknown")
    assert resent["status"] == "ok"
    assert (payout["retryable"], refused["retryable"]) == (False, False)
    assert replayed["replay"]["original_at"]
    assert [e["kind"] for e in upstream.effects()] == ["transfers", "payouts"]


@pytest.mark.parametrize("argv", [["--scope", "desk", "--no-ledger"], ["--scope", " "]], ids=["no-ledger", "blank"])
def test_a_scope_without_a_ledger_or_a_name_is_a_usage_mistake(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    from toolkit.cli import main

    assert main(["serve", str(SPEC), *argv]) == 2
    err = capsys.readouterr().err
    assert "[usage]" in err
    assert "--scope" in err
