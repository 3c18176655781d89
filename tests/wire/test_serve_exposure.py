"""Serving that is safe to expose: ``toolkit serve --http --allow-remote`` in a real process on a real port.

Beyond loopback every request needs the bearer token (from a variable or a file), Host and Origin are still
checked against loopback plus the author's allow-list, a JSON body that repeats a key is refused, and a client that
hangs up costs one log line, not a traceback.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from toolkit.cli import main
from toolkit.runtime.exposure import find_duplicate_key, read_token

pytest.importorskip("mcp")

TOKEN = "tok_" + "x7Q2" * 8
TOOLS_FILE = """
import toolkit as tk
from toolkit import examples

SEARCH = tk.from_function(examples.search_issues, namespace="issues", effect="read")
"""
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
}
ACCEPT = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def remote(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """``toolkit serve`` listening on every address with a token, one allowed host and one allowed origin."""
    folder = tmp_path_factory.mktemp("serve")
    (folder / "tools.py").write_text(TOOLS_FILE, encoding="utf-8")
    port = _free_port()
    command = [
        sys.executable, "-m", "toolkit.cli", "serve", "tools.py", "--no-ledger", "--http", "--host", "0.0.0.0",
        "--port", str(port), "--allow-remote", "--token-env", "TOOLKIT_TEST_SERVE_TOKEN",
        "--allowed-host", "tools.example.com", "--allowed-origin", "https://app.example.com",
        "--max-sessions", "50", "--idle-timeout", "30",
    ]  # fmt: skip
    env = {**os.environ, "TOOLKIT_TEST_SERVE_TOKEN": TOKEN}
    log = folder / "stderr.txt"
    with log.open("w") as errlog:
        process = subprocess.Popen(command, env=env, cwd=folder, stdout=subprocess.DEVNULL, stderr=errlog)
        try:
            deadline = time.monotonic() + 60
            while "streamable HTTP" not in log.read_text():
                assert process.poll() is None, log.read_text()
                assert time.monotonic() < deadline, log.read_text()
                time.sleep(0.1)
            yield f"http://127.0.0.1:{port}/mcp", log
        finally:
            process.terminate()
            process.wait(timeout=30)


def _post(url: str, headers: dict[str, str], body: bytes | None = None) -> httpx.Response:
    content = json.dumps(INITIALIZE).encode() if body is None else body
    return httpx.post(url, content=content, headers={**ACCEPT, **headers}, timeout=30)


def test_without_a_token_or_with_a_wrong_one_the_request_is_refused(remote: tuple[str, Path]) -> None:
    url, _ = remote
    for headers in ({}, {"Authorization": "Bearer wrong-token-of-some-length"}, {"Authorization": TOKEN}):
        answer = _post(url, headers)
        assert answer.status_code == 401, headers
        assert answer.headers["www-authenticate"].startswith("Bearer")
    assert _post(url, {"Authorization": f"Bearer {TOKEN[:-1]}"}).status_code == 401


def test_a_foreign_origin_or_host_is_refused_even_with_the_token(remote: tuple[str, Path]) -> None:
    url, _ = remote
    bearer = {"Authorization": f"Bearer {TOKEN}"}
    assert _post(url, {**bearer, "Origin": "http://attacker.example"}).status_code == 403
    assert _post(url, {**bearer, "Host": "attacker.example"}).status_code == 421


def test_the_right_token_and_an_allowed_origin_and_host_are_served(remote: tuple[str, Path]) -> None:
    url, _ = remote
    bearer = {"Authorization": f"Bearer {TOKEN}"}
    for extra in ({}, {"Origin": "https://app.example.com"}, {"Host": "tools.example.com"}):
        answer = _post(url, {**bearer, **extra})
        assert answer.status_code == 200, (extra, answer.text)
        assert "serverInfo" in answer.text


def test_a_body_that_repeats_a_key_is_refused(remote: tuple[str, Path]) -> None:
    url, _ = remote
    body = (
        b'{"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "issues_search_issues", '
        b'"arguments": {"query": "a", "limit": 1, "limit": 1000}}}'
    )
    answer = _post(url, {"Authorization": f"Bearer {TOKEN}"}, body)
    assert answer.status_code == 400
    refused = answer.json()
    assert refused["id"] == 7
    assert refused["error"]["data"]["code"] == "duplicate_key"
    assert "'limit'" in refused["error"]["message"]


def test_client_disconnects_are_one_line_each_without_a_traceback(remote: tuple[str, Path]) -> None:
    url, log = remote
    port = int(url.rsplit(":", 1)[1].split("/")[0])
    request = (
        f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAuthorization: Bearer {TOKEN}\r\n"
        "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 500\r\n\r\n{"
    ).encode()
    for _ in range(20):
        with socket.create_connection(("127.0.0.1", port)) as sock:
            sock.sendall(request)  # then hang up mid-body
    time.sleep(1.0)
    assert _post(url, {"Authorization": f"Bearer {TOKEN}"}).status_code == 200  # still serving
    logged = log.read_text()
    assert "Traceback" not in logged
    assert logged.count("client disconnected") == 20, logged


@pytest.mark.parametrize(
    ("argv", "slug"),
    [
        (["--http", "--host", "0.0.0.0", "--allow-remote"], "remote_needs_token"),
        (["--http", "--token-env", "TOOLKIT_TEST_UNSET_TOKEN"], "bad_server_token"),
        (["--token-env", "X"], "usage"),
        (["--http", "--max-sessions", "0"], "usage"),
    ],
)
def test_serve_refuses_an_unauthenticated_remote_server(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, argv: list[str], slug: str
) -> None:
    (tmp_path / "tools.py").write_text(TOOLS_FILE, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["serve", "tools.py", "--no-ledger", "--port", "0", *argv] if "--http" in argv else
                ["serve", "tools.py", "--no-ledger", *argv]) == 2  # fmt: skip
    err = capsys.readouterr().err
    assert f"[{slug}]" in err
    assert "Traceback" not in err


def test_serve_help_says_how_remote_serving_is_guarded(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--help"]) == 0
    shown = " ".join(capsys.readouterr().out.split())
    for words in ("--token-env", "--token-file", "constant time", "--allowed-origin", "--max-sessions",
                  "--idle-timeout", "duplicate_key", "one log line"):  # fmt: skip
        assert words in shown, words


def test_a_token_comes_from_a_variable_or_a_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "token").write_text(TOKEN + "\n", encoding="utf-8")
    monkeypatch.setenv("TOOLKIT_TEST_SERVE_TOKEN", TOKEN)
    assert read_token(file=tmp_path / "token") == TOKEN
    assert read_token("TOOLKIT_TEST_SERVE_TOKEN") == TOKEN


@pytest.mark.parametrize(
    ("text", "key"),
    [('{"a": 1, "a": 2}', "a"), ('{"x": {"b": [{"c": 1, "c": 1}]}}', "c"), ('{"a": 1, "b": {"a": 2}}', None)],
)
def test_a_repeated_key_is_found_at_any_depth(text: str, key: Any) -> None:
    assert find_duplicate_key(text) == key
