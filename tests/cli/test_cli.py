"""The ``toolkit`` command line, driven in-process through ``main([...])`` and once as a real process.

Internals: the CLI's renderers (``_commands.lower``, ``progress``, ``reference``) driven alone on a console, and the
slug, code and rule tables ``toolkit reference`` (and docs/reference.md) renders."""

from __future__ import annotations

import io
import json
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from toolkit._commands import reference
from toolkit._diff._rules import RULES
from toolkit._envelope_codes import FIELD_CODES, NOTICE_ACTIONS
from toolkit._exceptions import ERROR_SLUGS
from toolkit._lints import CATALOGUE
from toolkit._lowering._budget import REDUCTIONS
from toolkit._lowering._dialect import DIALECT_SLUGS
from toolkit._openapi._refusal import SLUGS
from toolkit.cli import main

SEARCH = "toolkit.examples:search_issues"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any]:
    code, out, _ = run(capsys, *argv, "--json")
    return code, json.loads(out)


@pytest.fixture
def orders(repo_root: Path, tmp_path: Path) -> Path:
    """A private copy of the orders spec that a test may edit."""
    copy = tmp_path / "orders.yaml"
    shutil.copy(repo_root / "specs" / "orders.yaml", copy)
    return copy


def edit_spec(path: Path, edit: Any) -> None:
    spec = yaml.safe_load(path.read_text(encoding="utf-8"))
    edit(spec)
    path.write_text(yaml.safe_dump(spec), encoding="utf-8")


def lower_limit_maximum(spec: dict[str, Any]) -> None:
    spec["paths"]["/orders"]["get"]["parameters"][2]["schema"]["maximum"] = 50


# -- usage and errors --------------------------------------------------------------------------------------


def test_help_lists_every_command_and_the_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--help")
    assert code == 0
    for command in ("lower", "fixtures", "golden", "diff", "generate", "demo"):
        assert command in out
    assert "exit codes" in out


def test_building_the_parser_imports_nothing_heavy() -> None:
    """``toolkit --help`` stays fast: every command defers its heavy imports to ``run``."""
    code = (
        "import sys\nfrom toolkit.cli import build_parser\nbuild_parser()\n"
        "heavy = ('pydantic', 'pandas', 'ipywidgets', 'google.genai', 'httpx', 'yaml', 'rich')\n"
        "print(','.join(m for m in heavy if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == ""


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        run(
            capsys,
        )[0]
        == 2
    )
    assert run(capsys, "lower")[0] == 2
    assert run(capsys, "golden", "verify")[0] == 2


def test_toolkit_error_is_a_message_without_traceback(capsys: pytest.CaptureFixture[str], orders: Path) -> None:
    code, out, err = run(capsys, "lower", str(orders), "--op", "noSuchOperation")
    assert code == 2
    assert "unknown_operation" in err
    assert "getOrder" in err  # the message lists what exists
    assert "Traceback" not in err + out


def test_missing_spec_file_is_a_toolkit_error(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "lower", str(tmp_path / "absent.yaml"))
    assert code == 2
    assert "not found" in err


# -- lower -------------------------------------------------------------------------------------------------


def test_lower_module_function_prints_the_exact_declaration(capsys: pytest.CaptureFixture[str]) -> None:
    import toolkit as tk
    from toolkit import examples

    code, records = run_json(capsys, "lower", SEARCH, "--namespace", "issues")
    assert code == 0
    expected = tk.from_function(examples.search_issues, namespace="issues")
    assert [r["declaration"] for r in records] == [expected.declaration]
    assert records[0]["losses"] == [loss.to_dict() for loss in expected.losses]


