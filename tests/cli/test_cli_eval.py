"""``toolkit eval``: the cases against the working declarations and a baseline (the golden files, or a git
revision), recorded from a scripted model on loopback (``eval_support``), then replayed with no key and no
network; exit 1 on a regression or a stale case."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from eval_support import CASES_FILE, ScriptedModel, issue_scripts
from locations import REPO

from toolkit.cli import main

CASES = str(CASES_FILE)
SCRIPTS = issue_scripts("anthropic")
TOOL = '''
def search_issues(query: str, limit: int = 10, state: str = "open") -> list[str]:
    """{summary}

    Args:
        query: Words to look for in titles and bodies.
        limit: How many issues to return.
        state: open or closed.
    """
    return []
'''
KEYED = "Search the issue tracker and return matching issues, newest first."


def _eval(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, object], str]:
    code = main(["eval", CASES, *argv, "--provider", "anthropic", "--json"])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out.strip() else {}), err


def test_against_golden_records_then_replays_offline(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cassette = tmp_path / "issues.cassette.json"
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-planted-cli-5e1d")
    target = ["toolkit.examples:search_issues", "--namespace", "issues", "--against", "golden"]
    golden = ["--golden-dir", str(REPO / "golden")]
    with ScriptedModel("anthropic", SCRIPTS) as server:
        code, report, _ = _eval(capsys, *target, *golden, "--base-url", server.url, "--record", str(cassette))
    assert code == 0, report
    assert report["variants"] == ["golden", "working"]
    assert report["regressions"] == []
    monkeypatch.delenv("ANTHROPIC_API_KEY")
    code, replayed, _ = _eval(capsys, *target, *golden, "--replay", str(cassette))
    assert (code, replayed) == (0, report)
    assert "sk-planted-cli-5e1d" not in cassette.read_text()

    edited = tmp_path / "golden"
    shutil.copytree(REPO / "golden", edited)
    stored = edited / "anthropic" / "issues_search_issues.json"
    body = json.loads(stored.read_text())
    stored.write_text(json.dumps({**body, "description": body["description"] + " Edited."}))
    code, stale, _ = _eval(capsys, *target, "--golden-dir", str(edited), "--replay", str(cassette))
    assert code == 1
    assert {result["variant"] for result in stale["results"] if result["stale"]} == {"golden"}  # type: ignore[index]


def test_against_a_revision_finds_the_regression_of_a_description_edit(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = tmp_path / "tools.py"
    source.write_text(TOOL.replace("{summary}", KEYED))
    for command in (
        ["init", "-q"],
        ["add", "tools.py"],
        ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "x"],
    ):
        subprocess.run(["git", *command], cwd=tmp_path, check=True)
    source.write_text(TOOL.replace("{summary}", "Look things up by free text."))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("ANTHROPIC_API_KEY", "k")
    with ScriptedModel("anthropic", SCRIPTS) as server:
        code, report, _ = _eval(
            capsys, "tools.py:search_issues", "--namespace", "issues", "--against", "HEAD", "--base-url", server.url
        )
    assert code == 1
    assert report["variants"] == ["HEAD", "working"]
    found = {(r["case"], r["measure"]) for r in report["regressions"]}  # type: ignore[union-attr]
    assert found == {("login-bugs", "selection"), ("login-bugs", "valid_first"), ("ten-login-issues", "selection")}


def test_mistakes_are_usage_errors_with_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "cases.yaml"
    bad.write_text("cases: [{id: a, message: hi}]")
    assert main(["eval", str(bad), "toolkit.examples:search_issues", "--replay", str(tmp_path / "x.json")]) == 2
    assert "[bad_eval_case]" in capsys.readouterr().err
    code = main(["eval", CASES, "toolkit.examples:search_issues", "--against", "HEAD"])
    assert code == 2
    assert "a module target cannot be" in capsys.readouterr().err
    code = main(["eval", CASES, "toolkit.examples:search_issues", "--replay", str(tmp_path / "missing.json")])
    assert code == 2
    assert "[bad_cassette]" in capsys.readouterr().err
