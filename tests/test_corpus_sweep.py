"""Every operation of every real spec in the corpus: a tool Google's own types accept (with an ``args_schema``
that is valid JSON Schema 2020-12), or a typed refusal.

``select="all"`` on each spec; no exception escapes, nothing hangs (a generous per-spec timeout), no
credential parameter reaches any declaration, and no OpenAPI-only key leaks into one.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

import toolkit as tk
from toolkit._contract import parse_binding
from toolkit._openapi import SLUGS, summarise
from toolkit._openapi._load import load_document

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus" / "openapi"
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


def _credential_parameters(root: Mapping[str, Any]) -> set[tuple[str, str]]:
    schemes = (root.get("components") or {}).get("securitySchemes") or root.get("securityDefinitions") or {}
    found = {("header", "authorization")}
    for scheme in schemes.values():
        if isinstance(scheme, Mapping) and scheme.get("type") == "apiKey":
            found.add((str(scheme.get("in")), str(scheme.get("name")).lower()))
    return found


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
    credentials = _credential_parameters(load_document(corpus_dir / name).root)
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
        for argument, value in tool.binding.items():
            location, original = parse_binding(value)
            assert (location, (original or argument).lower()) not in credentials, (tool.name, value)


def test_corpus_sweep_covers_the_whole_corpus(corpus_dir: Path) -> None:
    assert len(SPECS) >= 26


@pytest.mark.timeout(60)
def test_stripe_bodies_are_refused_only_when_they_carry_fields(corpus_dir: Path) -> None:
    """Stripe gives every operation a form body, empty on reads: those are tools, forms with fields are not."""
    root = load_document(corpus_dir / "stripe.json").root
    toolset = tk.from_openapi(corpus_dir / "stripe.json", "stripe", select="all")
    form_refused = {(r.method, r.path) for r in toolset.rejected if r.slug == "form_body"}
    assert form_refused
    for method, path in form_refused:
        (media,) = root["paths"][path][method.lower()]["requestBody"]["content"].values()
        assert media["schema"].get("properties"), (method, path)
    reads = [tool for tool in toolset if tool.method == "GET"]
    assert reads
    assert all(any(loss.keyword == "requestBody" for loss in tool.contract.source_losses) for tool in reads)
