"""Reviewing a change to a pinned spec: ``lower``, ``diff`` and ``serve`` read it with a notice that its pin is stale,
``golden check`` fails until ``toolkit pin SPEC`` re-pins it, and ``generate`` records no absolute spec path."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

import toolkit as tk
from toolkit.cli import main

GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com"]
MANIFEST = '[[spec]]\npath = "../specs/orders.yaml"\nnamespace = "orders"\n'


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def repo(repo_root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Path:
    """A git repository holding a copy of the product's pinned specs and a golden folder for the orders spec."""
    shutil.copytree(repo_root / "specs", tmp_path / "specs")
    (tmp_path / "golden").mkdir()
    (tmp_path / "golden" / "golden.toml").write_text(MANIFEST, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["golden", "update"]) == 0
    subprocess.run([*GIT, "init", "-q"], check=True)
    subprocess.run([*GIT, "add", "."], check=True)
    subprocess.run([*GIT, "commit", "-q", "-m", "pinned"], check=True)
    capsys.readouterr()
    return tmp_path


def lower_the_limit(spec: Path) -> None:
    document = yaml.safe_load(spec.read_text(encoding="utf-8"))
    document["paths"]["/orders"]["get"]["parameters"][2]["schema"]["maximum"] = 50
    spec.write_text(yaml.safe_dump(document), encoding="utf-8")


def test_a_changed_pinned_spec_is_diffed_with_a_stale_pin_notice(
    capsys: pytest.CaptureFixture[str], repo: Path
) -> None:
    lower_the_limit(repo / "specs" / "orders.yaml")
    code, out, err = run(capsys, "diff", "--git", "HEAD", "specs/orders.yaml", "--json")
    assert code == 1  # a breaking change, found: not a refusal to read the spec
    assert [(c["tool"], c["rule"]) for c in json.loads(out)["changes"]] == [("orders_list", "constraint_tightened")]
    assert "specs/orders.yaml changed since it was pinned" in err
    assert "`toolkit pin specs/orders.yaml`" in err
    assert "_openapi" not in out + err


def test_a_changed_pinned_spec_is_lowered_with_a_stale_pin_notice(
    capsys: pytest.CaptureFixture[str], repo: Path
) -> None:
    lower_the_limit(repo / "specs" / "orders.yaml")
    code, out, err = run(capsys, "lower", "specs/orders.yaml", "--op", "listOrders", "--json")
    assert code == 0
    limit = json.loads(out)[0]["declaration"]["parameters"]["properties"]["limit"]
    assert limit["maximum"] == 50
    assert "`toolkit pin specs/orders.yaml`" in err
    assert run(capsys, "lower", "specs/orders.yaml", "--summary")[0] == 0


def test_a_changed_pinned_spec_is_served_with_the_same_stale_pin_notice(
    capsys: pytest.CaptureFixture[str], repo: Path
) -> None:
    lower_the_limit(repo / "specs" / "orders.yaml")
    _, _, lowered = run(capsys, "lower", "specs/orders.yaml", "--op", "listOrders")
    notice = next(line for line in lowered.splitlines() if line.startswith("notice:"))
    command = [sys.executable, "-m", "toolkit.cli", "serve", "specs/orders.yaml", "--no-ledger"]
    served = subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)
    assert served.returncode == 0, served.stderr  # stdin at its end: the stdio server stops at once
    assert notice in served.stderr.splitlines()
    assert "serving 5 tool(s) over stdio" in served.stderr


def test_golden_check_fails_until_the_spec_is_re_pinned(capsys: pytest.CaptureFixture[str], repo: Path) -> None:
    spec = repo / "specs" / "orders.yaml"
    assert run(capsys, "golden", "check")[0] == 0
    lower_the_limit(spec)
    run(capsys, "golden", "update")  # accepting the declarations is not enough
    code, out, _ = run(capsys, "golden", "check")
    assert code == 1
    assert "golden FAILED: specs/orders.yaml changed since it was pinned" in out
    assert "`toolkit pin specs/orders.yaml`" in out
    code, out, _ = run(capsys, "golden", "check", "--json")
    assert (code, json.loads(out)["passed"]) == (1, False)
    assert [s["spec"] for s in json.loads(out)["stale_pins"]] == ["specs/orders.yaml"]

    code, out, err = run(capsys, "pin", "specs/orders.yaml")
    assert (code, err) == (0, "")
    assert out.startswith("re-pinned specs/orders.yaml")
    lock = json.loads((repo / "specs" / "specs.lock.json").read_text(encoding="utf-8"))
    assert lock["orders.yaml"] == {"openapi": "3.0.3", "sha256": tk.from_openapi(spec, "orders").source["sha256"]}
    assert run(capsys, "golden", "check")[0] == 0
    code, out, _ = run(capsys, "pin", "specs/orders.yaml", "--json")
    assert (code, json.loads(out)[0]["state"]) == (0, "unchanged")


def test_the_library_still_refuses_a_stale_pin_and_names_the_command(repo: Path) -> None:
    lower_the_limit(repo / "specs" / "orders.yaml")
    with pytest.raises(tk.ChecksumMismatch) as caught:
        tk.from_openapi(repo / "specs" / "orders.yaml", "orders")
    assert "toolkit pin" in caught.value.message
    assert "_openapi" not in caught.value.message


@pytest.mark.parametrize("target", ["specs/none.yaml", "specs", "tools.py"])
def test_pin_of_no_spec_file_is_a_mistake(capsys: pytest.CaptureFixture[str], repo: Path, target: str) -> None:
    code, _, err = run(capsys, "pin", target)
    assert code == 2
    assert "[not_found]" in err


def test_generate_records_no_absolute_spec_path(
    capsys: pytest.CaptureFixture[str], repo: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    shutil.copytree(repo / "specs", elsewhere / "specs")
    outputs = {}
    for spec, out in ((elsewhere / "specs" / "orders.yaml", "a"), (repo / "specs" / "orders.yaml", "b")):
        assert run(capsys, "generate", str(spec), "--out", out)[0] == 0
        outputs[out] = {p.relative_to(repo / out): p.read_text(encoding="utf-8") for p in (repo / out).rglob("*.py")}
    for text in (*outputs["a"].values(), *outputs["b"].values()):
        assert str(elsewhere) not in text
        assert str(repo) not in text
    assert "# Source: 'orders.yaml'" in outputs["a"][Path("orders_tools/__init__.py")]
    assert "# Source: 'specs/orders.yaml'" in outputs["b"][Path("orders_tools/__init__.py")]
    assert tk.generate(tk.from_openapi(elsewhere / "specs" / "orders.yaml", "orders")) == tk.generate(
        tk.from_openapi(repo / "specs" / "orders.yaml", "orders"), source_path="orders.yaml"
    )