def test_lower_file_function_target(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    source = tmp_path / "tools.py"
    source.write_text(
        'def ping(host: str, count: int = 3) -> str:\n    """Ping a host.\n\n    Args:\n'
        '        host: The host name to ping.\n        count: How many pings to send.\n    """\n'
        "    return host\n",
        encoding="utf-8",
    )
    code, out, _ = run(capsys, "lower", f"{source}:ping")
    assert code == 0
    assert '"name": "ping"' in out
    assert "The host name to ping." in out


def test_lower_spec_op_shows_losses_and_the_declaration(capsys: pytest.CaptureFixture[str], orders: Path) -> None:
    code, records = run_json(capsys, "lower", str(orders), "--op", "getOrder")
    assert code == 0
    assert [r["name"] for r in records] == ["orders_get"]
    assert records[0]["binding"] == {"orderId": "path", "expand": "query"}
    code, out, _ = run(capsys, "lower", str(orders), "--op", "orders_get")
    assert code == 0
    assert "orders_get" in out
    assert "1 loss: dropped or changed in the declaration, still enforced" in out
    assert "additionalProperties=False" in out


@pytest.mark.parametrize("dialect", ["openai", "mcp"])
def test_lower_dialect_prints_that_providers_payload(capsys: pytest.CaptureFixture[str], dialect: str) -> None:
    import toolkit as tk
    from toolkit import examples

    code, records = run_json(capsys, "lower", SEARCH, "--namespace", "issues.v1", "--dialect", dialect)
    expected = tk.from_function(examples.search_issues, namespace="issues.v1").payload(dialect)
    assert code == 0
    assert [(r["dialect"], r["sent_as"], r["declaration"]) for r in records] == [
        (dialect, expected.name, expected.body)
    ]
    code, out, _ = run(capsys, "lower", SEARCH, "--namespace", "issues.v1", "--dialect", dialect)
    assert code == 0
    assert f"[{dialect}" in out


def test_lower_all_opts_in_every_operation(capsys: pytest.CaptureFixture[str], orders: Path) -> None:
    _, opted_in = run_json(capsys, "lower", str(orders))
    _, every = run_json(capsys, "lower", str(orders), "--all")
    assert len(opted_in) == 5
    assert len(every) == 6


def test_lower_summary_reports_the_spec(capsys: pytest.CaptureFixture[str], orders: Path) -> None:
    code, summary = run_json(capsys, "lower", str(orders), "--summary", "--all")
    assert code == 0
    assert isinstance(summary, dict)
    assert code == run(capsys, "lower", str(orders), "--summary")[0]


def test_lower_summary_of_a_function_target_summarises_its_tools(capsys: pytest.CaptureFixture[str]) -> None:
    code, summary = run_json(capsys, "lower", SEARCH, "--summary")
    assert code == 0
    assert summary["tools"] == 1
    assert summary["losses"]


def test_a_reader_that_stops_early_is_not_a_finding(orders: Path) -> None:
    """``toolkit lower ... | head -1``: the command ends quietly with 0, not 1 (which means findings)."""
    command = [sys.executable, "-m", "toolkit.cli", "lower", str(orders)]
    lower = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert lower.stdout is not None
    lower.stdout.close()  # before the command writes anything: its first write finds no reader
    _, err = lower.communicate(timeout=60)
    assert lower.returncode == 0, err
    assert b"Traceback" not in err


def test_lower_a_module_without_tools_says_to_name_a_function(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "lower", "toolkit.examples")
    assert code == 2
    assert "[no_tools_in_module]" in err
    assert "toolkit.examples:search_issues" in err


LONG = (
    "Search the issue tracker for issues whose title or body matches the query, newest first, across every "
    "project the caller can read; closed issues are left out unless the query says state:closed."
)


def long_tool() -> Any:
    import toolkit as tk

    def search(query: str) -> list[str]:
        return []

    return tk.from_function(search, description=LONG, effect="read")


def declaration_block(text: str) -> Any:
    """The JSON block of ``lower``'s output: from the first ``{`` line to the first ``}`` line."""
    lines = text.splitlines()
    start = lines.index("{")
    return json.loads("\n".join(lines[start : lines.index("}", start) + 1]))


@pytest.mark.parametrize("terminal", [True, False], ids=["terminal", "pipe"])
def test_lower_never_cuts_the_declaration(terminal: bool) -> None:
    from rich.console import Console

    from toolkit._commands import lower

    tool = long_tool()
    stream = io.StringIO()
    console = Console(file=stream, record=True, width=40, force_terminal=terminal, soft_wrap=True, highlight=False)
    lower._render(console, tool)
    text = console.export_text()
    assert declaration_block(text) == tool.declaration  # every line whole, though the console is 40 wide
    assert f'  "description": "{LONG}",' in text.splitlines()
    assert ("\x1b[" in stream.getvalue()) is terminal  # colours on a terminal only; a pipe gets plain JSON
    if not terminal:
        assert stream.getvalue() == text


def test_lower_summary_is_a_table_of_refusals_and_losses(tmp_path: Path) -> None:
    from rich.console import Console

    import toolkit as tk
    from toolkit._commands import lower
    from toolkit._openapi import summarise

    spec = tmp_path / "api.yaml"
    spec.write_text(
        "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths:\n"
        "  /a:\n    get:\n      operationId: getA\n      description: Get A.\n"
        "      parameters: [{name: q, in: query, schema: {type: string, pattern: '^a', examples: [aa]}}]\n"
        "  /b:\n    get:\n      operationId: getB\n",
        encoding="utf-8",
    )
    summary = summarise(tk.from_openapi(spec, "api", select="all"))
    console = Console(record=True, width=120)
    lower._summary_table(console, "api.yaml", summary)
    text = console.export_text()
    assert text.splitlines()[0].rstrip() == "api.yaml: 2 operations, 1 tool, 1 refusal"
    rows = [tuple(cell.strip() for cell in line.split("│")[1:4]) for line in text.splitlines() if "│" in line]
    expected = [("refused", slug, str(n)) for slug, n in summary["refusals"].items()]
    expected += [("lost", keyword, str(n)) for keyword, n in summary["losses"].items()]
    assert [row for row in rows if row[0]] == expected
    assert ("refused", "missing_description", "1") in expected
    assert "{" not in text  # a table, not JSON


@pytest.mark.parametrize("command", ["lower", "fixtures", "golden", "diff", "generate", "demo", "reference"])
def test_help_is_plain_text(capsys: pytest.CaptureFixture[str], command: str) -> None:
    code, out, _ = run(capsys, command, "--help")
    assert code == 0
    assert f"toolkit {command}" in out
    for markup in ("``", "::", ":func:", ":mod:", ":class:"):
        assert markup not in out, markup


# -- fixtures ----------------------------------------------------------------------------------------------


def test_fixtures_report_for_one_operation(capsys: pytest.CaptureFixture[str], orders: Path) -> None:
    code, reports = run_json(capsys, "fixtures", str(orders), "--op", "getOrder")
    assert code == 0
    assert list(reports) == ["orders_get"]
    code, out, _ = run(capsys, "fixtures", SEARCH)
    assert code == 0
    assert "search_issues" in out


def test_fixtures_that_misbehave_exit_1(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    source = tmp_path / "strict_tools.py"
    source.write_text(
        "import toolkit as tk\n\n\n"
        "def ping(host: str) -> str:\n"
        '    """Ping a host.\n\n    Args:\n        host: The host name to ping.\n    """\n'
        "    return host\n\n\n"
        "def refuse_everything(args):\n"
        '    return [tk.FieldError("host", "domain_rule", "never allowed", "nothing")]\n\n\n'
        "ping_tool = tk.from_function(ping, effect='read').with_domain(refuse_everything)\n",
        encoding="utf-8",
    )
    code, out, _ = run(capsys, "fixtures", str(source))
    assert code == 1
    assert "fail" in out


def test_fixtures_nested_cap_bounds_the_nested_sample(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    source = tmp_path / "ship_tools.py"
    source.write_text(
        "from pydantic import BaseModel\n\n\n"
        "class Line(BaseModel):\n"
        '    """One order line."""\n\n'
        "    sku: str\n    quantity: int\n\n\n"
        "def ship(lines: list[Line], note: str) -> str:\n"
        '    """Ship order lines.\n\n    Args:\n        lines: The lines to ship.\n'
        '        note: A note for the courier.\n    """\n'
        "    return note\n",
        encoding="utf-8",
    )
    counts = {}
    for cap in ("0", "2", "all"):
        code, reports = run_json(capsys, "fixtures", f"{source}:ship", "--nested-cap", cap)
        assert code == 0
        counts[cap] = reports["ship"]["nested"]
    generated = {cap: found["generated"] for cap, found in counts.items()}
    possible = counts["all"]["possible"]
    assert generated["0"] == 0
    assert generated["2"] == 2
    assert generated["all"] == possible > 2
    code, _, err = run(capsys, "fixtures", f"{source}:ship", "--nested-cap", "many")
    assert code == 2
    assert "not a count of fixtures" in err


# -- golden ------------------------------------------------------------------------------------------------


def test_golden_update_then_check_passes_then_drift_fails(
    capsys: pytest.CaptureFixture[str], orders: Path, tmp_path: Path
) -> None:
    folder = str(tmp_path / "golden")
    assert run(capsys, "golden", "check", str(orders), "--dir", folder)[0] == 1  # all missing
    code, written = run_json(capsys, "golden", "update", str(orders), "--dir", folder)
    assert code == 0
    assert len(written["written"]) == 5
    assert run(capsys, "golden", "check", str(orders), "--dir", folder)[0] == 0
    edit_spec(orders, lower_limit_maximum)
    code, report = run_json(capsys, "golden", "check", str(orders), "--dir", folder)
    assert code == 1
    (stale,) = report["stale"]
    assert stale["name"] == "orders_list"
    assert [c["rule"] for c in stale["diff"]["changes"]] == ["constraint_tightened"]
    code, out, _ = run(capsys, "golden", "check", str(orders), "--dir", folder)
    assert "stale" in out
    assert "maximum of `limit` lowered from 100 to 50" in out


def test_golden_reads_the_manifest_by_default(capsys: pytest.CaptureFixture[str], orders: Path, tmp_path: Path) -> None:
    folder = tmp_path / "golden"
    folder.mkdir()
    (folder / "golden.toml").write_text(
        '[[spec]]\npath = "../orders.yaml"\nnamespace = "shop"\n\n'
        '[[function]]\ntarget = "toolkit.examples:search_issues"\nnamespace = "issues"\neffect = "read"\n',
        encoding="utf-8",
    )
    code, result = run_json(capsys, "golden", "update", "--dir", str(folder))
    assert code == 0
    assert "shop_get" not in result["written"]  # names come from x-agent-tool, not the namespace
    assert "issues_search_issues" in result["written"]
    (folder / "stray.json").write_text("{}", encoding="utf-8")
    code, report = run_json(capsys, "golden", "check", "--dir", str(folder))
    assert code == 1
    assert report["orphaned"] == ["stray"]
    assert run(capsys, "golden", "update", "--dir", str(folder), "--prune")[0] == 0
    assert run(capsys, "golden", "check", "--dir", str(folder))[0] == 0


def test_golden_manifest_module_entries_take_every_tool_of_the_module(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "my_tools.py").write_text(
        "import toolkit as tk\nfrom toolkit import examples\n\n"
        "search = tk.from_function(examples.search_issues, namespace='mine', effect='read')\n"
        "invoice = tk.from_function(examples.create_invoice, namespace='mine')\n",
        encoding="utf-8",
    )
    folder = tmp_path / "golden"
    folder.mkdir()
    (folder / "golden.toml").write_text('[[module]]\ntarget = "../my_tools.py"\n', encoding="utf-8")
    code, result = run_json(capsys, "golden", "update", "--dir", str(folder))
    assert code == 0
    assert result["written"] == ["mine_create_invoice", "mine_search_issues"]


def test_golden_without_a_manifest_says_how_to_fix_it(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "golden", "check", "--dir", str(tmp_path))
    assert code == 2
    assert "golden_manifest" in err
    assert "golden.toml" in err


@pytest.mark.parametrize("layout", ["targets", "manifest"])
def test_golden_check_hint_is_the_command_that_accepts_the_changes(
    capsys: pytest.CaptureFixture[str], orders: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, layout: str
) -> None:
    monkeypatch.chdir(tmp_path)
    targets = [orders.name, "--namespace", "orders"] if layout == "targets" else []
    if layout == "manifest":
        Path("g1").mkdir()
        Path("g1/golden.toml").write_text('[[spec]]\npath = "../orders.yaml"\nnamespace = "orders"\n', "utf-8")
    assert run(capsys, "golden", "update", *targets, "--dir", "g1")[0] == 0
    edit_spec(orders, lower_limit_maximum)
    Path("g1/orders_stray.json").write_text("{}\n", encoding="utf-8")  # an orphan: only --prune removes it
    code, out, _ = run(capsys, "golden", "check", *targets, "--dir", "g1")
    assert code == 1
    hint = re.search(r"then run `([^`]+)` to accept them", out)
    assert hint is not None, out
    command = shlex.split(hint.group(1))
    assert command[:3] == ["toolkit", "golden", "update"]
    assert "--prune" in command
    assert run(capsys, *command[1:])[0] == 0  # the hint works as written
    assert run(capsys, "golden", "check", *targets, "--dir", "g1")[0] == 0


def test_golden_manifest_mistakes_name_the_manifest_and_entry(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    folder = tmp_path / "golden"
    folder.mkdir()
    (folder / "golden.toml").write_text('[[spec]]\nnamespace = "x"\n', encoding="utf-8")
    code, _, err = run(capsys, "golden", "check", "--dir", str(folder))
    assert code == 2
    assert "[golden_manifest]" in err
    assert "[[spec]] entry 1 needs `path" in err
    (folder / "golden.toml").write_text('[[function]]\ntarget = "../tools.py:ping"\n', encoding="utf-8")
    (tmp_path / "tools.py").write_text("def ping(host: str) -> str:\n    return host +\n", encoding="utf-8")
    code, _, err = run(capsys, "golden", "check", "--dir", str(folder))
    assert code == 2
    assert "golden.toml, [[function]] entry 1: " in err  # relative to the manifest, like its spec paths
    assert "tools.py:2: SyntaxError" in err


# -- diff --------------------------------------------------------------------------------------------------


def test_diff_of_two_specs_exits_1_on_breaking(
    capsys: pytest.CaptureFixture[str], repo_root: Path, orders: Path
) -> None:
    edit_spec(orders, lower_limit_maximum)
    old = str(repo_root / "specs" / "orders.yaml")
    code, data = run_json(capsys, "diff", old, str(orders))
    assert code == 1
    assert data["verdict"] == "breaking"
    assert [(c["tool"], c["rule"]) for c in data["changes"]] == [("orders_list", "constraint_tightened")]
    code, out, _ = run(capsys, "diff", old, str(orders))
    assert code == 1
    assert "orders_list" in out
    assert "constraint_tightened" in out


def test_diff_exits_0_when_nothing_breaks(capsys: pytest.CaptureFixture[str], repo_root: Path, orders: Path) -> None:
    edit_spec(orders, lambda s: s["components"]["schemas"]["RefundRequest"]["properties"]["reason"]["enum"].append("x"))
    code, out, _ = run(capsys, "diff", str(repo_root / "specs" / "orders.yaml"), str(orders), "--format", "markdown")
    assert code == 0
    assert out.startswith("### Spec diff `orders`: **additive**")
    assert "| additive | `orders_refund_create` | `enum_member_added` | `reason` |" in out


def test_diff_of_golden_folders(capsys: pytest.CaptureFixture[str], orders: Path, tmp_path: Path) -> None:
    run(capsys, "golden", "update", str(orders), "--dir", str(tmp_path / "old"))
    edit_spec(orders, lambda s: s["paths"]["/orders/{orderId}"]["get"]["x-agent-tool"].update(description="Fetch."))
    run(capsys, "golden", "update", str(orders), "--dir", str(tmp_path / "new"))
    code, data = run_json(capsys, "diff", str(tmp_path / "old"), str(tmp_path / "new"))
    assert code == 0
    assert data["verdict"] == "behavioural"
    assert [c["rule"] for c in data["changes"]] == ["tool_description_changed"]


def test_diff_git_compares_a_revision_with_the_working_tree(
    capsys: pytest.CaptureFixture[str], orders: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    monkeypatch.chdir(repo)
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com"]
    subprocess.run([*git, "init", "-q"], check=True)
    (repo / "README").write_text("r\n", encoding="utf-8")
    subprocess.run([*git, "add", "README"], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "before golden files"], check=True)
    run(capsys, "golden", "update", str(orders), "--dir", "golden")
    code, data = run_json(capsys, "diff", "--git", "HEAD")
    assert code == 0  # golden/ did not exist at HEAD: every tool is new
    assert {c["rule"] for c in data["changes"]} == {"tool_added"}
    subprocess.run([*git, "add", "golden"], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "golden"], check=True)
    assert run(capsys, "diff", "--git", "HEAD")[0] == 0
    (repo / "golden" / "orders_cancel.json").unlink()
    code, data = run_json(capsys, "diff", "--git", "HEAD")
    assert code == 1
    assert [(c["tool"], c["rule"]) for c in data["changes"]] == [("orders_cancel", "tool_removed")]
    assert run(capsys, "diff", "--git", "no-such-rev")[0] == 2
    spec = repo / "orders.yaml"
    shutil.copy(orders, spec)
    subprocess.run([*git, "add", "orders.yaml"], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "spec"], check=True)
    edit_spec(spec, lower_limit_maximum)
    code, data = run_json(capsys, "diff", "--git", "HEAD", "orders.yaml", "--namespace", "orders")
    assert code == 1
    assert [(c["tool"], c["rule"]) for c in data["changes"]] == [("orders_list", "constraint_tightened")]


def test_diff_of_one_declaration_file_against_a_spec(
    capsys: pytest.CaptureFixture[str], orders: Path, tmp_path: Path
) -> None:
    run(capsys, "golden", "update", str(orders), "--dir", str(tmp_path / "g"))
    code, data = run_json(capsys, "diff", str(tmp_path / "g" / "orders_get.json"), str(orders), "--namespace", "orders")
    assert code == 0
    assert sorted(data["changes"], key=lambda c: c["tool"])[0]["rule"] == "tool_added"
    assert {c["rule"] for c in data["changes"]} == {"tool_added"}  # orders_get itself is unchanged


def test_diff_needs_two_sides(capsys: pytest.CaptureFixture[str], orders: Path) -> None:
    code, _, err = run(capsys, "diff", str(orders))
    assert code == 2
    assert "OLD and NEW" in err


PING = (
    'def ping(host: str{extra}) -> str:\n    """Ping a host.\n\n    Args:\n        host: The host name.\n    """\n'
    "    return host\n"
)


def test_diff_compares_two_versions_of_a_function(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import toolkit as tk

    monkeypatch.chdir(tmp_path)
    Path("v1.py").write_text(PING.format(extra=""), encoding="utf-8")
    Path("v2.py").write_text(PING.format(extra=", count: int"), encoding="utf-8")
    code, data = run_json(capsys, "diff", "v1.py:ping", "v2.py:ping")
    assert code == 1
    namespace: dict[str, Any] = {}
    exec(PING.format(extra=""), namespace)  # the oracle: the library's own diff of the same two functions
    old = tk.from_function(namespace["ping"])
    exec(PING.format(extra=", count: int"), namespace)
    assert data == tk.diff_declarations(old, tk.from_function(namespace["ping"])).to_dict()
    assert [c["rule"] for c in data["changes"]] == ["required_parameter_added"]
    code, out, _ = run(capsys, "diff", "v1.py:ping", "v2.py:ping")
    assert "required_parameter_added" in out


def test_diff_compares_a_function_with_its_golden_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("tools.py").write_text(PING.format(extra=""), encoding="utf-8")
    assert run(capsys, "golden", "update", "tools.py:ping", "--dir", "g1")[0] == 0
    assert run_json(capsys, "diff", "tools.py:ping", "--dir", "g1") == (0, run_json(capsys, "diff", "g1", "g1")[1])
    Path("tools.py").write_text(PING.format(extra=", count: int = 3"), encoding="utf-8")
    code, data = run_json(capsys, "diff", "tools.py:ping", "--dir", "g1")
    assert code == 0
    assert [c["rule"] for c in data["changes"]] == ["optional_parameter_added"]
    code, explicit = run_json(capsys, "diff", "g1/ping.json", "tools.py:ping")
    assert explicit == data
    code, _, err = run(capsys, "diff", "tools.py:ping", "--dir", "g1", "--namespace", "net")
    assert code == 2
    assert "no golden file for tool 'net_ping'" in err
    assert "`toolkit golden update tools.py:ping --dir g1`" in err


# -- terminals and processes -------------------------------------------------------------------------------


def test_progress_shows_on_a_terminal_and_stays_quiet_otherwise() -> None:
    from rich.console import Console

    from toolkit._commands import progress

    quiet, loud = io.StringIO(), io.StringIO()
    with progress(Console(file=quiet, force_terminal=False), "work", 2) as advance:
        advance()
    with progress(Console(file=loud, force_terminal=True), "work", 2) as advance:
        advance()
    assert quiet.getvalue() == ""
    assert "work" in loud.getvalue()


def test_real_process_exit_codes_and_output(orders: Path, tmp_path: Path) -> None:
    script = Path(sys.executable).parent / "toolkit"
    command = [str(script)] if script.exists() else [sys.executable, "-m", "toolkit.cli"]
    done = subprocess.run(
        [*command, "golden", "update", str(orders), "--dir", str(tmp_path / "g")], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert "5 written" in done.stdout
    done = subprocess.run([*command, "lower", str(orders), "--op", "nope"], capture_output=True, text=True)
    assert done.returncode == 2
    assert "unknown_operation" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.corpus
def test_openai_spec_versions_give_a_classified_per_tool_list(
    capsys: pytest.CaptureFixture[str], corpus_dir: Path
) -> None:
    old, new = corpus_dir / "openai-3.0.yaml", corpus_dir / "openai-3.1.json"
    code, data = run_json(capsys, "diff", str(old), str(new), "--all")
    assert code == (1 if data["verdict"] == "breaking" else 0)
    assert data["namespace"] == "openai"
    assert data["changes"]
    for change in data["changes"]:
        assert RULES[change["rule"]] == change["kind"]
        assert change["tool"].startswith("openai_")
    tools_with_changes = {c["tool"] for c in data["changes"]}
    assert set(data["added"]) <= tools_with_changes
    assert set(data["removed"]) <= tools_with_changes
    assert not tools_with_changes & set(data["unchanged"])


# -- demo --------------------------------------------------------------------------------------------------


def test_demo_shows_each_envelope_and_the_notebook_hint(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, repo_root: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "demo", "--spec", str(repo_root / "specs" / "orders.yaml"))
    assert code == 0
    statuses = re.findall(r"→ (\w+)", out)
    assert statuses == ["invalid_arguments", "ok", "needs_confirmation", "ok", "rejected"]
    assert '"action": "clamped"' in out
    assert ".venv/bin/jupyter lab notebooks/" in out
    assert (tmp_path / ".toolkit" / "demo-orders.sqlite3").is_file()


# -- lower --summary: each declaration's size, approximate tokens, what its budget cut, the total -------------
def _recursive_spec() -> dict[str, Any]:
    """One operation whose body is a recursive tree described at length (far over 8 KiB inlined), one small."""
    long = "This sentence explains the field at some length so that it weighs on the declaration. "
    ref = {"$ref": "#/components/schemas/Node"}
    node = {
        "type": "object",
        "description": long,
        "properties": {"label": {"type": "string", "description": long}, "left": ref, "right": ref},
    }
    body = {"content": {"application/json": {"schema": ref}}}
    paths = {
        "/grow": {"post": {"operationId": "grow", "description": "Grow the tree.", "requestBody": body}},
        "/small": {"get": {"operationId": "small", "description": "Look."}},
    }
    return {
        "openapi": "3.1.0",
        "info": {"title": "t", "version": "1"},
        "paths": paths,
        "components": {"schemas": {"Node": node}},
    }


def _compact_size(declaration: dict[str, Any]) -> int:
    return len(json.dumps(declaration, separators=(",", ":"), ensure_ascii=False).encode("utf-8"))


def test_lower_summary_shows_each_declaration_size_and_the_total(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from rich.console import Console

    import toolkit as tk
    from toolkit._commands import lower
    from toolkit._lowering._size import tokens

    spec = tmp_path / "api.json"
    spec.write_text(json.dumps(_recursive_spec()), encoding="utf-8")
    assert main(["lower", str(spec), "--all", "--summary", "--json"]) == 0
    declarations = json.loads(capsys.readouterr().out)["declarations"]
    toolset = tk.from_openapi(spec, "api", select="all")
    grown = toolset["api_grow"]
    assert declarations["tools"]["api_grow"] == {
        "bytes": _compact_size(grown.declaration),
        "tokens": tokens(_compact_size(grown.declaration)),
        "before": _compact_size(tk.from_openapi(spec, "api", select="all", budget=None)["api_grow"].declaration),
        "reductions": ["depth"],
        "over": False,
    }
    assert declarations["bytes"] == sum(_compact_size(t.declaration) for t in toolset)
    assert declarations["reduced"] == 1
    console = Console(record=True, width=200)
    lower._sizes_table(console, declarations)
    text = console.export_text()
    assert f"declarations: {declarations['bytes']:,} bytes, ~{declarations['tokens']:,} tokens; 1 tool reduced" in text
    grow_row = next(line for line in text.splitlines() if "api_grow" in line)
    assert [cell.strip() for cell in grow_row.split("│")[1:6]] == [
        "api_grow",
        f"{grown.declaration_bytes:,}",
        f"{grown.declaration_tokens:,}",
        f"{declarations['tools']['api_grow']['before']:,}",
        "depth",
    ]


# -- reference: one table per vocabulary (docs/reference.md is this page: tests/package/test_docs.py) -------
def test_reference_has_one_table_per_vocabulary_with_one_row_per_entry() -> None:
    subsections = reference.reference_markdown().split("\n## ")[1:]
    rendered = {
        title.split("\n", 1)[0]: [line.split(" | ")[0].removeprefix("| `").rstrip("`") for line in _rows(title)]
        for title in subsections
    }
    assert rendered == {
        "Field codes": sorted(FIELD_CODES),
        "Notice actions": sorted(NOTICE_ACTIONS),
        "Exception slugs": sorted(ERROR_SLUGS),
        "Refusal slugs": sorted(SLUGS),
        "Dialect refusal slugs": sorted(DIALECT_SLUGS),
        "Declaration reductions": list(REDUCTIONS),  # in the order they are tried
        "Lint codes": [rule.code for rule in CATALOGUE],  # in catalogue order
    }
    assert f"| `bad_signature` | SignatureError | {ERROR_SLUGS['bad_signature'].meaning} |" in subsections[2]


def test_markdown_table_escapes_pipes_in_cells() -> None:
    assert reference.markdown_table(("a", "b"), [("x|y", "z")]) == "| a | b |\n|---|---|\n| x\\|y | z |"


def _rows(markdown: str) -> list[str]:
    """The body rows of the Markdown table in ``markdown``."""
    return [line for line in markdown.splitlines() if line.startswith("| `")]
