"""Form bodies on the wire (toolkit.runtime.forms), decoded by independent readers.

The bracket style (``deepObject`` at any depth, Stripe's) is decoded by ``qs_codec``, a port of the JavaScript
``qs`` parser that Stripe's and Express's stacks read forms with; the flat styles by the standard library's
:func:`urllib.parse.parse_qsl`, against OpenAPI's style table.

Internals: ``_contract.FormEncoding``, to state each encoding a form field can have.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qsl

import pytest
import qs_codec
from hypothesis import given, settings
from hypothesis import strategies as st

from toolkit._contract import FormEncoding
from toolkit.runtime.forms import encode_form, form_pairs

BRACKETS = FormEncoding(style="deepObject")
KEYS = st.from_regex(r"[a-z][a-z_]{0,7}", fullmatch=True)
SCALARS = st.one_of(
    # non-empty: qs_codec merges empty strings in nested lists (a[0][0]=&a[0][1]= reads as [[""], [""]]);
    # the empty string is checked on its own below
    st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), min_size=1, max_size=12),
    st.integers(-(10**12), 10**12),
    st.booleans(),
)
# no list directly inside a list: qs_codec 1.6 reads a[0][0]=x&a[0][1]=y as [["x"], ["y"]] (JavaScript's qs
# reads [["x", "y"]]); lists inside objects inside lists are fine, and form APIs nest no deeper kind
OBJECTS = st.deferred(lambda: st.dictionaries(KEYS, VALUES, min_size=1, max_size=4))
VALUES = st.one_of(SCALARS, OBJECTS, st.lists(st.one_of(SCALARS, OBJECTS), min_size=1, max_size=4))


def _as_text(value: Any) -> Any:
    """What a form carries: every scalar as text (booleans as true/false)."""
    if isinstance(value, dict):
        return {k: _as_text(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_as_text(v) for v in value]
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _decode(body: bytes) -> Any:
    options = qs_codec.DecodeOptions(depth=64, list_limit=1000, parameter_limit=100_000)
    return qs_codec.decode(body.decode("ascii"), options)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.dictionaries(KEYS, VALUES, min_size=1, max_size=5))
def test_brackets_at_any_depth_decode_back_to_the_body(body: dict[str, Any]) -> None:
    encoded = encode_form(body, dict.fromkeys(body, BRACKETS))
    assert encoded.isascii()
    assert _decode(encoded) == _as_text(body)


def test_stripe_style_nested_arrays_of_objects() -> None:
    body = {
        "customer": "cus_1",
        "items": [{"price": "price_1", "quantity": 2}, {"price": "price_2", "tax_rates": ["txr_1", "txr_2"]}],
        "metadata": {"order": "ord 1&2=3"},
        "expand": ["latest_invoice.payment_intent"],
    }
    fields = {"items": BRACKETS, "metadata": BRACKETS, "expand": BRACKETS}
    pairs = form_pairs(body, fields)
    assert ("items[1][tax_rates][0]", "txr_1") in pairs
    assert ("expand[0]", "latest_invoice.payment_intent") in pairs
    assert _decode(encode_form(body, fields)) == _as_text(body)


@pytest.mark.parametrize(
    ("encoding", "value", "expected"),
    [
        (FormEncoding(), 5, [("f", "5")]),
        (FormEncoding(), [3, 4], [("f", "3"), ("f", "4")]),
        (FormEncoding(), {"a": 1, "b": 2}, [("a", "1"), ("b", "2")]),
        (FormEncoding(explode=False), [3, 4], [("f", "3,4")]),
        (FormEncoding(explode=False), {"a": 1, "b": 2}, [("f", "a,1,b,2")]),
        (FormEncoding("spaceDelimited", explode=False), [3, 4], [("f", "3 4")]),
        (FormEncoding("pipeDelimited", explode=False), [3, 4], [("f", "3|4")]),
        (FormEncoding("pipeDelimited", explode=True), [3, 4], [("f", "3"), ("f", "4")]),
        (FormEncoding("deepObject"), {"a": 1, "b": 2}, [("f[a]", "1"), ("f[b]", "2")]),
    ],
    ids=[
        "form-scalar",
        "form-array",
        "form-object",
        "form-array-unexploded",
        "form-object-unexploded",
        "space-array",
        "pipe-array",
        "pipe-array-exploded",
        "deep-object",
    ],
)
def test_each_style_follows_the_openapi_table(
    encoding: FormEncoding, value: Any, expected: list[tuple[str, str]]
) -> None:
    body = {"f": value}
    assert parse_qsl(encode_form(body, {"f": encoding}).decode("ascii"), keep_blank_values=True) == expected


def test_a_json_field_is_sent_as_json_text() -> None:
    body = {"meta": {"a": [1, {"b": None}], "é": "x"}}
    ((name, text),) = parse_qsl(encode_form(body, {"meta": FormEncoding(json=True)}).decode("ascii"))
    assert name == "meta"
    assert json.loads(text) == body["meta"]


def test_what_a_flat_style_cannot_express_goes_as_json_text() -> None:
    body = {"rows": [{"a": 1}, [2]]}
    assert [json.loads(v) for _, v in parse_qsl(encode_form(body, {}).decode("ascii"))] == [{"a": 1}, [2]]


def test_nulls_and_empty_containers_send_nothing_and_booleans_are_words() -> None:
    body = {"gone": None, "empty": [], "none": {}, "yes": True, "no": False, "blank": ""}
    fields = {"empty": BRACKETS, "none": BRACKETS}
    pairs = parse_qsl(encode_form(body, fields).decode("ascii"), keep_blank_values=True)
    assert pairs == [("yes", "true"), ("no", "false"), ("blank", "")]


def test_reserved_characters_and_spaces_are_percent_encoded() -> None:
    encoded = encode_form({"q": "a b+c,d&e=f/g", "x[y]": "1"}, {}).decode("ascii")
    assert " " not in encoded
    assert "+" not in encoded
    assert "[" not in encoded
    assert encoded.count("&") == 1
    assert parse_qsl(encoded) == [("q", "a b+c,d&e=f/g"), ("x[y]", "1")]
