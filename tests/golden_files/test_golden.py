"""Golden files: check finds missing, stale and orphaned files; update writes them atomically."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from toolkit import GoldenError, golden
from toolkit import canonical_json as pretty

pytest_plugins = ["pytester"]


def _decl(name: str, maximum: int = 100, description: str = "How many, between 1 and 100.") -> dict[str, Any]:
    return {
        "name": name,
        "description": f"The {name} tool.",
        "parameters": {
            "type": "OBJECT",
            "properties": {"limit": {"type": "INTEGER", "minimum": 1, "maximum": maximum, "description": description}},
        },
    }


def test_update_writes_canonical_bytes_and_check_then_passes(tmp_path: Path) -> None:
    tools = [_decl("b_tool"), _decl("a_tool")]
    result = golden.update(tools, tmp_path)
    assert result.written == ("a_tool", "b_tool")
    assert (tmp_path / "a_tool.json").read_text(encoding="utf-8") == pretty(_decl("a_tool"))
    report = golden.check(tools, tmp_path)
    assert report.passed
    assert report.ok == ("a_tool", "b_tool")


def test_check_reports_missing_stale_and_orphaned(tmp_path: Path) -> None:
    golden.update([_decl("kept"), _decl("edited"), _decl("gone")], tmp_path)
    now = [_decl("kept"), _decl("edited", maximum=50, description="How many, 1 to 50."), _decl("new")]
    report = golden.check(now, tmp_path)
    assert not report.passed
    assert report.ok == ("kept",)
    assert report.missing == ("new",)
    assert report.orphaned == ("gone",)
    (stale,) = report.stale
    assert stale.name == "edited"
    assert stale.diff is not None
    assert {(c.rule, c.kind) for c in stale.diff.changes} == {
        ("constraint_tightened", "breaking"),
        ("description_changed", "behavioural"),
    }
    assert report.verdict == "breaking"
    text = report.to_text()
    assert "FAILED" in text
    assert "toolkit golden update" in text
    assert "constraint_tightened" in text


def test_formatting_only_drift_is_stale_with_an_empty_diff(tmp_path: Path) -> None:
    (tmp_path / "t.json").write_text(json.dumps(_decl("t")), encoding="utf-8")
    (stale,) = golden.check([_decl("t")], tmp_path).stale
    assert stale.diff is not None
    assert not stale.diff
    assert "formatting" in stale.reason


def test_unreadable_golden_file_is_stale_without_a_diff(tmp_path: Path) -> None:
    (tmp_path / "t.json").write_text("{not json", encoding="utf-8")
    (stale,) = golden.check([_decl("t")], tmp_path).stale
    assert stale.diff is None
    assert "not valid JSON" in stale.reason
    assert golden.update([_decl("t")], tmp_path).written == ("t",)
    assert golden.check([_decl("t")], tmp_path).passed


def test_update_leaves_up_to_date_files_untouched_and_prunes_only_when_asked(tmp_path: Path) -> None:
    golden.update([_decl("kept"), _decl("gone")], tmp_path)
    before = (tmp_path / "kept.json").stat().st_ino
    result = golden.update([_decl("kept")], tmp_path)
    assert result.written == ()
    assert result.unchanged == ("kept",)
    assert result.removed == ()
    assert (tmp_path / "kept.json").stat().st_ino == before
    assert (tmp_path / "gone.json").exists()
    assert golden.update([_decl("kept")], tmp_path, prune=True).removed == ("gone",)
    assert not (tmp_path / "gone.json").exists()


def test_failed_write_keeps_the_old_file_and_leaves_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "t.json"
    target.write_text("old\n", encoding="utf-8")

    def broken_fsync(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", broken_fsync)
    with pytest.raises(GoldenError, match="No space left"):
        golden.write_atomic(target, "new content\n" * 1000)
    assert target.read_text(encoding="utf-8") == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["t.json"]


def test_interrupted_write_is_cleaned_up_and_reraised(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "t.json"
    target.write_text("old\n", encoding="utf-8")

    def interrupted(src: str, dst: str) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        golden.write_atomic(target, "new\n")
    assert target.read_text(encoding="utf-8") == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["t.json"]


def test_a_process_killed_mid_write_leaves_the_old_file_whole(tmp_path: Path) -> None:
    """A hard crash (no cleanup at all) between writing the bytes and the rename: the old file survives."""
    target = tmp_path / "t.json"
    target.write_text(pretty(_decl("t")), encoding="utf-8")
    code = (
        "import os, sys\n"
        "from toolkit import golden\n"
        "os.replace = lambda src, dst: os._exit(9)\n"
        f"golden.write_atomic({str(target)!r}, 'x' * 200000)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], check=False)
    assert done.returncode == 9
    assert target.read_text(encoding="utf-8") == pretty(_decl("t"))
    assert golden.check([_decl("t")], tmp_path).passed  # a leftover temporary is not a golden file


def test_write_atomic_creates_the_folder(tmp_path: Path) -> None:
    golden.write_atomic(tmp_path / "deep" / "er" / "t.json", "{}\n")
    assert (tmp_path / "deep" / "er" / "t.json").read_text(encoding="utf-8") == "{}\n"


def test_a_name_that_is_not_a_file_name_is_refused(tmp_path: Path) -> None:
    with pytest.raises(GoldenError) as caught:
        golden.golden_path(tmp_path, "../escape")
    assert caught.value.slug == "golden_name"


def test_load_reads_every_declaration_and_refuses_bad_json(tmp_path: Path) -> None:
    golden.update([_decl("a"), _decl("b")], tmp_path)
    assert sorted(golden.load(tmp_path)) == ["a", "b"]
    (tmp_path / "c.json").write_text("[", encoding="utf-8")
    with pytest.raises(GoldenError, match=r"c\.json"):
        golden.load(tmp_path)
    with pytest.raises(GoldenError, match="does not exist"):
        golden.load(tmp_path / "nowhere")


def test_declarations_accepts_tools_dicts_mappings_and_nested_collections() -> None:
    single = golden.declarations(_decl("a"))
    nested = golden.declarations([[_decl("a")], _decl("b")])
    mapping = golden.declarations({"a": _decl("a")})
    assert list(single) == ["a"]
    assert sorted(nested) == ["a", "b"]
    assert list(mapping) == ["a"]


def test_report_is_frozen_serialisable_and_displayable(tmp_path: Path) -> None:
    report = golden.check([_decl("a")], tmp_path)
    assert report.missing == ("a",)
    with pytest.raises(AttributeError):
        report.ok = ()  # type: ignore[misc]
    assert json.loads(json.dumps(report.to_dict()))["missing"] == ["a"]
    bundle = report._repr_mimebundle_()
    assert bundle["text/plain"] == report.to_text()
    assert "missing" in bundle["text/html"]


# -- the pytest plugin -------------------------------------------------------------------------------------

_PLUGIN_TEST = """
import pytest

