"""Mutated real specs and hostile dict sources: ``from_openapi`` gives a Toolset or raises a ``ToolkitError``.

The sample draws from the same seeded stream as ``benchmarks/fuzz_openapi.py`` (which runs 10,000+ cases):
every case must return a Toolset whose refusals all carry a known slug other than ``internal_error`` (an
``internal_error`` refusal is a crash caught too late), or raise a :class:`toolkit.ToolkitError`; each case
runs under a generous alarm, so a hang fails too. The other tests pin what each hostile shape gives.

Internals: ``load_document`` and ``MAX_NESTING``, the loader's limit the mutated inputs aim at.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from openapi_mutations import CORPUS, QUICK_SLICED, bases, make_case, run_case

import toolkit as tk
from toolkit._openapi._load import load_document
from toolkit._openapi._plain import MAX_NESTING

CHUNKS = 6
PER_CHUNK = 200
SEED = 20_240_601
ALARM_S = 15.0
"""Far above any case's time (the slowest of 10,000 takes under a second): only a hang reaches it."""


@pytest.fixture(scope="module")
def pool() -> Any:
    found = bases(CORPUS, QUICK_SLICED)
    if not found:
        pytest.skip(f"OpenAPI corpus not found at {CORPUS} (set TOOLKIT_OPENAPI_CORPUS to run the sample)")
    return found


@pytest.mark.slow
@pytest.mark.timeout(600, method="thread")  # a backstop only: each case has its own alarm
@pytest.mark.parametrize("chunk", range(CHUNKS), ids=lambda c: f"cases_{c * PER_CHUNK}_{(c + 1) * PER_CHUNK - 1}")
def test_mutated_specs_give_a_toolset_or_a_toolkit_error(pool: Any, chunk: int, tmp_path: Path) -> None:
    indexes = range(chunk * PER_CHUNK, (chunk + 1) * PER_CHUNK)
    outcomes = [run_case(make_case(SEED, i, pool), tmp_path, alarm_s=ALARM_S) for i in indexes]
    failed = [f"{o.label}: {o.verdict} {o.detail} {o.message[:160]}" for o in outcomes if o.failed]
    assert not failed, "\n".join(failed)
    assert {o.verdict for o in outcomes} >= {"toolset", "spec_error"}  # the sample reaches both ends


