"""The lints of a document's tools are shared where their schemas are (one memo per ``from_openapi`` build):
each tool's lints must be exactly those of the tool linted alone, in the same order, with every finding's path
and words naming the place it is at, wherever the shared schema is reached from.

Internals: ``_lints.lint`` lints a built tool alone (no memo), the oracle the shared build is held to; the
catalogue, ``PROMISE_RULES``, ``Subject`` and ``walk``, to hold the claim the sharing rests on (the promise rules
read only the fields whose words promise something).
"""

from __future__ import annotations

from typing import Any

import pytest
from locations import CORPUS

import toolkit as tk
from toolkit._lints import CATALOGUE, PROMISE_RULES, Subject, lint
from toolkit._lints._subject import walk
from toolkit._schema import Refs

_SPEC = "slack-web-swagger2"

_ADDRESS = {
    "type": "object",
    "description": "Where the parcel goes, as printed on the label.",
    "properties": {
        "line": {"type": "string"},
        "shipped_at": {"type": "string", "description": "When it left the depot, as an ISO date."},
        "note": {"type": "string", "description": "At most 80 characters of free text for the courier."},
        "tags": {"type": "array", "items": {"type": "string"}, "description": "Up to 5 tags shown on the label."},
    },
}


def _document() -> dict[str, Any]:
    """Two operations that reach one shared schema under different parameter names and depths, one through a
    union whose members share a field name."""
    ref = {"$ref": "#/components/schemas/Address"}
    body = {
        "type": "object",
        "properties": {
            "to": ref,
            "parcel": {"type": "object", "description": "The parcel, with its return address.", "properties": {
                "back": ref,
                "kind": {"anyOf": [_kind("small"), _kind("large")], "description": "How big the parcel is, roughly."},
            }},
        },
    }  # fmt: skip
    return {
        "openapi": "3.1.0",
        "info": {"title": "post", "version": "1"},
        "components": {"schemas": {"Address": _ADDRESS}},
        "paths": {
            "/send": {"post": _operation("send", body)},
            "/return": {"post": _operation("give_back", {"type": "object", "properties": {"from": ref}})},
        },
    }


def _kind(size: str) -> dict[str, Any]:
    return {"type": "object", "properties": {"size": {"type": "string", "enum": [size.upper(), size]}}}


def _operation(name: str, body: dict[str, Any]) -> dict[str, Any]:
    return {
        "operationId": name,
        "description": f"{name} a parcel to an address",
        "requestBody": {"content": {"application/json": {"schema": body}}},
        "responses": {"200": {"description": "ok"}},
    }


def test_shared_schemas_are_linted_as_each_tool_alone_at_their_own_paths() -> None:
    toolset = tk.from_openapi(_document(), "post", select="all")
    by_path: dict[str, set[str]] = {}
    for tool in toolset.tools:
        assert tool.lints == lint(tool), tool.name
        for item in tool.lints:
            if "." in item.path:
                assert repr(item.path) in item.message, item
            by_path.setdefault(item.code, set()).add(item.path)
    # the shared address is judged once but reported at each place it is reached
    assert {"to.line", "parcel.back.line", "from.line"} <= by_path["TK102"]
    assert {"to.shipped_at", "parcel.back.shipped_at", "from.shipped_at"} <= by_path["TK401"]


@pytest.mark.skipif(not (CORPUS / f"{_SPEC}.json").exists(), reason="the shared corpus (../shared) is absent")
def test_the_promise_rules_read_only_fields_that_promise_something() -> None:
    # The shared lint skips PROMISE_RULES on fields whose description promises nothing; that is only true while
    # each of them reads Subject.promising alone. With no field promising, none of them may find anything on
    # real tools (a rule that reads every field fails here: it finds what the words rules would not).
    toolset = tk.from_openapi(CORPUS / f"{_SPEC}.json", "t", select="all")
    promise_rules = [rule for rule in CATALOGUE if rule.code in PROMISE_RULES]
    assert len(promise_rules) == len(PROMISE_RULES)
    found_any = False
    for tool in toolset.tools:
        schema = tool.contract.args_schema
        refs = Refs(schema)
        subject = Subject(tool.name, tool.description, schema, tuple(walk(refs, schema, "", 1)), refs)
        promising = {field.path for field in subject.promising}
        for rule in promise_rules:
            paths = [path for path, *_ in rule.check(subject)]
            assert set(paths) <= promising, (tool.name, rule.code)
            found_any = found_any or bool(paths)
        subject.promising = ()
        assert [rule.code for rule in promise_rules if list(rule.check(subject))] == [], tool.name
    assert found_any  # the spec's words promise what its schemas do not hold somewhere: the rules ran
