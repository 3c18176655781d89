"""Fixtures inside: the families at nested properties and array items, judged by ``jsonschema`` 2020-12.

Two oracles hold every nested fixture: ``jsonschema`` (Draft 2020-12, formats asserted, ECMA-262 patterns,
objects closed as the default policy reads them) for the verdict the fixture predicts, and the validator's
envelope for the path (a rejected nested fixture's errors lie at its ``field`` or under it).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

import pytest
from oracle_judges import judge
from pydantic import BaseModel, Field

import toolkit as tk
from toolkit import Policy, Tool, ToolContract
from toolkit._fixtures import NESTED_CAP, Fixture, fire, fixtures
from toolkit._fixtures._nested import NESTED_DEPTH

REPAIRS = frozenset({"explicit_null", "above_max", "below_min", "at_exclusive_min", "at_exclusive_max"})
REPAIRS |= {"enum_wrong_case", "enum_declared_string"}
"""Families whose ``accept_with_notice`` is a policy's repair: the value as sent is one ``jsonschema`` refuses."""


# -- product examples: pydantic models and dataclasses with an address and order lines -------------------
class Address(BaseModel):
    street: str = Field(description="Street and number.", min_length=3)
    postcode: str = Field(pattern=r"^[0-9]{5}$", description="Five digits.")
    country: Literal["DE", "FR", "NL"] = Field("DE", description="Country code.")
    floor: int | None = Field(None, ge=0, le=40, description="Floor, if any.")


class Line(BaseModel):
    sku: str = Field(pattern=r"^SKU-[0-9]{4}$", description="Stock unit.")
    qty: int = Field(ge=1, le=99, description="How many.")
    gift: bool = Field(False, description="Wrap it.")
    tags: list[str] = Field(default_factory=list, max_length=3, description="Labels.")


class Customer(BaseModel):
    name: str = Field(max_length=40, description="Full name.")
    billing: Address = Field(description="Billing address.")
    since: str = Field(json_schema_extra={"format": "date"}, description="Customer since (YYYY-MM-DD).")


def place_order(customer: Customer, ship_to: Address, lines: list[Line], note: str | None = None) -> dict[str, Any]:
    """Place an order.

    Args:
        customer: Who orders.
        ship_to: Where the parcel goes.
        lines: What to ship, one line per stock unit.
        note: A note for the courier.
    """
    return {}


@dataclasses.dataclass
class Point:
    lat: float
    lon: float


@dataclasses.dataclass
class Stop:
    label: str
    where: Point
    minutes: int = 5


def plan_route(stops: list[Stop], start: Point) -> dict[str, Any]:
    """Plan a route through the stops.

    Args:
        stops: The stops, in order.
        start: Where the route starts.
    """
    return {}


PRODUCT: dict[str, tuple[Callable[..., Any], str]] = {"place_order": (place_order, "write")}
PRODUCT["plan_route"] = (plan_route, "read")
POLICIES = [
    pytest.param("read", {}, id="read"),
    pytest.param("write", {}, id="write"),
    pytest.param("read", {"enum_case": "insensitive", "null_optional": "reject"}, id="read-lenient-enums"),
    pytest.param("write", {"clamp": True}, id="write-clamping"),
    pytest.param("write", {"unlisted_properties": "allow"}, id="write-open-objects"),
]


def product_tool(name: str, effect: str | None = None, **policy: Any) -> Tool:
    fn, default_effect = PRODUCT[name]
    tool = tk.from_function(fn, namespace="shop", effect=effect or default_effect)  # type: ignore[arg-type]
    return dataclasses.replace(tool, policy=Policy(**policy)) if policy else tool


def nested(found: list[Fixture]) -> list[Fixture]:
    return [f for f in found if "." in f.field or "[" in f.field]


def oracle_disagreements(tool: Tool, found: list[Fixture]) -> list[tuple[str, str, str]]:
    """Nested fixtures whose predicted verdict ``jsonschema`` contradicts: (id, expected, jsonschema's).
    ``jsonschema`` must answer on each (``undecided``, when it raises, counts as a disagreement)."""
    verdict = judge(tool.contract.args_schema, closed=tool.policy.unlisted_properties == "refuse")
    wrong = []
    for fx in nested(found):
        said = verdict(fx.args)
        if fx.expected == "reject" or (fx.expected == "accept_with_notice" and fx.family in REPAIRS):
            agree = said == "invalid"
        else:
            agree = said == "valid"
        if not agree:
            wrong.append((fx.id, fx.expected, said))
    return wrong


