"""``typing.TypedDict`` on Python 3.11 works like ``typing_extensions.TypedDict``: the same schema, the same
verdicts, the same values reaching the function — checked against hand-written ``typing_extensions`` twins.

Internals: ``_from_python._typeddict`` (``convert_annotation``, ``is_stdlib_typeddict``), the conversion under test."""

from __future__ import annotations

import json
import sys
import typing
from typing import Any, Optional

import pytest
from pydantic import TypeAdapter, ValidationError
from typeddict_shapes import stdlib, twins

import toolkit as tk
from toolkit._from_python._typeddict import convert_annotation, is_stdlib_typeddict

pytestmark = pytest.mark.skipif(sys.version_info >= (3, 12), reason="pydantic accepts typing.TypedDict from 3.12")

SHAPES = [
    pytest.param(stdlib.Address, twins.Address, id="plain"),
    pytest.param(stdlib.Options, twins.Options, id="total-false-with-required"),
    pytest.param(stdlib.Extended, twins.Extended, id="inherited-not-required-nested-field-metadata"),
    pytest.param(stdlib.Node, twins.Node, id="recursive"),
    pytest.param(stdlib.Page[int], twins.Page[int], id="generic-of-int"),
    pytest.param(stdlib.Page[stdlib.Address], twins.Page[twins.Address], id="generic-of-typeddict"),
    pytest.param(list[stdlib.Extended], list[twins.Extended], id="list-of"),
    pytest.param(Optional[dict[str, stdlib.Node]], Optional[dict[str, twins.Node]], id="optional-dict-of"),  # noqa: UP045
    pytest.param(stdlib.Address | None, twins.Address | None, id="pep604-union"),
    pytest.param(typing.List[stdlib.Address], typing.List[twins.Address], id="typing-list"),  # noqa: UP006
]

VALUES = [
    {"street": "1 Main St", "city": "Lyon"},
    {"street": "1 Main St"},
    {"limit": 3},
    {"sort": "name"},
    {"limit": 1, "flags": {"a": None}, "note": "n"},
    {"limit": 1, "flags": {}, "note": "x" * 21},
    {"limit": 1, "flags": {"a": {"street": 1, "city": "c"}}, "note": ""},
    {"limit": 1, "flags": {}, "note": "", "home": {"street": "s", "city": "c"}, "extra": 1},
    {"name": "root", "children": [{"name": "leaf", "children": []}]},
    {"items": [1, 2], "next": None},
    {"items": ["a"]},
    [{"street": "s", "city": "c"}],
    None,
]


def test_the_stdlib_classes_are_the_kind_pydantic_refuses() -> None:
    assert is_stdlib_typeddict(stdlib.Address)
    assert not is_stdlib_typeddict(twins.Address)
    with pytest.raises(Exception, match=r"typing_extensions\.TypedDict"):
        TypeAdapter(stdlib.Address)


@pytest.mark.parametrize(("original", "twin"), SHAPES)
def test_the_converted_schema_is_the_twin_s(original: Any, twin: Any) -> None:
    converted = TypeAdapter(convert_annotation(original)).json_schema()
    assert json.dumps(converted, sort_keys=True) == json.dumps(TypeAdapter(twin).json_schema(), sort_keys=True)


@pytest.mark.parametrize(("original", "twin"), SHAPES)
def test_the_converted_validation_gives_the_twin_s_verdicts_and_values(original: Any, twin: Any) -> None:
    ours, theirs = TypeAdapter(convert_annotation(original)), TypeAdapter(twin)
    for value in VALUES:
        try:
            expected: Any = ("ok", theirs.validate_python(value))
        except ValidationError as error:
            expected = ("refused", [e["type"] for e in error.errors()])
        try:
            got: Any = ("ok", ours.validate_python(value))
        except ValidationError as error:
            got = ("refused", [e["type"] for e in error.errors()])
        assert got == expected, value


def test_requiredness_comes_from_the_qualifiers_not_the_3_11_key_sets() -> None:
    converted = convert_annotation(stdlib.Extended)
    assert converted.__required_keys__ == {"limit", "flags", "note"}
    assert converted.__optional_keys__ == {"sort", "tags", "home"}
    assert stdlib.Extended.__required_keys__ != converted.__required_keys__  # what 3.11 computed from strings


def test_annotations_without_a_stdlib_typeddict_come_back_unchanged() -> None:
    for annotation in (int, list[str], twins.Address, Optional[twins.Node], typing.Annotated[str, "x"]):  # noqa: UP045
        assert convert_annotation(annotation) is annotation


def test_a_tool_taking_stdlib_typeddicts_equals_its_typing_extensions_twin() -> None:
    ours, theirs = tk.from_function(stdlib.ship), tk.from_function(twins.ship)
    assert ours.args_schema == theirs.args_schema
    assert ours.declaration == theirs.declaration
    props = ours.args_schema["$defs"]["Address"]["properties"]
    assert props["street"]["description"] == "Street and house number."  # the Attributes: section still reads
    args = {
        "to": {"street": "1 Main St", "city": "Lyon"},
        "options": {"limit": 2, "flags": {"a": None}, "note": "fragile"},
        "pages": [{"items": [1, 2]}],
        "tree": {"name": "root", "children": []},
    }
    result = ours.call(args)
    assert result.ok
    assert result.data == theirs.call(args).data
    assert result.data["to"] == {"street": "1 Main St", "city": "Lyon"}  # plain dicts reach the function
    for bad in ({**args, "options": {"flags": {}, "note": ""}}, {**args, "to": {"street": "x"}}):
        assert ours.validate(bad).to_dict() == theirs.validate(bad).to_dict()
        assert ours.validate(bad).status == "invalid_arguments"
