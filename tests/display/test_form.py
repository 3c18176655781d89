"""The form model of a tool's arguments: one control kind per field, and starting arguments the tool accepts.

Oracle for "valid": ``jsonschema``'s Draft 2020-12 validator with format checking, over the function
catalogue, the bundled specs and real corpus specs.

Internals: the form model (``_form``: ``form_of``, ``starting_arguments``, ``MAX_DEPTH``), the unit under test
behind the widgets.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from enum import Enum
from pathlib import Path
from typing import Annotated, Any, Literal

import function_catalogue as catalogue
import jsonschema
import pytest
from pydantic import Field

import toolkit as tk
from toolkit import examples
from toolkit._form import MAX_DEPTH, form_of, starting_arguments

ORACLE = jsonschema.Draft202012Validator


def _valid(schema: dict[str, Any], args: dict[str, Any]) -> list[str]:
    """The oracle's errors, less the one documented difference: toolkit's ``time`` takes a wall-clock time
    without an offset (tests/oracle_classes.py lists it)."""
    checker = ORACLE(schema, format_checker=ORACLE.FORMAT_CHECKER)
    errors = [e for e in checker.iter_errors(args) if not (e.validator == "format" and e.validator_value == "time")]
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in errors]


class Speed(Enum):
    slow = "slow"
    fast = "fast"


@dataclass
class Address:
    """Where to ship."""

    street: Annotated[str, Field(description="Street and number, e.g. 'Main St 1'.")]
    country: Literal["de", "fr"] = "de"


@dataclass
class Line:
    """One order line."""

    sku: Annotated[str, Field(description="Stock keeping unit, e.g. 'SKU-1'.", examples=["SKU-42"])]
    quantity: Annotated[int, Field(ge=1, le=9)] = 1


def ship(
    address: Address,
    lines: Annotated[list[Line], Field(min_length=1)],
    speed: Speed,
    mode: Literal["air", "sea"],
    ship_on: date,
    pick_up_at: datetime | None = None,
    note: str | None = None,
    extras: dict[str, Any] | None = None,
) -> None:
    """Ship an order. Use it after the user confirmed the address.

    Args:
        address: Where the parcel goes.
        lines: What goes in the parcel.
        speed: How fast: "slow" or "fast".
        mode: Carrier mode: "air" or "sea".
        ship_on: The day the parcel leaves (ISO 8601, YYYY-MM-DD).
        pick_up_at: When the carrier picks the parcel up (RFC 3339).
        note: A note for the carrier.
        extras: Anything else.
    """


@pytest.fixture(scope="module")
def ship_tool() -> tk.Tool:
    return tk.from_function(ship, namespace="shop")


def test_every_enum_is_a_choice_whatever_python_spelled(ship_tool: tk.Tool) -> None:
    form = form_of(ship_tool.args_schema)
    assert (form.field("speed").kind, form.field("speed").choices) == ("choice", ("slow", "fast"))
    assert (form.field("mode").kind, form.field("mode").choices) == ("choice", ("air", "sea"))
    assert form.field("address").field("country").choices == ("de", "fr")


def test_dates_nested_objects_lists_and_untyped_maps_get_their_own_kinds(ship_tool: tk.Tool) -> None:
    form = form_of(ship_tool.args_schema)
    kinds = {f.name: f.kind for f in form.fields}
    assert kinds == {
        "address": "object",
        "lines": "array",
        "speed": "choice",
        "mode": "choice",
        "ship_on": "date",
        "pick_up_at": "datetime",
        "note": "text",
        "extras": "json",
    }
    lines = form.field("lines")
    assert lines.item is not None
    assert lines.item.kind == "object"
    assert [(f.name, f.kind, f.required) for f in lines.item.fields] == [
        ("sku", "text", True),
        ("quantity", "integer", False),
    ]
    assert lines.min_items == 1
    assert form.field("pick_up_at").nullable
    assert not form.field("ship_on").nullable


def test_required_fields_are_marked(ship_tool: tk.Tool) -> None:
    form = form_of(ship_tool.args_schema)
    assert [f.name for f in form.fields if f.required] == ["address", "lines", "speed", "mode", "ship_on"]
    assert [f.name for f in form.field("address").fields if f.required] == ["street"]


def test_starting_arguments_use_defaults_then_examples_then_made_values(ship_tool: tk.Tool) -> None:
    args = starting_arguments(ship_tool.args_schema)
    assert set(args) == {"address", "lines", "speed", "mode", "ship_on"}
    assert args["lines"][0]["sku"] == "SKU-42", "a documented example comes before a made-up value"
    assert args["address"]["country"] == "de", "a default comes first"
    assert not _valid(ship_tool.args_schema, args)
    assert ship_tool.validate(args).status == "ok"


def test_a_recursive_schema_stops_at_the_depth_limit() -> None:
    schema = {
        "type": "object",
        "properties": {"tree": {"$ref": "#/$defs/Node"}},
        "$defs": {"Node": {"type": "object", "properties": {"child": {"$ref": "#/$defs/Node"}}}},
    }
    node = form_of(schema).field("tree")
    depth = 1
    while node.kind == "object":
        node, depth = node.field("child"), depth + 1
    assert node.kind == "json"
    assert depth == MAX_DEPTH


def test_a_tool_without_parameters_has_an_empty_form() -> None:
    form = form_of({"type": "object", "properties": {}, "additionalProperties": False})
    assert (form.kind, form.fields, starting_arguments({"type": "object"})) == ("object", (), {})


def _catalogue_tools() -> list[tk.Tool]:
    tools = []
    for case in catalogue.CASES:
        try:
            tools.append(tk.from_function(case.fn, **case.options))
        except tk.ToolkitError:
            continue  # the catalogue's refusals
    return tools


def test_starting_arguments_are_valid_for_every_catalogue_tool(repo_root: Path) -> None:
    tools = _catalogue_tools() + list(tk.from_openapi(repo_root / "specs" / "orders.yaml", namespace="orders"))
    tools.append(tk.from_function(examples.search_issues, namespace="issues", effect="read"))
    assert len(tools) > 40
    wrong = {t.name: _valid(t.args_schema, starting_arguments(t.args_schema)) for t in tools}
    assert not {name: errors for name, errors in wrong.items() if errors}


@pytest.mark.corpus
@pytest.mark.parametrize("spec", ["adyen-balanceplatform-v2-3.1.json", "asana.yaml", "discord-3.1.json"])
def test_starting_arguments_are_valid_for_real_api_operations(corpus_dir: Path, spec: str) -> None:
    toolset = tk.from_openapi(corpus_dir / spec, namespace="api", select="all")
    assert len(toolset.tools) > 10
    wrong = {t.name: _valid(t.args_schema, starting_arguments(t.args_schema)) for t in toolset.tools}
    assert not {name: errors for name, errors in wrong.items() if errors}
