"""The one ``$ref`` reader and the schema-type helpers (``toolkit._schema``), against ``referencing`` as the oracle.

``referencing`` (the reference resolver of the ``jsonschema`` project) is an independent implementation of
JSON pointers in URI fragments (RFC 6901 over RFC 3986); wherever it finds a target, the reader must find the
same node. Where the two differ on purpose, a test says so: a ``%`` not followed by two hex digits and a
``~`` not followed by ``0`` or ``1`` are malformed here (``bad_ref``; to ``referencing`` the first is a
literal ``%`` and the second points nowhere), and the whole fragment is percent-decoded before it is read as
a pointer (RFC 6901, section 6), so a leading ``%2F`` is a slash.

Internals: ``toolkit._schema`` (``Refs``, ``follow``, ``schema_types``...), the ``$ref`` reader under test.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from toolkit import SchemaError
from toolkit._schema import REF_SLUGS, Refs, check_references, defs_name, follow, main_type, schema_types, tokens

URI = "urn:test:document"


def oracle(document: Any, ref: str) -> Any:
    registry: Registry[Any] = Registry().with_resource(URI, DRAFT202012.create_resource(document))
    return registry.resolver(base_uri=URI).lookup(ref).contents


def slug_of(document: Any, ref: Any) -> str:
    with pytest.raises(SchemaError) as caught:
        Refs(document).lookup(ref)
    assert caught.value.slug in REF_SLUGS
    return caught.value.slug


DOCUMENT: dict[str, Any] = {
    "$defs": {
        "my thing": {"const": "space"},
        "a/b": {"const": "slash"},
        "a~b": {"const": "tilde"},
        "~1": {"const": "escaped tilde one"},
        "100%": {"const": "percent"},
        "é": {"const": "accent"},
        "": {"const": "empty key"},
    },
    "values": [{"const": 0}, {"const": 1}],
    "properties": {"a": {"items": {"const": "deep"}}},
}


# -- what references mean -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "ref",
    [
        "#",
        "#/$defs/my%20thing",
        "#/$defs/my thing",
        "#/$defs/a~1b",
        "#/$defs/a~0b",
        "#/$defs/~01",
        "#/$defs/a%7E1b",
        "#/$defs/100%25",
        "#/$defs/%C3%A9",
        "#/$defs/",
        "#/$defs%2Fmy%20thing",
        "#/values/1",
        "#/properties/a/items",
    ],
)
def test_a_local_reference_finds_what_the_oracle_finds(ref: str) -> None:
    found = Refs(DOCUMENT).lookup(ref)
    assert found is oracle(DOCUMENT, ref)


_KEYS = st.text(alphabet=st.sampled_from(list("ab~/% é01")), min_size=0, max_size=6)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(keys=st.lists(_KEYS, min_size=1, max_size=3), safe=st.sampled_from(["/", "/~", "/~ "]))
def test_any_key_written_as_a_pointer_fragment_is_read_like_the_oracle_reads_it(keys: list[str], safe: str) -> None:
    document: Any = {"leaf": True}
    for key in reversed(keys):
        document = {key: document}
    pointer = "".join("/" + key.replace("~", "~0").replace("/", "~1") for key in keys)
    ref = "#" + quote(pointer, safe=safe)
    assert Refs(document).lookup(ref) is oracle(document, ref)
    assert tokens(ref) == tuple(keys)


def test_the_whole_fragment_is_percent_decoded_before_it_is_read_as_a_pointer() -> None:
    """RFC 6901 section 6: a leading ``%2F`` is a slash too (``referencing`` reads it as an anchor name)."""
    assert Refs(DOCUMENT).lookup("#%2F$defs%2Fmy%20thing") is DOCUMENT["$defs"]["my thing"]


def test_the_target_pointer_is_percent_decoded_and_still_escaped() -> None:
    assert Refs(DOCUMENT).locate("#/$defs/my%20thing")[0] == "/$defs/my thing"
    assert Refs(DOCUMENT).locate("#/$defs/a~1b")[0] == "/$defs/a~1b"
    assert Refs(DOCUMENT).locate("#")[0] == ""


# -- how references fail ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("ref", "slug"),
    [
        pytest.param("#/$defs/a~2b", "bad_ref", id="tilde-not-0-or-1"),
        pytest.param("#/$defs/a~", "bad_ref", id="tilde-at-the-end"),
        pytest.param("#/$defs/%zz", "bad_ref", id="percent-not-hex"),
        pytest.param("#/$defs/100%", "bad_ref", id="percent-at-the-end"),
        pytest.param("#/$defs/%C3", "bad_ref", id="percent-escapes-not-utf8"),
        pytest.param("#a b", "bad_ref", id="neither-pointer-nor-anchor"),
        pytest.param("", "bad_ref", id="empty"),
        pytest.param(7, "bad_ref", id="not-a-string"),
        pytest.param(["#"], "bad_ref", id="a-list"),
        pytest.param("https://example.com/schema.json", "remote_ref", id="url"),
        pytest.param("other.json#/$defs/A", "remote_ref", id="relative-file"),
        pytest.param("urn:example:thing", "remote_ref", id="urn"),
        pytest.param("#/$defs/missing", "unresolved_ref", id="missing-key"),
        pytest.param("#/values/2", "unresolved_ref", id="index-past-the-end"),
        pytest.param("#/values/01", "unresolved_ref", id="index-with-leading-zero"),
        pytest.param("#/values/-", "unresolved_ref", id="index-past-the-end-dash"),
        pytest.param("#/values/²", "unresolved_ref", id="index-unicode-digit"),
        pytest.param("#/$defs/my thing/const/x", "unresolved_ref", id="into-a-string"),
        pytest.param("#node", "unresolved_ref", id="plain-name-anchor-not-declared"),
    ],
)
def test_a_bad_reference_fails_with_its_slug(ref: Any, slug: str) -> None:
    assert slug_of(DOCUMENT, ref) == slug


ANCHORED: dict[str, Any] = {
    "$defs": {
        "A": {"$anchor": "node", "type": "string"},
        "D": {"$dynamicAnchor": "dyn", "type": "integer"},
        "V": {"const": {"$anchor": "value"}, "enum": [{"$anchor": "value"}]},
        "R": {"$id": "https://example.com/other", "$defs": {"inner": {"$anchor": "inner"}}},
    },
    "properties": {"deep": {"items": {"anyOf": [{"$anchor": "deep"}]}}},
}


@pytest.mark.parametrize("ref", ["#node", "#dyn", "#deep"])
def test_a_plain_name_anchor_finds_what_the_oracle_finds(ref: str) -> None:
    assert Refs(ANCHORED).lookup(ref) is oracle(ANCHORED, ref)


@pytest.mark.parametrize(
    "ref", [pytest.param("#value", id="inside-a-value"), pytest.param("#inner", id="inside-another-resource")]
)
def test_an_anchor_outside_the_resource_schemas_is_not_found(ref: str) -> None:
    with pytest.raises(SchemaError) as caught:
        Refs(ANCHORED).lookup(ref, "/properties/x")
    assert caught.value.slug == "unresolved_ref"
    assert "/properties/x" in caught.value.message
    assert "'#/$defs/Name'" in caught.value.message


def test_an_anchor_declared_twice_is_a_bad_reference() -> None:
    document = {"$defs": {"A": {"$anchor": "x"}, "B": {"$dynamicAnchor": "x"}}}
    with pytest.raises(SchemaError) as caught:
        Refs(document).lookup("#x")
    assert caught.value.slug == "bad_ref"
    assert "declared twice" in caught.value.message


def test_tokens_of_an_anchor_name_no_place() -> None:
    with pytest.raises(SchemaError) as caught:
        tokens("#node")
    assert caught.value.slug == "unresolved_ref"


def test_the_message_names_how_far_the_pointer_got() -> None:
    with pytest.raises(SchemaError, match="/\\$defs has no 'missing'"):
        Refs(DOCUMENT).lookup("#/$defs/missing")


# -- following chains ---------------------------------------------------------------------------------------
def test_follow_lays_each_references_siblings_over_its_target_outermost_first() -> None:
    document = {"$defs": {"A": {"$ref": "#/$defs/B", "description": "A"}, "B": {"type": "string", "title": "B"}}}
    node = {"$ref": "#/$defs/A", "title": "outer"}
    assert follow(node, Refs(document)) == {"type": "string", "title": "outer", "description": "A"}
    assert follow(node, Refs(document), merge=False) is document["$defs"]["B"]


def test_follow_returns_the_target_itself_when_nothing_is_beside_the_reference() -> None:
    document = {"$defs": {"A": {"type": "string"}}}
    assert follow({"$ref": "#/$defs/A"}, Refs(document)) is document["$defs"]["A"]


def test_a_reference_chain_back_to_itself_is_left_recursive() -> None:
    document = {"$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}}}
    with pytest.raises(SchemaError) as caught:
        follow({"$ref": "#/$defs/A"}, Refs(document))
    assert caught.value.slug == "left_recursive_ref"
    assert "#/$defs/A -> #/$defs/B" in caught.value.message


# -- reading every reference --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "where",
    [
        *("properties", "additionalProperties", "items", "prefixItems", "contains", "not", "then", "allOf", "$ref"),
        *("$dynamicRef", "dependentSchemas", "propertyNames", "unevaluatedProperties", "unevaluatedItems"),
    ],
)
def test_check_references_reads_each_place_the_validator_reads(where: str) -> None:
    bad = {"$ref": "#/$defs/missing"}
    holder: dict[str, Any] = {
        "properties": {"properties": {"x": bad}},
        "additionalProperties": {"additionalProperties": bad},
        "items": {"items": bad},
        "prefixItems": {"prefixItems": [bad]},
        "contains": {"contains": bad},
        "not": {"not": bad},
        "then": {"if": True, "then": bad},
        "allOf": {"allOf": [bad]},
        "$ref": {"$ref": "#/$defs/missing"},
        "$dynamicRef": {"$dynamicRef": "#missing"},
        "dependentSchemas": {"dependentSchemas": {"x": bad}},
        "propertyNames": {"propertyNames": bad},
        "unevaluatedProperties": {"unevaluatedProperties": bad},
        "unevaluatedItems": {"unevaluatedItems": bad},
    }[where]
    with pytest.raises(SchemaError) as caught:
        check_references(holder, Refs(holder))
    assert caught.value.slug == "unresolved_ref"


def test_check_references_leaves_unused_definitions_and_annotations_alone() -> None:
    schema = {"properties": {"x": {"type": "string"}}, "$defs": {"unused": {"$ref": "#/nowhere"}}}
    check_references(schema, Refs(schema))
    schema = {"if": {"$ref": "#/nowhere"}, "examples": [{"$ref": "#/nowhere"}]}
    check_references(schema, Refs(schema))


def test_recursion_through_properties_is_not_left_recursion() -> None:
    schema = {"$ref": "#/$defs/N", "$defs": {"N": {"properties": {"next": {"anyOf": [{"$ref": "#/$defs/N"}]}}}}}
    check_references(schema, Refs(schema))


# -- the JSON type of a schema node -------------------------------------------------------------------------
TYPED = {"$defs": {"S": {"type": "string"}, "N": {"type": "number"}, "Null": {"type": "null"}}}


@pytest.mark.parametrize(
    ("node", "types"),
    [
        pytest.param({"type": "string"}, {"string"}, id="type-string"),
        pytest.param({"type": "number"}, {"number", "integer"}, id="number-includes-integer"),
        pytest.param({"type": ["integer", "null"]}, {"integer", "null"}, id="type-list"),
        pytest.param({"type": "string", "nullable": True}, {"string", "null"}, id="openapi-nullable"),
        pytest.param({"const": 3}, {"integer"}, id="const"),
        pytest.param({"enum": ["a", 1.5, None]}, {"string", "number", "null"}, id="enum"),
        pytest.param({"type": "number", "enum": [1, 2]}, {"integer"}, id="type-meets-enum"),
        pytest.param({"minimum": 3}, None, id="no-type"),
        pytest.param({}, None, id="empty-schema"),
        pytest.param(True, None, id="true-schema"),
        pytest.param(False, set(), id="false-schema"),
        pytest.param({"anyOf": [{"type": "string"}, {"type": "null"}]}, {"string", "null"}, id="anyOf-joins"),
        pytest.param({"oneOf": [{"type": "string"}, {}]}, None, id="an-open-branch-opens-the-union"),
        pytest.param({"allOf": [{"type": ["string", "null"]}, {"type": "string"}]}, {"string"}, id="allOf-meets"),
        pytest.param({"$ref": "#/$defs/N"}, {"number", "integer"}, id="ref"),
        pytest.param({"$ref": "#/$defs/S", "type": "null"}, set(), id="ref-meets-its-siblings"),
    ],
)
def test_schema_types_on_every_shape(node: Any, types: set[str] | None) -> None:
    found = schema_types(node, Refs(TYPED))
    assert found == (None if types is None else frozenset(types))


def test_schema_types_reads_only_the_node_itself_when_not_deep() -> None:
    node = {"anyOf": [{"type": "string"}], "$ref": "#/$defs/N", "nullable": True, "type": "object"}
    assert schema_types(node, Refs(TYPED), deep=False) == {"object", "null"}
    assert schema_types({"$ref": "#/$defs/S"}) is None  # without a resolver a reference says nothing


@pytest.mark.parametrize(
    ("node", "kind"),
    [
        pytest.param({"type": "integer"}, "integer", id="type-string"),
        pytest.param({"type": ["null", "string", "integer"]}, "string", id="first-non-null-of-a-list"),
        pytest.param({"type": ["null"]}, "null", id="null-only"),
        pytest.param({"const": True}, "boolean", id="const"),
        pytest.param({"enum": [None, 2.5]}, "number", id="first-non-null-enum-member"),
        pytest.param({"properties": {}}, "object", id="shape-properties"),
        pytest.param({"required": ["a"]}, "object", id="shape-required"),
        pytest.param({"items": {}}, "array", id="shape-items"),
        pytest.param({"anyOf": [{"type": "null"}, {"type": "number"}]}, "number", id="nullable-anyOf"),
        pytest.param({"oneOf": [{"properties": {}}, {"type": "string"}]}, "object", id="first-branch"),
        pytest.param({"$ref": "#/$defs/S"}, "string", id="ref"),
        pytest.param({"minLength": 2}, None, id="unconstrained"),
        pytest.param(True, None, id="true-schema"),
    ],
)
def test_main_type_on_every_shape(node: Any, kind: str | None) -> None:
    assert main_type(node, Refs(TYPED)) == kind


def test_main_type_default_and_branches_are_the_callers_choice() -> None:
    union = {"anyOf": [{"type": "string"}, {"type": "object"}], "maxLength": 3}
    assert main_type(union) == "string"
    assert main_type(union, branches=False) is None
    assert main_type({"minimum": 1}, default="string") == "string"
    assert main_type({"$ref": "#/$defs/S"}) is None  # without a resolver a reference says nothing


@pytest.mark.parametrize(
    ("node", "kind"),
    [
        pytest.param({"type": ["integer", "string"]}, None, id="several-types"),
        pytest.param({"anyOf": [{"type": "string"}, {"type": "object"}]}, None, id="union-of-types"),
        pytest.param({"anyOf": [{"type": "object"}, {"type": "object", "required": ["a"]}]}, "object", id="one"),
        pytest.param({"type": "number"}, "number", id="number-covers-integer"),
        pytest.param({"type": ["string", "null"]}, "string", id="null-aside"),
        pytest.param({"type": "null"}, "null", id="only-null"),
        pytest.param({"enum": [1, 2]}, "integer", id="enum"),
        pytest.param({"properties": {}}, None, id="shape-is-not-sure"),
        pytest.param({"$ref": "#/$defs/Null"}, "null", id="ref"),
        pytest.param(False, None, id="false-schema"),
    ],
)
def test_the_sole_type_is_only_a_type_the_node_is_sure_of(node: Any, kind: str | None) -> None:
    assert main_type(node, Refs(TYPED), sole=True) == kind


@pytest.mark.parametrize(
    ("ref", "name"),
    [
        ("#/$defs/Pet", "Pet"),
        ("#/$defs/my%20thing", "my thing"),
        ("#/$defs/a~1b", "a/b"),
        ("#/$defs/Pet/properties/id", None),
        ("#/definitions/Pet", None),
        ("#anchor", None),
        ("https://example.com/s.json#/$defs/Pet", None),
    ],
)
def test_defs_name_reads_only_a_whole_defs_entry(ref: str, name: str | None) -> None:
    assert defs_name(ref) == name