def path_mismatches(report: tk.FixtureReport) -> list[tuple[str, str, list[str]]]:
    """Rejected fixtures with a field whose envelope errors are not at (or under) that field."""
    out = []
    for row in report.rows:
        field = row.fixture.field
        if row.actual != "reject" or not field:
            continue
        fields = [e.field for e in row.result.errors]
        if not fields or not all(f == field or f.startswith((f"{field}.", f"{field}[")) for f in fields):
            out.append((row.fixture.id, field, fields))
    return out


@pytest.mark.parametrize("name", list(PRODUCT))
@pytest.mark.parametrize(("effect", "policy"), POLICIES)
def test_nested_fixtures_agree_with_jsonschema_and_the_validator(
    name: str, effect: str, policy: dict[str, Any]
) -> None:
    tool = product_tool(name, effect, **policy)
    found = fixtures(tool)
    assert len(nested(found)) > 10
    assert oracle_disagreements(tool, found) == []
    report = fire(tool, found)
    assert report.failures == (), report.summary()
    assert path_mismatches(report) == []


def test_paths_are_written_as_the_envelope_writes_them() -> None:
    found = fixtures(product_tool("place_order"), nested_cap=None)
    fields = {f.field for f in found}
    assert {"ship_to.postcode", "lines[0].sku", "lines[0].qty", "lines[0].tags[0]"} <= fields
    assert "customer.billing.postcode" in fields
    by_id = {f.id: f for f in found}
    moved = by_id["lines[0].qty.above_max"]
    assert moved.args["lines"][0]["qty"] == 100
    assert moved.field == "lines[0].qty"
    report = fire(product_tool("place_order"), [moved, by_id["ship_to.postcode.pattern_violation"]])
    assert [[e.field for e in row.result.errors] for row in report.rows] == [["lines[0].qty"], ["ship_to.postcode"]]


def test_one_field_changes_and_the_rest_is_the_valid_baseline() -> None:
    found = fixtures(product_tool("place_order"))
    (baseline,) = [f.args for f in found if f.id == "valid.baseline"]
    fx = next(f for f in found if f.id == "customer.billing.postcode.pattern_violation")
    assert (
        fx.args["customer"]["billing"] | {"postcode": baseline["customer"]["billing"]["postcode"]}
        == (baseline["customer"]["billing"])
    )
    others = {k: v for k, v in baseline.items() if k != "customer"}
    assert {k: v for k, v in fx.args.items() if k != "customer"} == others
    assert baseline["customer"]["billing"]["postcode"] != "!"  # the baseline itself was left untouched


def test_every_family_reaches_inside() -> None:
    families = {f.family for f in nested(fixtures(product_tool("place_order"), nested_cap=None))}
    assert {"numeric_as_string", "float_for_integer", "enum_wrong_case", "enum_unknown", "omitted_optional",
            "omitted_required", "explicit_null", "below_min", "above_max", "at_max", "pattern_violation",
            "date_free_text", "below_min_length", "above_max_length", "above_max_items", "nested_extra_property",
            "bool_as_string", "array_item_wrong_type"} <= families  # fmt: skip


def test_optional_nested_fields_the_baseline_leaves_out_are_filled_in() -> None:
    found = fixtures(product_tool("place_order"))
    (baseline,) = [f.args for f in found if f.id == "valid.baseline"]
    assert "floor" not in baseline["ship_to"]  # optional, no default: the baseline leaves it out
    fx = next(f for f in found if f.id == "ship_to.floor.above_max")
    assert fx.args["ship_to"]["floor"] == 41


# -- the sample ----------------------------------------------------------------------------------------
def wide_schema(width: int) -> dict[str, Any]:
    """``width`` top-level objects, each with ``width`` leaves of several kinds and a nested object of them."""

    def leaves(prefix: str) -> dict[str, Any]:
        kinds = [{"type": "integer", "minimum": 0, "maximum": 9}, {"type": "string", "enum": ["on", "off"]},
                 {"type": "string", "format": "date"}, {"type": "boolean"},
                 {"type": "string", "maxLength": 8}]  # fmt: skip
        return {f"{prefix}{i}": kinds[i % len(kinds)] for i in range(width)}

    def obj(properties: dict[str, Any]) -> dict[str, Any]:
        return {"type": "object", "properties": properties, "required": list(properties)[:2],
                "additionalProperties": False}  # fmt: skip

    inner = obj(leaves("leaf"))
    middle = obj(leaves("field") | {"inner": inner, "rows": {"type": "array", "items": inner}})
    return obj({f"group{i}": middle for i in range(width)})


def make_tool(schema: dict[str, Any], effect: str = "write", **policy: Any) -> Tool:
    contract = ToolContract(name="t", description="A test tool.", args_schema=schema, effect=effect)  # type: ignore[arg-type]
    return Tool(contract=contract, parameters=None, policy=Policy(**policy))


