"""Trying tools live: ``tk.try_live`` sends the prompt and the tools with the provider's SDK, maps the model's
calls back, and sends the envelopes in the next turn. Only against the loopback server (``base_url``): nothing
in the test suite reaches a real provider. Without the provider's key nothing is sent at all."""

from __future__ import annotations

from typing import Any

import pytest
from wire_support import REPLIES, Recorder, sent_replies

import toolkit as tk
from toolkit import examples

SEARCH = tk.from_function(examples.search_issues, namespace="issues.v1", effect="read")
KEYS = {"gemini": "GEMINI_API_KEY", "openai": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY"}
CASES = [
    ("gemini", "gemini"),
    ("gemini", "gemini_json"),
    ("openai", "openai"),
    ("openai", "openai_responses"),
    ("anthropic", "anthropic"),
]


def _base_url(provider: str, url: str) -> str:
    return f"{url}/v1" if provider == "openai" else url


def _key_header(provider: str, request: Any) -> str:
    if provider == "gemini":
        return str(request.headers["x-goog-api-key"])
    return str(request.headers["authorization"]).removeprefix("Bearer ")


@pytest.mark.parametrize(("provider", "dialect"), CASES)
def test_try_live_returns_the_models_calls_with_their_envelopes(provider: str, dialect: str) -> None:
    name = tk.payloads(SEARCH, dialect).names[SEARCH.name]
    good, bad = {"query": "login timeout", "limit": 5}, {"query": "login", "limit": "ten"}
    if dialect.startswith("openai"):
        good = {**good, "state": None, "labels": None, "updated_since": None}
    script = [
        (200, REPLIES[dialect]([("c1", name, good), ("c2", name, bad)])),
        (200, REPLIES[dialect]([], "Five issues match; the limit must be a number.")),
    ]
    with Recorder(script) as server:
        env = {KEYS[provider]: "key-from-env"}
        run = tk.try_live(
            [SEARCH], "Find login bugs.", provider, dialect=dialect, env=env, base_url=_base_url(provider, server.url)
        )
    assert (run.provider, run.dialect, run.turns) == (provider, dialect, 2)
    assert [(c.turn, c.call.name, c.call.tool) for c in run.calls] == [(1, name, SEARCH), (1, name, SEARCH)]
    assert [c.result["status"] for c in run.calls] == ["ok", "invalid_arguments"]
    assert run.calls[1].result["errors"][0]["field"] == "limit"
    assert run.text == "Five issues match; the limit must be a number."
    assert [_key_header(provider, request) for request in server.requests] == ["key-from-env"] * 2
    assert [reply["envelope"] for reply in sent_replies(dialect, server.requests[1])] == [c.result for c in run.calls]
    shown = run._repr_mimebundle_()["text/plain"]
    assert shown.startswith(f"{provider} ({dialect}, {run.model}): 2 tool calls in 2 turns")


@pytest.mark.parametrize("provider", list(KEYS))
def test_without_a_key_nothing_is_sent_and_the_error_names_the_variable(provider: str) -> None:
    with Recorder([]) as server:
        with pytest.raises(tk.RuntimeConfigError) as caught:
            tk.try_live(SEARCH, "Find login bugs.", provider, env={}, base_url=server.url)
        assert server.requests == []
    assert caught.value.slug == "missing_credential"
    assert KEYS[provider] in caught.value.message
    assert "set " in caught.value.message


def test_the_model_answering_without_calls_ends_the_run_after_one_turn() -> None:
    with Recorder([(200, REPLIES["anthropic"]([], "No tool needed."))]) as server:
        run = tk.try_live(SEARCH, "Hi", "anthropic", env={"ANTHROPIC_API_KEY": "k"}, base_url=server.url, turns=3)
    assert (run.calls, run.text, run.turns, len(server.requests)) == ((), "No tool needed.", 1, 1)


def test_a_provider_error_is_a_typed_error_quoting_it() -> None:
    refusal = {
        "error": {"message": "Invalid schema for function 'issues_v1_search_issues'", "type": "invalid_request_error"}
    }
    with Recorder([(400, refusal)]) as server, pytest.raises(tk.ToolkitError) as caught:
        tk.try_live(SEARCH, "x", "openai", env={"OPENAI_API_KEY": "k"}, base_url=f"{server.url}/v1")
    assert caught.value.slug == "provider_error"
    assert "Invalid schema for function" in caught.value.message


@pytest.mark.parametrize(
    ("provider", "dialect"), [("cohere", None), ("openai", "anthropic")], ids=["unknown-provider", "foreign-dialect"]
)
def test_a_provider_or_dialect_that_does_not_fit_is_a_usage_error(provider: str, dialect: str | None) -> None:
    with pytest.raises(tk.ToolkitError) as caught:
        tk.try_live(SEARCH, "x", provider, dialect=dialect, env={"OPENAI_API_KEY": "k"})
    assert caught.value.slug == "usage"
