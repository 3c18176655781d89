"""The Eval view in the workbench, headless, over the committed cassette of notebook 08 (replayed: no key, no
network): the variants x measures table, and a picked case's calls, envelopes and the model's correction."""

from __future__ import annotations

from eval_support import CASES_FILE, ScriptedModel, issue_scripts

import toolkit as tk
from toolkit import examples
from toolkit.widgets import EvalView, Workbench

CASSETTE = CASES_FILE.parent / "issues.cassette.json"


def test_the_eval_view_shows_the_table_and_each_case_s_calls_and_correction() -> None:
    wb = Workbench()
    golden = wb.add(examples.search_issues, namespace="issues", effect="read")
    edited = tk.from_function(
        examples.search_issues, namespace="issues", effect="read", description="Find issues by free text, newest first."
    )
    view = wb.eval(CASES_FILE, {"golden": [golden.name], "edited": [edited]}, "anthropic", samples=3, replay=CASSETTE)
    assert isinstance(view, EvalView)
    assert view.report.variants == ("golden", "edited")
    assert "<table>" in view.table.value
    assert "Regressions" in view.table.value
    result = view.pick("golden", "ten-login-issues")
    assert result.measure("recovered").passed == 3
    assert view.detail.value.count("<h4>sample") == 3
    assert "first call" in view.detail.value
    assert "after the envelope" in view.detail.value
    assert "wrong_type" in view.detail.value
    assert repr(view) == "Eval on anthropic: 3 cases x 2 variants, 3 regressions, 0 stale; failed"
    view.pick("edited", "thanks")
    assert "No tool is needed" in view.detail.value


def test_two_versions_in_the_paste_box_are_two_variants_of_an_eval() -> None:
    wb = Workbench()
    search = wb.add(examples.search_issues, namespace="issues", effect="read")
    box = wb.editor(search, delay=0)
    assert "Search the issue tracker" in box.text.value
    box.set_text(box.text.value.replace("Search the issue tracker", "Look up records"))
    variants = box.variants()
    assert list(variants) == ["previous", "draft"]
    assert variants["previous"] == (search,)
    assert variants["draft"][0].name == search.name
    with ScriptedModel("anthropic", issue_scripts("anthropic")) as server:
        view = wb.eval(CASES_FILE, variants, "anthropic", env={"ANTHROPIC_API_KEY": "k"}, base_url=server.url)
    found = {(r.case, r.measure, r.variant) for r in view.report.regressions}
    assert ("login-bugs", "selection", "draft") in found
    assert view.report.result("draft", "ten-login-issues").measure("selection").passed == 0
