"""Every operation of every real spec in the corpus: a tool Google's own types accept (with an ``args_schema``
that is valid JSON Schema 2020-12), or a typed refusal.

``select="all"`` on each spec; no exception escapes, nothing hangs (a generous per-spec timeout), no
credential parameter reaches any declaration (by :mod:`credential_oracle`, written apart from the rule), and
no OpenAPI-only key leaks into one. Slack's tools keep their real arguments; Stripe's forms are tools.

Internals: ``load_document``, ``summarise``, ``parse_binding`` and the slug and reason tables, to check every corpus
operation against them.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from credential_oracle import leaked_credentials, scheme_names
from locations import CORPUS

import toolkit as tk
from toolkit._contract import parse_binding
from toolkit._credential_record import REASONS
from toolkit._openapi import SLUGS, summarise
from toolkit._openapi._load import load_document

SPECS = sorted(p.name for p in CORPUS.glob("*") if p.suffix in (".json", ".yaml")) if CORPUS.is_dir() else []

pytestmark = pytest.mark.corpus
DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"


def _keys(node: Any) -> Iterator[str]:
    """Every mapping key in a declaration's ``parameters``, except the names under ``properties``."""
    if isinstance(node, Mapping):
        for key, value in node.items():
            yield key
            if key == "properties" and isinstance(value, Mapping):
                for sub in value.values():
                    yield from _keys(sub)
            else:
                yield from _keys(value)
    elif isinstance(node, list):
        for item in node:
            yield from _keys(item)


def _valid_2020_12(schema: Mapping[str, Any]) -> bool:
    """Check against the 2020-12 meta-schema (jsonschema-rs when installed: 100x faster than jsonschema)."""
    try:
        import jsonschema_rs
    except ImportError:  # pragma: no cover - the slow but equivalent check
        from jsonschema import Draft202012Validator

        return Draft202012Validator(Draft202012Validator.META_SCHEMA).is_valid(schema)
    return bool(jsonschema_rs.meta.is_valid({**schema, "$schema": DRAFT_2020_12}))


@pytest.mark.timeout(60)
@pytest.mark.parametrize("name", SPECS)
def test_every_operation_becomes_a_valid_declaration_or_a_refusal(corpus_dir: Path, name: str) -> None:
    from google.genai import types

    toolset = tk.from_openapi(corpus_dir / name, "corpus", select="all")
    summary = summarise(toolset)
    assert summary["operations"] == summary["tools"] + sum(
        n for slug, n in summary["refusals"].items() if slug not in ("unknown_operation",)
    )
    assert {r.slug for r in toolset.rejected} <= set(SLUGS) - {"internal_error"}, [
        r for r in toolset.rejected if r.slug == "internal_error"
    ][:3]
    schemes = scheme_names(load_document(corpus_dir / name).root)
    for tool in toolset:
        assert _valid_2020_12(tool.args_schema), tool.name
        types.FunctionDeclaration.model_validate(tool.declaration)
        leaked = set(_keys(tool.declaration.get("parameters", {}))) & {
            "example",
            "examples",
            "xml",
            "deprecated",
            "discriminator",
        }
        assert not leaked
        assert not any(k.startswith("x-") for k in _keys(tool.declaration.get("parameters", {})))
        assert leaked_credentials(tool, schemes) == [], tool.name
        wire = {(parse_binding(v)[0], parse_binding(v)[1] or a) for a, v in tool.binding.items()}
        for credential in tool.contract.credentials:
            assert (credential.location, credential.name) not in wire, (tool.name, credential)
            assert credential.reason in REASONS
            assert credential.env.startswith("CORPUS_")
            assert credential.env.replace("_", "").isalnum()


def test_corpus_sweep_covers_the_whole_corpus(corpus_dir: Path) -> None:
    assert len(SPECS) >= 26


@pytest.mark.timeout(60)
def test_stripe_form_bodies_become_tools(corpus_dir: Path) -> None:
    """Stripe gives every operation a form body, empty on reads (left out with a loss), with fields on writes
    (the fields become arguments, encoded as the spec's deepObject encoding says)."""
    root = load_document(corpus_dir / "stripe.json").root
    toolset = tk.from_openapi(corpus_dir / "stripe.json", "stripe", select="all")
    assert {r.slug for r in toolset.rejected} <= {"deprecated", "missing_description", "multipart_body"}
    writes = [tool for tool in toolset if tool.method == "POST" and tool.contract.form is not None]
    assert writes
    for tool in writes:
        (media,) = root["paths"][tool.path]["post"]["requestBody"]["content"].values()
        declared = {name for name, e in media.get("encoding", {}).items() if e.get("style") == "deepObject"}
        assert {name for name, f in (tool.contract.form or {}).items() if f.style == "deepObject"} == declared
        fields = {parse_binding(v)[1] or a for a, v in tool.binding.items() if v.startswith("body.")}
        taken = {c.name for c in tool.contract.credentials if c.location == "body"}
        assert fields | taken == set(media["schema"].get("properties", {})), tool.name
    reads = [tool for tool in toolset if tool.method == "GET"]
    assert reads
    assert all(any(loss.keyword == "requestBody" for loss in tool.contract.source_losses) for tool in reads)


@pytest.mark.timeout(60)
def test_slack_tools_keep_their_real_arguments(corpus_dir: Path) -> None:
    """Slack declares its token as a plain parameter (header, query or form field) of nearly every method: it
    leaves every declaration, and every other parameter stays an argument."""
    root = load_document(corpus_dir / "slack-web-swagger2.json").root
    toolset = tk.from_openapi(corpus_dir / "slack-web-swagger2.json", "slack", select="all")
    assert toolset.rejected == ()
    for tool in toolset:
        declared = root["paths"][tool.path][(tool.method or "").lower()].get("parameters", [])
        secrets = {(c.location, c.name) for c in tool.contract.credentials}
        wire = {(parse_binding(v)[0], parse_binding(v)[1] or a) for a, v in tool.binding.items()}
        for parameter in declared:
            where = "body" if parameter["in"] == "formData" else parameter["in"]
            if parameter["name"] in ("token", "client_secret"):
                assert (where, parameter["name"]) in secrets, (tool.name, parameter["name"])
            else:
                assert (where, parameter["name"]) in wire, (tool.name, parameter["name"])
    post = toolset["chat_postMessage"]
    assert {"channel", "text", "thread_ts"} <= set(post.binding)
    assert post.contract.form is not None