def test_many_nested_fields_get_a_bounded_sample_covering_every_depth_and_family() -> None:
    tool = make_tool(wide_schema(12))
    every = nested(fixtures(tool, nested_cap=None))
    found = fixtures(tool)
    sampled = nested(found)
    assert len(sampled) == NESTED_CAP < len(every)
    assert found.nested == (NESTED_CAP, len(every))

    def depth(f: Fixture) -> int:
        return f.field.count(".") + f.field.count("[")

    assert {depth(f) for f in sampled} == {depth(f) for f in every} == {1, 2, 3}
    assert {f.family for f in sampled} == {f.family for f in every}
    assert {f.id for f in sampled} <= {f.id for f in every}
    assert [f.id for f in sampled] == [f.id for f in nested(fixtures(tool))]  # deterministic
    assert len(nested(fixtures(tool, nested_cap=10))) == 10
    assert nested(fixtures(tool, nested_cap=0)) == []


def test_the_report_and_its_display_say_how_many_of_how_many() -> None:
    tool = make_tool(wide_schema(12))
    report = fire(tool)
    made, possible = report.nested
    assert made == NESTED_CAP < possible
    line = f"nested fields: {made} of {possible} possible fixtures"
    assert line in report.summary()
    bundle = report._repr_mimebundle_()
    assert line in bundle["text/plain"]
    assert line in bundle["text/html"]
    assert report.to_dict()["nested"] == {"generated": made, "possible": possible}
    from toolkit.widgets.fixtures import FixturesView  # ipywidgets: only for the workbench's view

    assert line in FixturesView(report).headline.value
    assert report.passed, report.summary()
    small = fire(product_tool("plan_route"))
    assert f"nested fields: {small.nested[0]} fixtures, every one possible" in small.summary()


def test_a_recursive_schema_stops_at_the_depth_bound() -> None:
    node = {"type": "object", "properties": {"name": {"type": "string", "maxLength": 5},
            "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}}, "required": ["name"],
            "additionalProperties": False}  # fmt: skip
    schema = {"type": "object", "properties": {"root": {"$ref": "#/$defs/Node"}}, "required": ["root"],
              "additionalProperties": False, "$defs": {"Node": node}}  # fmt: skip
    tool = make_tool(schema)
    found = fixtures(tool, nested_cap=None)
    paths = {f.field for f in nested(found)}
    assert "root.children[0].name" in paths
    assert max(p.count(".") + p.count("[") for p in paths) <= NESTED_DEPTH
    assert oracle_disagreements(tool, found) == []
    assert fire(tool, found).passed


def test_the_oracle_catches_a_wrong_prediction() -> None:
    tool = product_tool("place_order")
    found = nested(fixtures(tool))
    flipped = [dataclasses.replace(f, expected="accept" if f.expected == "reject" else "reject") for f in found]
    assert len(oracle_disagreements(tool, flipped)) == len(found)


# -- real APIs -----------------------------------------------------------------------------------------
@pytest.mark.corpus
@pytest.mark.slow
@pytest.mark.parametrize("spec", ["stripe.json", "github-3.0.json"])
def test_real_api_nested_fixtures_agree_with_jsonschema_and_envelope_paths(corpus_dir: Path, spec: str) -> None:
    toolset = tk.from_openapi(corpus_dir / spec, "x", select="all")
    checked = capped = 0
    for tool in toolset:
        found = fixtures(tool)
        made, possible = found.nested
        assert made == len(nested(found)) <= NESTED_CAP
        assert made <= possible
        if not made:
            continue
        checked, capped = checked + made, capped + (made < possible)
        assert oracle_disagreements(tool, found) == [], tool.name
        report = fire(tool, found)
        assert report.failures == (), report.summary()
        assert path_mismatches(report) == [], tool.name
    assert checked > 1000
    assert capped >= 2  # the cap is met on real tools, and the sample still agrees


def test_keys_that_need_quoting_are_written_as_the_envelope_quotes_them() -> None:
    inner = {"type": "object", "properties": {"post code": {"type": "string", "maxLength": 5}},
             "required": ["post code"], "additionalProperties": False}  # fmt: skip
    schema = {"type": "object", "properties": {"ship to": inner, "n": {"type": "integer", "maximum": 3}},
              "required": ["ship to"], "additionalProperties": False}  # fmt: skip
    tool = make_tool(schema)
    found = fixtures(tool)
    assert {'["ship to"]', '["ship to"]["post code"]', "n"} <= {f.field for f in found}
    report = fire(tool, found)
    assert report.passed, report.summary()
    assert path_mismatches(report) == []
    assert oracle_disagreements(tool, found) == []