MAXIMUM = {maximum}

def decl(name):
    return {{"name": name, "description": "d", "parameters": {{"type": "OBJECT", "properties": {{
        "limit": {{"type": "INTEGER", "maximum": MAXIMUM}}}}}}}}

def test_declaration(golden):
    golden.check(decl("t"))
    golden.check({{"plain": ["json", 1]}})

@pytest.mark.parametrize("name", ["a", "b"])
def test_each(golden, name):
    golden.check(decl(name), name=f"named_{{name}}")
"""


@pytest.fixture
def pytester(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    """The inner pytest loads only the plugin under test (fast, and no other plugin interferes)."""
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    return pytester


def _plugin_run(pytester: pytest.Pytester, maximum: int, *extra: str) -> pytest.RunResult:
    pytester.makepyfile(test_tools=_PLUGIN_TEST.format(maximum=maximum))
    return pytester.runpytest("-p", "toolkit._golden.pytest_plugin", "-p", "no:cacheprovider", *extra)


def test_plugin_fails_on_missing_files_and_writes_them_with_update_golden(pytester: pytest.Pytester) -> None:
    _plugin_run(pytester, 100).assert_outcomes(failed=3)
    result = _plugin_run(pytester, 100, "--update-golden")
    result.assert_outcomes(passed=3)
    result.stdout.fnmatch_lines(["*golden files written: 4*"])
    folder = pytester.path / "__golden__" / "test_tools"
    assert sorted(p.name for p in folder.iterdir()) == [
        "named_a.json",
        "named_b.json",
        "test_declaration.2.json",
        "test_declaration.json",
    ]
    assert json.loads((folder / "test_declaration.2.json").read_text(encoding="utf-8")) == {"plain": ["json", 1]}
    _plugin_run(pytester, 100).assert_outcomes(passed=3)


def test_plugin_shows_the_classified_diff_and_accepts_it_on_update(pytester: pytest.Pytester) -> None:
    _plugin_run(pytester, 100, "--update-golden").assert_outcomes(passed=3)
    result = _plugin_run(pytester, 10)
    result.assert_outcomes(failed=3, passed=0)
    result.stdout.fnmatch_lines(["*constraint_tightened*maximum of `limit` lowered from 100 to 10*"])
    _plugin_run(pytester, 10, "--update-golden").assert_outcomes(passed=3)
    _plugin_run(pytester, 10).assert_outcomes(passed=3)


def test_plugin_snapshots_a_whole_toolset(pytester: pytest.Pytester, repo_root: Path) -> None:
    spec = repo_root / "specs" / "orders.yaml"
    pytester.makepyfile(
        test_spec=f"import toolkit as tk\n\ndef test_orders(golden):\n"
        f"    golden.check(tk.from_openapi({str(spec)!r}, 'orders'))\n"
    )
    pytester.runpytest("-p", "toolkit._golden.pytest_plugin", "--update-golden").assert_outcomes(passed=1)
    stored = json.loads((pytester.path / "__golden__" / "test_spec" / "test_orders.json").read_text(encoding="utf-8"))
    product = golden.load(repo_root / "golden")
    assert stored == {name: declaration for name, declaration in product.items() if name.startswith("orders_")}


def test_plugin_golden_dir_ini_moves_the_files(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\ngolden_dir = snapshots\n")
    _plugin_run(pytester, 100, "--update-golden").assert_outcomes(passed=3)
    assert (pytester.path / "snapshots" / "test_tools" / "test_declaration.json").is_file()


def test_written_files_are_readable_by_everyone_and_keep_their_mode(tmp_path: Path) -> None:
    golden.write_atomic(tmp_path / "new.json", "{}\n")
    assert (tmp_path / "new.json").stat().st_mode & 0o777 == 0o644
    (tmp_path / "kept.json").write_text("{}\n", encoding="utf-8")
    (tmp_path / "kept.json").chmod(0o664)
    golden.write_atomic(tmp_path / "kept.json", "[]\n")
    assert (tmp_path / "kept.json").stat().st_mode & 0o777 == 0o664
