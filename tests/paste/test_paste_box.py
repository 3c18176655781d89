"""The paste box in the workbench, headless: it rebuilds on every edit, shows mistakes inline, keeps tools."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from test_paste import FRAGMENT, FUNCTION

import toolkit as tk
from toolkit import examples
from toolkit.widgets import PasteBox, Workbench


def _text(view: object) -> str:
    return view._repr_mimebundle_()["text/plain"]  # type: ignore[attr-defined]


def test_an_empty_box_asks_for_a_function_or_a_fragment() -> None:
    box = Workbench().editor()
    assert isinstance(box, PasteBox)
    assert _text(box).splitlines() == [
        "Paste box · Paste (Python): not built — no_tools",
        "problem: nothing pasted yet: paste or type a Python function's source",
    ]
    assert box.keep_button.disabled


def test_typing_a_function_shows_its_declaration_and_the_diff_follows_each_edit() -> None:
    box = Workbench().editor()
    box.set_text(FUNCTION)
    assert "create_ticket" in box.declaration.value
    assert "diff against the first version that built: no changes" in box.diff.value
    assert "19 fired, 19 passed" in box.summary_table.value
    box.set_text(FUNCTION.replace("title: str,", "title: str, team: str,"))
    assert "breaking" in box.diff.value
    assert "required_parameter_added" in box.diff.value
    assert "team" in box.declaration.value
    assert _text(box).splitlines()[-1] == "  breaking required_parameter_added at team"
    assert box.builds == 3
    assert box.latency > 0


def test_the_box_shows_the_diff_since_the_last_edit_beside_the_diff_since_the_first_version() -> None:
    box = Workbench().editor()
    box.set_text(FUNCTION)
    box.set_text(FUNCTION.replace("title: str,", "title: str, team: str,"))
    box.set_text(FUNCTION.replace("title: str,", "title: str, team: str, site: str,"))
    assert sorted(c.path for c in box.draft.diff.changes) == ["site", "team"]
    assert [c.path for c in box.edit_diff.changes] == ["site"], "only the latest edit"
    assert "diff against the last edit: breaking (1 change" in box.edit_diff_pane.value


def test_a_mistake_shows_inline_with_its_line_and_keeps_nothing() -> None:
    box = Workbench().editor()
    box.set_text(FUNCTION.replace("def create_ticket(title: str,", "def create_ticket(title: str"))
    assert box.draft.problem is not None
    line = box.draft.problem.line
    assert line == FUNCTION.splitlines().index(next(x for x in FUNCTION.splitlines() if x.startswith("def "))) + 1
    assert f"line {line}" in box.problem.value
    assert "Traceback" not in box.problem.value
    assert box.declaration.value == ""
    assert box.keep_button.disabled
    assert box.keep() == ()


def test_the_kind_is_detected_or_chosen() -> None:
    box = Workbench().editor()
    box.set_text(FRAGMENT)
    assert box.draft.kind == "openapi"
    assert [t.name for t in box.draft.tools] == ["api_get_pet"]
    box.kind.value = "python"
    assert box.draft.kind == "python"
    assert box.draft.problem is not None
    assert box.draft.problem.slug == "target_syntax_error"


def test_a_fragment_that_opts_nothing_in_can_take_all_operations() -> None:
    box = Workbench().editor()
    box.set_text(FRAGMENT.replace("x-agent-tool: true", "tags: [pets]"))
    assert box.draft.problem is not None
    box.all_operations.value = True
    assert [t.name for t in box.draft.tools] == ["api_get_pet"]


def test_several_tools_get_a_picker() -> None:
    box = Workbench().editor()
    second = FUNCTION.replace("def create_ticket", "def open_ticket").split("class Priority")[1]
    box.set_text(FUNCTION + "\n\nclass Priority" + second)
    assert list(box.picker.options) == ["create_ticket", "open_ticket"]
    box.picker.value = "open_ticket"
    assert "open_ticket" in box.declaration.value


def test_starting_from_a_tool_compares_with_it_and_keep_writes_the_golden_file(tmp_path: Path) -> None:
    wb = Workbench(golden_dir=tmp_path)
    search = wb.add(examples.search_issues, namespace="issues", effect="read")
    box = wb.editor(search)
    assert box.text.value.startswith("def search_issues(")
    assert box.draft.diff is not None
    assert box.draft.diff.verdict == "none"
    box.set_text(box.text.value.replace("le=100", "le=50"))
    assert [c.rule for c in box.draft.diff.changes] == ["constraint_tightened"]
    kept = box.keep(write_golden=True)
    assert [t.name for t in kept] == ["issues_search_issues"]
    assert wb.tools["issues_search_issues"] is kept[0]
    golden = json.loads((tmp_path / "issues_search_issues.json").read_text())
    assert golden["parameters"]["properties"]["limit"]["maximum"] == 50
    assert box.draft.diff.verdict == "none", "the kept version is the new previous version"
    assert _text(box).endswith("kept: issues_search_issues")


def test_keeping_a_fragment_adds_its_toolset_and_it_can_be_edited_again() -> None:
    wb = Workbench()
    box = wb.editor()
    box.set_text(FRAGMENT)
    box.keep()
    assert "api_get_pet" in wb.tools
    again = wb.editor(wb.tools["api_get_pet"])
    assert again.draft.kind == "openapi"
    assert [t.declaration for t in again.draft.tools] == [wb.tools["api_get_pet"].declaration]


def test_an_openapi_tool_from_the_workbench_starts_from_its_fragment(repo_root: Path) -> None:
    wb = Workbench()
    orders = wb.add_openapi(str(repo_root / "specs" / "orders.yaml"), namespace="orders")
    box = wb.editor(orders["orders_get"])
    assert "/orders/{orderId}:" in box.text.value
    assert box.draft.diff is not None
    assert box.draft.diff.verdict == "none"


def test_edits_are_debounced_in_a_running_loop() -> None:
    async def type_three_keys() -> tuple[int, int]:
        box = Workbench().editor(delay=0.05)
        before = box.builds
        for text in ("def f(", "def f(x: int", FUNCTION):
            box.text.value = text
        waiting = box.builds - before
        await asyncio.sleep(0.2)
        return waiting, box.builds - before

    waiting, built = asyncio.run(type_three_keys())
    assert (waiting, built) == (0, 1)


def test_editing_something_without_source_says_why() -> None:
    with pytest.raises(tk.TargetError) as caught:
        Workbench().editor(len)
    assert caught.value.slug == "target_not_found"
