"""A new user's mistakes on the command line: each exits 2 with one message naming the file and line, never a
traceback; exit 1 stays for findings. The bad targets are the corpus ``tests/bad_inputs/targets.yaml``.

Internals: ``_commands.lower`` and ``_targets.is_spec`` (how a target is told apart), and ``ERROR_SLUGS`` to check
each message's slug is a known one."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from locations import TESTS

from toolkit._exceptions import ERROR_SLUGS
from toolkit._targets import is_spec
from toolkit.cli import main

CASES: list[dict[str, Any]] = yaml.safe_load((TESTS / "bad_inputs" / "targets.yaml").read_text(encoding="utf-8"))
COMMANDS = ("lower", "fixtures", "golden", "diff")


def _argv(command: str, case: dict[str, Any]) -> list[str]:
    target = case["target"]
    if command == "golden":
        return ["golden", "check", target, "--dir", "golden"]
    if command == "diff":  # a function alone is compared with its golden file; a spec needs two sides
        return ["diff", target, target] if is_spec(target) else ["diff", target]
    return [command, target, *case.get("extra", [])]


def _runs() -> list[Any]:
    return [
        pytest.param(case, command, id=f"{case['id']}-{command}")
        for case in CASES
        for command in COMMANDS
        if case.get("only", command) == command and command not in case.get("skip", ())
    ]


def _write(folder: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def _one_message(err: str, slug: str) -> None:
    """stderr is one message: it opens with the slug, and no other line starts another error or a traceback."""
    assert err.startswith(f"error [{slug}]: "), err
    assert err.count("error [") == 1, err
    assert "Traceback" not in err


def test_every_case_has_a_known_slug_and_says_where() -> None:
    ids = [case["id"] for case in CASES]
    assert len(ids) == len(set(ids))
    for case in CASES:
        assert case["slug"] in ERROR_SLUGS, case["id"]
        assert case["says"], case["id"]


@pytest.mark.parametrize(("case", "command"), _runs())
def test_a_bad_target_exits_2_with_one_message_naming_the_file_and_line(
    case: dict[str, Any],
    command: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _write(tmp_path, case["files"])
    monkeypatch.chdir(tmp_path)
    code = main(_argv(command, case))
    out, err = capsys.readouterr()
    assert code == 2, out + err
    _one_message(err, case["slug"])
    for expected in case["says"]:
        assert expected in err, f"{expected!r} missing from {err!r}"
    for leak in case.get("never", []):
        assert leak not in err, f"{leak!r} leaked into {err!r}"
    assert out == ""


def test_a_file_target_imports_its_siblings_as_python_would(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _write(
        tmp_path,
        {
            "ping_helpers_for_cli_tests.py": "def normalise(host: str) -> str:\n    return host.lower()\n",
            "tools.py": "from ping_helpers_for_cli_tests import normalise\n\n\n"
            'def ping(host: str) -> str:\n    """Ping a host."""\n    return normalise(host)\n',
        },
    )
    monkeypatch.chdir(tmp_path)
    code = main(["lower", "tools.py:ping", "--json"])
    assert code == 0, capsys.readouterr().err
    assert '"name": "ping"' in capsys.readouterr().out


def test_a_module_in_the_working_folder_is_a_target(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _write(tmp_path, {"cli_tests_local_tools.py": 'def ping(host: str) -> str:\n    """Ping."""\n    return host\n'})
    monkeypatch.chdir(tmp_path)
    assert main(["lower", "cli_tests_local_tools:ping", "--json"]) == 0
    assert '"name": "ping"' in capsys.readouterr().out
    assert str(tmp_path) not in sys.path  # the working folder is on sys.path only while the command runs


# -- options -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        pytest.param(["lower", "x.py:f", "--bogus"], "toolkit lower: error [usage]: unrecognized arguments: --bogus",
                     id="unknown-option"),
        pytest.param(["lower", "x.py:f", "--op"], "toolkit lower: error [usage]: argument --op: expected one argument",
                     id="option-without-value"),
        pytest.param(["golden"], "toolkit golden: error [usage]: the following arguments are required: action (",
                     id="missing-action"),
        pytest.param(["golden", "verify"], "toolkit golden: error [usage]: argument action: invalid choice",
                     id="bad-action"),
        pytest.param(["lowr"], "toolkit: error [usage]: argument COMMAND: invalid choice: 'lowr'", id="bad-command"),
        pytest.param([], "toolkit: error [usage]: the following arguments are required: COMMAND", id="no-command"),
        pytest.param(["diff", "--format", "html"], "toolkit diff: error [usage]: argument --format", id="bad-choice"),
    ],
)  # fmt: skip
def test_a_bad_option_exits_2_with_the_commands_usage(
    argv: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert says in err
    assert err.startswith("usage: toolkit")
    assert f"(see `toolkit{' ' + argv[0] if argv and argv[0] != 'lowr' else ''} --help`)" in err


@pytest.mark.parametrize(
    ("argv", "slug", "says"),
    [
        pytest.param(["generate", "toolkit.examples:search_issues", "--out", "build"], "usage",
                     "generate reads an OpenAPI spec", id="generate-a-function"),
        pytest.param(["diff", "a.yaml"], "usage", "give two sides", id="diff-one-spec"),
        pytest.param(["diff", "a", "b", "c"], "usage", "give two sides", id="diff-three-sides"),
        pytest.param(["diff", "missing_dir", "other_dir"], "usage", "'missing_dir' is neither a folder nor a file",
                     id="diff-missing-sides"),
        pytest.param(["diff", "notes.txt", "notes.txt"], "usage", "'notes.txt' is not a spec", id="diff-text-file"),
        pytest.param(["diff", "toolkit.examples:search_issues", "--dir", "no_golden_here"], "golden_error",
                     "`toolkit golden update toolkit.examples:search_issues --dir no_golden_here`",
                     id="diff-function-without-golden-folder"),
    ],
)  # fmt: skip
def test_an_option_that_does_not_fit_the_target_says_why(
    argv: list[str],
    slug: str,
    says: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.txt").write_text("ping a host\n", encoding="utf-8")
    assert main(argv) == 2
    err = capsys.readouterr().err
    _one_message(err, slug)
    assert says in err


def test_a_bug_in_toolkit_exits_3_with_its_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from toolkit._commands import lower

    def broken(args: Any, console: Any) -> int:
        raise RuntimeError("a bug")

    monkeypatch.setattr(lower, "run", broken)
    assert main(["lower", "x.py:f"]) == 3
    err = capsys.readouterr().err
    assert "RuntimeError: a bug" in err
    assert "internal error" in err


# -- real processes: exit codes as a shell sees them -----------------------------------------------------------


def _toolkit(*argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    script = Path(sys.executable).parent / "toolkit"
    command = [str(script)] if script.exists() else [sys.executable, "-m", "toolkit.cli"]
    return subprocess.run([*command, *argv], capture_output=True, text=True, cwd=cwd, timeout=120)


@pytest.mark.slow
def test_real_processes_exit_2_on_mistakes_1_on_findings_0_otherwise(tmp_path: Path) -> None:
    for case in CASES:
        if case["id"] in ("missing-package", "syntax-error", "exception-at-import", "broken-yaml"):
            _write(tmp_path / case["id"], case["files"])
    good = 'def ping(host: str) -> str:\n    """Ping a host.\n\n    Args:\n        host: The host.\n    """\n'
    good += "    return host\n"
    _write(tmp_path, {"v1.py": good, "v2.py": good.replace("host: str)", "host: str, count: int)")})
    runs = {
        "missing-package": (("lower", "tools.py:ping"), 2),
        "syntax-error": (("fixtures", "tools.py:ping"), 2),
        "exception-at-import": (("golden", "check", "tools.py:ping"), 2),
        "broken-yaml": (("lower", "api.yaml", "--summary"), 2),
        ".": (("diff", "v1.py:ping", "v2.py:ping"), 1),
    }
    for folder, (argv, expected) in runs.items():
        done = _toolkit(*argv, cwd=tmp_path / folder)
        assert done.returncode == expected, (argv, done.stdout, done.stderr)
        assert "Traceback" not in done.stderr
        if expected == 2:
            assert done.stderr.startswith("error ["), done.stderr
    done = _toolkit("diff", "v1.py:ping", "v1.py:ping", cwd=tmp_path)
    assert (done.returncode, done.stderr) == (0, "")
    done = _toolkit("lower", "v1.py:ping", "--colour", cwd=tmp_path)
    assert done.returncode == 2
    assert "toolkit lower: error [usage]: unrecognized arguments: --colour" in done.stderr
