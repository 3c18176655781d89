"""Building tools leaves no cyclic garbage: everything a build allocates and drops is freed by reference
counting, at once, not kept alive (with the whole parsed document) until the cyclic collector runs.

A raised exception that stays reachable from its own traceback's frames ties every frame of the stack, and
all their locals, into one cycle: the document, the resolver and the memos of ``from_openapi``. That happens
when a local exception is raised (``raise refusal``) or a caught one is kept in a memo; memos keep and raise
:meth:`Refusal.again <toolkit._openapi._refusal.Refusal.again>` copies instead. The collector's own count of
what it had to free is the oracle.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from locations import CORPUS

import toolkit as tk

LARGE = ["stripe.json", "github-3.0.json", "openai-3.1.json", "asana.yaml", "kubernetes-swagger2.json"]


@contextmanager
def collector_off() -> Iterator[list[int]]:
    """Run the body with the cyclic collector off; yield a list that gets how many objects it then frees."""
    gc.collect()
    gc.disable()
    freed: list[int] = []
    try:
        yield freed
    finally:
        freed.append(gc.collect())
        gc.enable()


def _spec() -> dict[str, Any]:
    """Operations of each fate: built, refused for the media type of its body, refused for a duplicate id."""
    return {
        "openapi": "3.0.3",
        "info": {"title": "t", "version": "1"},
        "paths": {
            "/a": {
                "post": {
                    "operationId": "upload",
                    "description": "Upload a file.",
                    "requestBody": {"content": {"multipart/form-data": {"schema": {"type": "object"}}}},
                    "responses": {"200": {"description": "ok"}},
                },
                "get": {
                    "operationId": "read",
                    "description": "Read the thing.",
                    "parameters": [{"name": "id", "in": "query", "schema": {"$ref": "#/components/schemas/Id"}}],
                    "responses": {"200": {"description": "ok"}},
                },
            },
            "/b": {"get": {"operationId": "read", "description": "Read again.", "responses": {}}},
        },
        "components": {"schemas": {"Id": {"type": "string", "description": "The thing's id."}}},
    }


def test_a_toolset_with_refusals_leaves_no_cycles() -> None:
    with collector_off() as freed:
        toolset = tk.from_openapi(_spec(), "t", select="all")
    assert {r.slug for r in toolset.rejected} == {"multipart_body", "duplicate_operation_id"}
    assert freed == [0]


_LEFT_RECURSIVE = {"anyOf": [{"$ref": "#/components/schemas/L"}]}


@pytest.mark.parametrize(
    ("operation", "slug"),
    [
        (  # refused while a parameter is prepared, and kept in that memo
            {"parameters": [{"name": "x", "in": "query", "schema": {"$ref": "#/components/schemas/Missing"}}]},
            "unresolved_ref",
        ),
        (  # refused while the $defs closure is checked, and kept in that memo
            {"requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/L"}}}}},
            "left_recursive_ref",
        ),
    ],
)
def test_a_refusal_kept_in_a_memo_leaves_no_cycles(operation: dict[str, Any], slug: str) -> None:
    spec = {
        "openapi": "3.0.3",
        "info": {"title": "t", "version": "1"},
        "paths": {"/a": {"get": {**operation, "operationId": "a", "description": "Read a.", "responses": {}}}},
        "components": {"schemas": {"L": _LEFT_RECURSIVE}},
    }
    with collector_off() as freed:
        toolset = tk.from_openapi(spec, "t", select="all")
    assert [r.slug for r in toolset.rejected] == [slug]
    assert freed == [0]


def test_a_yaml_document_leaves_no_cycles() -> None:
    text = "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    get:\n      operationId: a\n"
    text += "      description: Read a.\n      responses: {'200': {description: ok}}\n"
    with collector_off() as freed:
        toolset = tk.from_openapi(text, "t", select="all")
    assert len(toolset.tools) == 1
    assert freed == [0]


@pytest.mark.parametrize("name", LARGE)
def test_corpus_builds_leave_no_cycles(name: str) -> None:
    path = CORPUS / name
    if not path.exists():
        pytest.skip("the shared corpus (../shared) is absent")
    with collector_off() as freed:
        toolset = tk.from_openapi(path, "c", select="all")
    assert toolset.tools
    assert freed == [0]