# -- dict sources --------------------------------------------------------------------------------------------
def op(**fields: Any) -> dict[str, Any]:
    operation = {"operationId": "getThing", "description": "Get a thing.", **fields}
    return {"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {"/thing": {"get": operation}}}


def query(schema: Any) -> dict[str, Any]:
    return op(parameters=[{"name": "q", "in": "query", "schema": schema}])


def deep(depth: int) -> Any:
    node: Any = {}
    for _ in range(depth):
        node = {"a": node}
    return node


def cyclic() -> dict[str, Any]:
    spec = op()
    spec["paths"]["/thing"]["get"]["x-self"] = spec["paths"]
    return spec


def bomb() -> dict[str, Any]:
    node: Any = ["laugh"] * 10
    for _ in range(30):
        node = [node] * 10
    return {**op(), "x-bomb": node}


REFUSED: dict[str, tuple[Any, str]] = {
    "object_cycle": (cyclic(), "cyclic_document"),
    "nested_10_to_the_5": ({**op(), "x-deep": deep(100_000)}, "too_deep"),
    "nested_past_the_limit": ({**op(), "x-deep": deep(MAX_NESTING)}, "too_deep"),
    "shared_billion_laughs": (bomb(), "too_large"),
    "tuple_key": ({**op(), (1, 2): "x"}, "bad_key"),
    "bytes_key": ({**op(), b"k": "x"}, "bad_key"),
    "int_and_text_key_alike": (op(responses={200: {"description": "a"}, "200": {"description": "b"}}), "bad_key"),
    "huge_int": (query({"type": "integer", "maximum": 10**5000}), "huge_integer"),
    "huge_int_key": ({**op(), 10**5000: "x"}, "bad_key"),
    "bytes_value": (query({"enum": [b"x"]}), "bad_value"),
    "set_value": (query({"enum": {"a", "b"}}), "bad_value"),
    "object_value": ({**op(), "x-thing": object()}, "bad_value"),
}


@pytest.mark.timeout(20)
@pytest.mark.parametrize("name", sorted(REFUSED))
def test_dict_source_that_json_cannot_hold_is_refused_with_a_slug(name: str) -> None:
    source, slug = REFUSED[name]
    with pytest.raises(tk.SpecError) as caught:
        tk.from_openapi(source, "svc", select="all")
    assert caught.value.slug == slug, caught.value.message


def test_refusal_names_where_the_cycle_is() -> None:
    with pytest.raises(tk.SpecError, match="/paths/~1thing/get/x-self"):
        tk.from_openapi(cyclic(), "svc", select="all")


def test_nesting_up_to_the_limit_is_read() -> None:
    assert tk.from_openapi({**op(), "x-deep": deep(MAX_NESTING - 2)}, "svc", select="all").names == ("svc_get_thing",)


def test_shared_sub_trees_are_read_once_and_stay_shared() -> None:
    schema = {"type": "string", "maxLength": 3}
    spec = op(parameters=[{"name": f"p{i}", "in": "query", "schema": schema} for i in range(50)])
    tool = tk.from_openapi(spec, "svc", select="all")["svc_get_thing"]
    assert tool.args_schema["properties"]["p49"] == {"type": "string", "maxLength": 3}


def test_integer_and_mixed_response_keys_read_as_their_json_text() -> None:
    spec = op(responses={200: {"description": "ok"}, "default": {"description": "error"}}, **{"x-flag": {True: 1}})
    doc = load_document(spec)
    operation = doc.root["paths"]["/thing"]["get"]
    assert list(operation["responses"]) == ["200", "default"]
    assert operation["x-flag"] == {"true": 1}
    assert tk.from_openapi(spec, "svc", select="all").names == ("svc_get_thing",)


def test_dates_tuples_and_subclasses_become_plain_json() -> None:
    class Text(str):
        pass

    spec = {
        **query({"enum": (Text("a"), "b"), "default": "a"}),
        "info": {"title": "t", "version": dt.date(2024, 1, 31)},
    }
    doc = load_document(spec)
    assert doc.root["info"]["version"] == "2024-01-31"
    schema = doc.root["paths"]["/thing"]["get"]["parameters"][0]["schema"]
    assert schema["enum"] == ["a", "b"]
    assert all(type(v) is str for v in schema["enum"])


def test_the_callers_dict_is_never_changed() -> None:
    spec = op(responses={200: {"description": "ok"}})
    before = repr(spec)
    tk.from_openapi(spec, "svc", select="all")
    assert repr(spec) == before


def test_a_plain_dict_is_read_as_it_is_and_hashed_as_its_sorted_json() -> None:
    spec = op(responses={"200": {"description": "ok"}})
    doc = load_document(spec)
    assert doc.root is spec
    assert doc.sha256 == hashlib.sha256(json.dumps(spec, sort_keys=True).encode()).hexdigest()


# -- text, paths and the other arguments ---------------------------------------------------------------------
HUGE = "9" * 5000


@pytest.mark.parametrize(
    "text",
    [
        f'{{"openapi": "3.1.0", "paths": {{}}, "x": {HUGE}}}',
        f'{{"openapi": "3.1.0", "paths": {{}}, "x": -{HUGE}}}',
        f"openapi: 3.1.0\npaths: {{}}\nx: {HUGE}\n",
        f"openapi: 3.1.0\npaths: {{}}\nx: 0x{'f' * 5000}\n",
        f"openapi: 3.1.0\npaths: {{}}\nx: !!int {HUGE}\n",
    ],
    ids=["json", "json_negative", "yaml", "yaml_hex", "yaml_tagged"],
)
def test_integer_literal_of_5000_digits_is_refused(text: str) -> None:
    with pytest.raises(tk.SpecError) as caught:
        tk.from_openapi(text, "svc", select="all")
    assert caught.value.slug == "huge_integer"


def test_long_integers_under_the_limit_are_read() -> None:
    doc = load_document('{"openapi": "3.1.0", "paths": {}, "x": ' + "7" * 4000 + "}")
    assert doc.root["x"] == int("7" * 4000)


@pytest.mark.parametrize(
    "extra",
    ["x: !!set {a, b}", "x: !!omap [{a: 1}]", "x: !!pairs [[a, 1]]", "x: !!map 3", "x: !!float abc", "x: !!int abc"],
)
def test_yaml_tags_with_no_json_value_are_parse_errors(extra: str) -> None:
    with pytest.raises(tk.SpecError) as caught:
        tk.from_openapi(f"openapi: 3.1.0\npaths: {{}}\n{extra}\n", "svc", select="all")
    assert caught.value.slug == "parse_error"


def test_text_with_a_lone_surrogate_is_a_parse_error() -> None:
    with pytest.raises(tk.SpecError) as caught:
        tk.from_openapi('{"openapi": "3.1.0", "paths": {}, "x": "\ud800"}', "svc")
    assert caught.value.slug == "parse_error"


@pytest.mark.parametrize("path", ["a" * 300 + ".json", Path("/"), Path("/nonexistent/x.yaml"), "x\x00.yaml"])
def test_path_that_cannot_be_read_is_not_found(path: Any) -> None:
    with pytest.raises(tk.SpecError) as caught:
        tk.from_openapi(path, "svc")
    assert caught.value.slug == "not_found"


class Raising:
    def __repr__(self) -> str:
        raise RuntimeError("repr raised")

    __str__ = __repr__


@pytest.mark.parametrize(
    ("arguments", "error"),
    [
        ({"namespace": Raising()}, tk.NamingError),
        ({"namespace": 10**5000}, tk.NamingError),
        ({"select": {}}, tk.SpecError),
        ({"select": Raising()}, tk.SpecError),
        ({"overrides": {10**5000: True}}, tk.SpecError),
        ({"overrides": {"getThing": {"x": Raising()}}}, tk.SpecError),
        ({"overrides": {"getThing": {"domain": [{"k": Raising()}]}}}, tk.SpecError),
        (
            {
                "overrides": {
                    "getThing": {"domain": [{"field": "x", "schema": {"type": [{}]}, "problem": "p", "expected": "e"}]}
                }
            },
            tk.SchemaError,
        ),
        ({"overrides": Path("/nonexistent/overrides.yaml")}, tk.SpecError),
    ],
    ids=lambda value: type(value).__name__ if not isinstance(value, dict) else "-".join(value),
)
def test_hostile_arguments_raise_typed_errors(arguments: dict[str, Any], error: type[Exception]) -> None:
    call = {"namespace": "svc", "select": "all", **arguments}
    with pytest.raises(error):
        tk.from_openapi(op(), **call)


def _slugs(toolset: tk.Toolset) -> Iterator[str]:
    return (r.slug for r in toolset.rejected)


@pytest.mark.parametrize(
    ("spec", "slug"),
    [
        (query({"type": [{"type": "string"}]}), "unsupported_schema"),
        (query({"type": [["string"]]}), "unsupported_schema"),
        (op(parameters=[{"name": "q", "in": {"x": 1}, "schema": {}}]), "bad_parameter"),
        (op(parameters=[{"name": "q", "in": ["query"], "schema": {}}]), "bad_parameter"),
        ({**query({"$ref": "#/tags/x%20"}), "tags": [{"name": "a"}]}, "unresolved_ref"),
        ({**query({"$ref": "#/tags/①"}), "tags": [{"name": "a"}]}, "unresolved_ref"),
        ({**query({"$ref": "#/tags/" + "9" * 5000}), "tags": [{"name": "a"}]}, "unresolved_ref"),
        ({**query({"$ref": "#anchor"}), "definitions": {"A": "not a schema"}}, "unresolved_ref"),
    ],
    ids=[
        "type_list_of_objects",
        "type_list_of_lists",
        "in_object",
        "in_list",
        "pointer_list_text",
        "pointer_unicode_digit",
        "pointer_huge_index",
        "anchor_in_malformed_document",
    ],
)
def test_malformed_operation_is_refused_with_a_meaningful_slug(spec: dict[str, Any], slug: str) -> None:
    assert list(_slugs(tk.from_openapi(spec, "svc", select="all"))) == [slug]
