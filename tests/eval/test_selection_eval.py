"""The selection eval, through each provider's real SDK against a scripted model on loopback
(``eval_support.ScriptedModel`` states how the script decides): selection, irrelevance, an invalid first call
corrected after the envelope, regressions between two declaration sets, record -> replay equality with no
key and no network, and a stale case after a declaration edit."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from eval_support import CASES_FILE, ScriptedModel, forced, issue_scripts

import toolkit as tk
from toolkit import examples

PLANTED = "sk-planted-key-7f3a91c2"
KEYS = {"gemini": "GEMINI_API_KEY", "openai": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY"}
DIALECTS = [
    ("gemini", "gemini"),
    ("gemini", "gemini_json"),
    ("openai", "openai"),
    ("openai", "openai_responses"),
    ("anthropic", "anthropic"),
]
CASES = tk.load_cases(CASES_FILE)
BEFORE = tk.from_function(examples.search_issues, namespace="issues", effect="read")
AFTER = tk.from_function(
    examples.search_issues, namespace="issues", effect="read", description="Look things up by free text."
)


def _url(provider: str, url: str) -> str:
    return f"{url}/v1" if provider == "openai" else url


def _run(provider: str, dialect: str, server: ScriptedModel, **options: Any) -> tk.EvalReport:
    return tk.evaluate(
        CASES,
        {"before": [BEFORE], "after": [AFTER]},
        provider,
        dialect=dialect,
        env={KEYS[provider]: PLANTED},
        base_url=_url(provider, server.url),
        **options,
    )


def _rates(report: tk.EvalReport, variant: str) -> dict[str, tuple[str, str, str]]:
    return {
        result.case: tuple(str(result.measure(name))[:3] for name in ("selection", "valid_first", "recovered"))
        for result in report.for_variant(variant)
    }


@pytest.mark.parametrize(("provider", "dialect"), DIALECTS)
def test_three_measures_side_by_side_and_the_regressions_case_by_case(provider: str, dialect: str) -> None:
    with ScriptedModel(dialect, issue_scripts(dialect)) as server:
        report = _run(provider, dialect, server)
    assert _rates(report, "before") == {
        "login-bugs": ("1/1", "1/1", "-"),
        "ten-login-issues": ("1/1", "0/1", "1/1"),
        "thanks": ("1/1", "-", "-"),
    }
    # the edited description no longer says what the tool searches: the model picks nothing
    assert _rates(report, "after") == {
        "login-bugs": ("0/1", "0/1", "-"),
        "ten-login-issues": ("0/1", "0/1", "-"),
        "thanks": ("1/1", "-", "-"),
    }
    assert sorted((r.case, r.measure) for r in report.regressions) == [
        ("login-bugs", "selection"),
        ("login-bugs", "valid_first"),
        ("ten-login-issues", "selection"),
    ]
    assert report.failed
    with pytest.raises(tk.EvalError) as caught:
        report.check()
    assert caught.value.slug == "eval_regression"
    corrected = report.result("before", "ten-login-issues").samples[0]
    assert corrected.first is not None
    assert corrected.first["envelope"]["errors"][0]["field"] == "limit"
    assert corrected.second is not None
    sent = corrected.second["arguments"]  # as the model sent them: a JSON string in the OpenAI dialects
    assert (json.loads(sent) if isinstance(sent, str) else sent)["limit"] == 10
    assert all(request.json is not None for request in server.requests)
    # one request per sample, one more for the correction: 3 + 1 (before), 3 (after)
    assert len(server.requests) == 7
    text = report._repr_mimebundle_()["text/plain"]
    assert "regressions:" in text
    assert "login-bugs: selection 1/1" in text


def test_samples_repeat_each_case_and_the_interval_narrows() -> None:
    with ScriptedModel("anthropic", issue_scripts("anthropic")) as server:
        one = _run("anthropic", "anthropic", server, samples=1)
        four = _run("anthropic", "anthropic", server, samples=4)
    low1, _ = one.result("before", "login-bugs").measure("selection").interval
    low4, _ = four.result("before", "login-bugs").measure("selection").interval
    assert four.result("before", "login-bugs").measure("selection").total == 4
    assert low4 > low1 > 0


@pytest.mark.parametrize(("provider", "dialect"), DIALECTS)
def test_a_recorded_run_replays_identically_with_no_key_and_no_network(
    provider: str, dialect: str, tmp_path: Path
) -> None:
    cassette = tmp_path / "eval.cassette.json"
    with ScriptedModel(dialect, issue_scripts(dialect)) as server:
        recorded = _run(provider, dialect, server, samples=2, record=cassette)
        sent = len(server.requests)
    replayed = tk.evaluate(
        CASES,
        {"before": [BEFORE], "after": [AFTER]},
        provider,
        dialect=dialect,
        env={},
        samples=2,
        replay=cassette,
    )
    assert replayed.to_dict() == recorded.to_dict()
    stored = cassette.read_text()
    assert len(json.loads(stored)["exchanges"]) == sent
    for channel in (stored, json.dumps(recorded.to_dict()), recorded._repr_mimebundle_()["text/plain"]):
        assert PLANTED not in channel


def test_a_declaration_edit_makes_the_replay_stale_and_the_check_fail(tmp_path: Path) -> None:
    cassette = tmp_path / "eval.cassette.json"
    with ScriptedModel("openai", issue_scripts("openai")) as server:
        tk.evaluate(CASES, {"golden": [BEFORE]}, "openai", env={KEYS["openai"]: PLANTED},
                    base_url=_url("openai", server.url), record=cassette)  # fmt: skip
    same = tk.evaluate(CASES, {"golden": [BEFORE]}, "openai", env={}, replay=cassette)
    assert not same.failed
    assert not same.stale
    edited = tk.evaluate(CASES, {"golden": [AFTER]}, "openai", env={}, replay=cassette)
    assert edited.failed
    assert [result.case for result in edited.stale] == ["login-bugs", "ten-login-issues", "thanks"]
    assert edited.result("golden", "thanks").samples[0].outcome == "stale"
    assert "re-record needed" in edited._repr_mimebundle_()["text/plain"]
    with pytest.raises(tk.EvalError) as caught:
        edited.check()
    assert caught.value.slug == "stale_cassette"
    assert "login-bugs (golden)" in caught.value.message
    assert same.check() is same
    more = tk.evaluate(CASES, {"golden": [BEFORE]}, "openai", env={}, replay=cassette, samples=2)
    assert more.failed  # the cassette holds one sample of each request: a second one is stale too


def test_golden_bodies_are_what_the_model_sees_in_a_variant() -> None:
    golden = {BEFORE.name: {**BEFORE.payload("anthropic").body, "description": "Look things up by free text."}}
    with ScriptedModel("anthropic", issue_scripts("anthropic")) as server:
        report = tk.evaluate(
            CASES,
            [tk.Variant("golden", (BEFORE,), golden), tk.Variant("working", (BEFORE,))],
            "anthropic",
            env={KEYS["anthropic"]: PLANTED},
            base_url=server.url,
        )
    assert report.result("golden", "login-bugs").measure("selection").passed == 0
    assert report.result("working", "login-bugs").measure("selection").passed == 1
    assert not report.regressions or all(r.variant == "working" for r in report.regressions)
    assert server.requests[0].json["tools"][0]["description"] == "Look things up by free text."


@pytest.mark.parametrize(("provider", "dialect"), DIALECTS)
def test_forced_choice_sends_the_providers_tool_choice_and_measures_only_the_arguments(
    provider: str, dialect: str
) -> None:
    with ScriptedModel(dialect, issue_scripts(dialect)) as server:
        report = _run(provider, dialect, server, forced=True)
    # the edited description no longer draws the model, but the forced choice calls the tool all the same
    assert _rates(report, "after") == _rates(report, "before")
    assert _rates(report, "after")["login-bugs"] == ("1/1", "1/1", "-")
    assert _rates(report, "after")["thanks"] == ("1/1", "-", "-")  # nothing to force: still irrelevance
    sent = {forced(dialect, request.json) for request in server.requests}
    assert sent == {report_name(dialect), None}
    assert report.regressions == ()


def report_name(dialect: str) -> str:
    return tk.payloads(BEFORE, dialect).names[BEFORE.name]


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("cases: []", "non-empty `cases:` list"),
        ("cases: [{id: a, message: hi}]", "`expect` is the tool's name"),
        ("cases: [{id: a, message: hi, expect: none, args: {x: 1}}]", "cannot expect arguments"),
        ("cases: [{id: a, message: hi, expect: t, args: {x: {between: [1, 2]}}}]", "{one_of: [...]}"),
        ("cases: [{id: a, message: hi, expect: t}, {id: a, message: yo, expect: t}]", "ids must be unique"),
        ("cases: [{id: a, message: hi, expect: t, history: [{role: system, content: x}]}]", "role: user|assistant"),
        ("cases: [{id: a, message: hi, expect: t, tool: x}]", "unknown field"),
        ("cases: [{id: a, message: hi, expect: none, force: true}]", "only a case that expects a tool"),
        ("cases: [a: b: c", "not YAML or JSON"),
    ],
)
def test_a_malformed_cases_file_is_a_typed_error_naming_the_problem(text: str, where: str, tmp_path: Path) -> None:
    path = tmp_path / "cases.yaml"
    path.write_text(text)
    with pytest.raises(tk.EvalError) as caught:
        tk.load_cases(path)
    assert caught.value.slug == "bad_eval_case"
    assert where in caught.value.message


def test_a_cassette_that_is_not_one_is_a_typed_error(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text('{"exchanges": []}')
    with pytest.raises(tk.EvalError) as caught:
        tk.evaluate(CASES, {"a": [BEFORE]}, replay=path)
    assert caught.value.slug == "bad_cassette"
