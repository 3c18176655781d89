"""from_function: signatures become args_schema, docstrings become descriptions, misuse becomes a slug.

Internals: ``parse_docstring`` (tested as a unit) and ``DECIMAL_PATTERN``, the pattern a ``Decimal`` declares."""

from __future__ import annotations

import inspect
import json
import keyword
import typing
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from enum import StrEnum
from typing import Annotated, Any, Literal, NotRequired, Optional
from uuid import UUID

import pytest
from google.genai import types as genai_types
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from locations import TESTS
from module_support import load_module
from pydantic import BaseModel, Field, TypeAdapter, ValidationError
from typing_extensions import TypedDict

from toolkit import SignatureError, ToolContext, ToolkitError, from_function
from toolkit._from_python._args_schema import DECIMAL_PATTERN
from toolkit._from_python._docstrings import parse_docstring
from toolkit.examples import create_invoice, search_issues, transfer_funds

BAD_INPUTS = TESTS / "bad_inputs" / "functions" / "callables.py"


def load_bad() -> Any:
    module = load_module("bad_function_inputs", BAD_INPUTS)
    return module.BAD


BAD = load_bad()


# -- refusals ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("fn", "options", "slug"), [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_bad_callable_is_refused_with_its_slug(fn: Any, options: dict[str, Any], slug: str) -> None:
    with pytest.raises(ToolkitError) as caught:
        from_function(fn, **options)
    assert caught.value.slug == slug
    assert len(caught.value.message) > 30  # says what is wrong and how to fix it


def test_varargs_message_says_how_to_fix() -> None:
    def tag(*labels: str) -> None:
        """Tag things."""

    with pytest.raises(SignatureError, match=r"labels: list\[str\]"):
        from_function(tag)


# -- optional, required, defaults -------------------------------------------------------------------------
def note_optional(note: Optional[str] = None) -> None:  # noqa: UP045 - the spelling under test
    """Note."""


def note_pipe(note: str | None = None) -> None:
    """Note."""


def test_optional_and_pipe_none_give_the_same_schema() -> None:
    assert from_function(note_optional).args_schema == from_function(note_pipe).args_schema
    assert from_function(note_optional).declaration["parameters"] == from_function(note_pipe).declaration["parameters"]


def test_optional_without_default_is_required_and_nullable() -> None:
    def f(note: str | None) -> None:
        """Note."""

    tool = from_function(f)
    assert tool.args_schema["required"] == ["note"]
    assert tool.declaration["parameters"]["properties"]["note"]["nullable"] is True
    assert tool.declaration["parameters"]["required"] == ["note"]


def test_default_makes_parameter_optional_and_is_shown() -> None:
    def f(query: str, limit: int = 20) -> None:
        """Search."""

    schema = from_function(f).args_schema
    assert schema["required"] == ["query"]
    assert schema["properties"]["limit"]["default"] == 20


def test_none_default_on_plain_type_means_optional_nullable() -> None:
    def f(since: date = None) -> None:  # type: ignore[assignment]  # noqa: RUF013 - the trap under test
        """Since."""

    prop = from_function(f).declaration["parameters"]["properties"]["since"]
    assert prop["nullable"] is True
    assert prop["format"] == "date"


def test_parameter_schema_does_not_depend_on_siblings() -> None:
    def alone(limit: Annotated[int, Field(ge=1)] = 5) -> None:
        """One."""

    def crowded(query: str, flag: bool, limit: Annotated[int, Field(ge=1)] = 5, extra: float = 1.0) -> None:
        """Many."""

    assert (
        from_function(alone).args_schema["properties"]["limit"]
        == (from_function(crowded).args_schema["properties"]["limit"])
    )


@dataclass
class Point:
    x: float
    y: float = 0.0


class Box(BaseModel):
    width: int
    label: str = "box"


class Opts(TypedDict):
    mode: str
    level: NotRequired[int]


def test_model_dataclass_and_typeddict_defaults_are_honoured_in_required() -> None:
    def f(point: Point, box: Box, opts: Opts) -> None:
        """Shapes."""

    defs = from_function(f).args_schema["$defs"]
    assert defs["Point"]["required"] == ["x"]
    assert defs["Box"]["required"] == ["width"]
    assert defs["Opts"]["required"] == ["mode"]


def test_args_schema_is_a_closed_object_without_titles() -> None:
    schema = from_function(create_invoice).args_schema
    assert schema["type"] == "object"
    assert schema["additionalProperties"] is False
    assert '"title"' not in json.dumps({k: v for k, v in schema.items() if k != "properties"})
    for prop in schema["properties"].values():
        assert "title" not in prop


def test_names_that_clash_with_pydantic_or_internal_fields_round_trip() -> None:
    def f(p1: int, p0: str, model_config: int = 1, _private: int = 2) -> None:
        """Swap."""

    tool = from_function(f)
    assert list(tool.args_schema["properties"]) == ["p1", "p0", "model_config", "_private"]
    assert tool.converter is not None
    args = {"p1": 1, "p0": "a", "model_config": 3, "_private": 4}
    assert tool.converter(args) == args


def test_property_named_title_survives_artefact_removal() -> None:
    def f(title: str) -> None:
        """Rename."""

    assert list(from_function(f).args_schema["properties"]) == ["title"]


# -- descriptions -----------------------------------------------------------------------------------------
GOOGLE = """Do it.

Longer body.

Args:
    first: The first thing to pass along.
    second: The second thing to pass along.

Returns:
    Nothing at all.
"""
NUMPY = """Do it.

Longer body.

Parameters
----------
first : str
    The first thing to pass along.
second : int
    The second thing to pass along.

Returns
-------
None
"""
REST = """Do it.

Longer body.

:param first: The first thing to pass along.
:param int second: The second thing to pass along.
:returns: Nothing at all.
"""


@pytest.mark.parametrize("doc", [GOOGLE, NUMPY, REST], ids=["google", "numpy", "rest"])
def test_every_docstring_style_gives_parameter_and_tool_descriptions(doc: str) -> None:
    def f(first: str, second: int) -> None:
        pass

    f.__doc__ = doc
    tool = from_function(f)
    assert tool.description == "Do it.\n\nLonger body."
    props = tool.declaration["parameters"]["properties"]
    assert props["first"]["description"] == "The first thing to pass along."
    assert props["second"]["description"] == "The second thing to pass along."


def test_field_description_wins_over_annotated_text_and_docstring() -> None:
    def f(
        a: Annotated[str, Field(description="From the field."), "From the text."],
        b: Annotated[str, "From the text."],
        c: str,
    ) -> None:
        """Do it.

        Args:
            a: From the docstring.
            b: From the docstring.
            c: From the docstring.
        """

    props = from_function(f).args_schema["properties"]
    assert [props[k]["description"] for k in "abc"] == ["From the field.", "From the text.", "From the docstring."]


def test_description_argument_overrides_docstring() -> None:
    tool = from_function(search_issues, description="Find issues.")
    assert tool.description == "Find issues."


HEADLESS = {
    "google-literal": "Args:\n    who: Name of the person.\n    age: Age in years.",
    "google-docstring": "Args:\n            who: Name of the person.\n            age: Age in years.\n\n"
    "        Returns:\n            Nothing.\n        ",
    "numpy-docstring": "Parameters\n        ----------\n        who\n            Name of the person.\n"
    "        age\n            Age in years.\n        ",
    "rest-docstring": ":param who: Name of the person.\n        :param age: Age in years.\n        ",
}


@pytest.mark.parametrize("text", HEADLESS.values(), ids=HEADLESS.keys())
def test_docstring_without_summary_still_gives_parameters(text: str) -> None:
    doc = parse_docstring(text)
    assert doc.description == ""
    assert doc.params == {"who": "Name of the person.", "age": "Age in years."}


@dataclass
class Item:
    """An item.

    Attributes:
        sku: Stock keeping unit of the item.
    """

    sku: str


def test_dataclass_attributes_section_describes_fields() -> None:
    def f(item: Item) -> None:
        """Add."""

    item = from_function(f).args_schema["$defs"]["Item"]
    assert item["description"] == "An item."
    assert item["properties"]["sku"]["description"] == "Stock keeping unit of the item."


# -- naming, effect, confirm, context ---------------------------------------------------------------------
def test_namespace_prefixes_the_name_and_effect_defaults_to_write() -> None:
    tool = from_function(search_issues, namespace="issues")
    assert tool.name == "issues_search_issues"
    assert (tool.effect, tool.confirm) == ("write", False)
    assert from_function(search_issues, name="find", effect="read", confirm=True).name == "find"


def test_context_parameter_is_injected_not_declared() -> None:
    tool = from_function(transfer_funds)
    assert tool.context_param == "context"
    assert "context" not in tool.args_schema["properties"]
    assert "context" not in tool.declaration["parameters"]["properties"]


def test_optional_context_parameter_is_injected_too() -> None:
    def f(value: int, ctx: ToolContext | None = None) -> None:
        """Use the context when there is one."""

    assert from_function(f).context_param == "ctx"


def test_bound_method_skips_self() -> None:
    class Counter:
        def add(self, by: int) -> None:
            """Add to the counter."""

    tool = from_function(Counter().add)
    assert list(tool.args_schema["properties"]) == ["by"]
    assert tool.name == "add"


@dataclass
class PlaceOrder:
    """Place an order for one product.

    Attributes:
        sku: Stock keeping unit of the product, e.g. "SKU-1".
    """

    sku: str


def test_class_becomes_a_tool_named_in_snake_case() -> None:
    tool = from_function(PlaceOrder)
    assert tool.name == "place_order"
    assert tool.description == "Place an order for one product."
    assert tool.args_schema["properties"]["sku"]["description"] == 'Stock keeping unit of the product, e.g. "SKU-1".'


# -- types ------------------------------------------------------------------------------------------------
class Level(StrEnum):
    LOW = "low"
    HIGH = "high"


def test_decimal_travels_as_a_decimal_string_and_bounds_are_losses() -> None:
    def f(amount: Annotated[Decimal, Field(gt=0, le=100)]) -> None:
        """Pay."""

    tool = from_function(f)
    assert tool.args_schema["properties"]["amount"] == {"type": "string", "pattern": DECIMAL_PATTERN}
    recorded = {(loss.path, loss.keyword, loss.value) for loss in tool.losses}
    assert {("/properties/amount", "exclusiveMinimum", 0), ("/properties/amount", "maximum", 100)} <= recorded


def refund(
    order: str,
    amount: Annotated[Decimal, Field(gt=0, decimal_places=2)],
    fee: Annotated[Decimal, Field(ge=5, le=10, multiple_of=Decimal("0.25"))] = Decimal("5"),
) -> str:
    """Refund part of an order."""
    return f"{order}: {amount} less {fee}"


@pytest.mark.parametrize("fast", [True, False])
@pytest.mark.parametrize("amount", ["-0.0", "-5.123", "5.123", "5.12", "0", "0.01"])
def test_validate_refuses_what_the_conversion_refuses(amount: str, fast: bool) -> None:
    # the oracle: pydantic, converting the value as the function's annotation says
    amount_type = TypeAdapter(Annotated[Decimal, Field(gt=0, decimal_places=2)])
    try:
        amount_type.validate_python(Decimal(amount))
        converts = True
    except ValidationError:
        converts = False
    tool = from_function(refund, effect="read")
    checked = tool.validate({"order": "A1", "amount": amount}, fast=fast)
    called = tool.call({"order": "A1", "amount": amount})
    assert checked.ok is converts is called.ok
    if not converts:  # the same refusal, said the same way, before the call as at it
        assert checked.status == called.status == "rejected"
        assert checked.errors == called.errors
        assert {error.field for error in checked.errors} == {"amount"}


def test_a_tool_whose_schema_states_every_bound_has_no_conversion_check() -> None:
    def pay(amount: Annotated[float, Field(gt=0)], note: Decimal = Decimal("0")) -> None:
        """Pay."""

    assert from_function(pay).domain_checks == ()  # a float's bound is in its schema; an unbounded Decimal has none
    assert len(from_function(refund).domain_checks) == 1


def test_unserialisable_default_becomes_a_loss_not_a_warning() -> None:
    sentinel = object()

    def f(value: Any = sentinel) -> None:
        """Take anything."""

    tool = from_function(f)
    assert "default" not in tool.args_schema["properties"]["value"]
    assert any(loss.keyword == "default" for loss in tool.losses)


def test_formats_of_dates_times_and_uuids() -> None:
    def f(day: date, at: datetime, ref: UUID) -> None:
        """Log."""

    props = from_function(f).args_schema["properties"]
    assert [props[k]["format"] for k in ("day", "at", "ref")] == ["date", "date-time", "uuid"]


# -- converter --------------------------------------------------------------------------------------------
def test_converter_builds_real_python_objects() -> None:
    def f(
        day: date,
        amount: Decimal,
        level: Level,
        point: Point,
        box: Box,
        opts: Opts,
        ids: set[int],
        pair: tuple[int, str],
    ) -> None:
        """Everything."""

    tool = from_function(f)
    assert tool.converter is not None
    kwargs = tool.converter(
        {
            "day": "2026-03-01",
            "amount": "19.99",
            "level": "high",
            "point": {"x": 1.5},
            "box": {"width": 3},
            "opts": {"mode": "m"},
            "ids": [1, 2, 2],
            "pair": [1, "a"],
        }
    )
    assert kwargs == {
        "day": date(2026, 3, 1),
        "amount": Decimal("19.99"),
        "level": Level.HIGH,
        "point": Point(1.5, 0.0),
        "box": Box(width=3),
        "opts": {"mode": "m"},
        "ids": {1, 2},
        "pair": (1, "a"),
    }
    assert isinstance(kwargs["level"], Level)


def test_converter_passes_only_given_arguments_so_python_defaults_apply() -> None:
    tool = from_function(search_issues)
    assert tool.converter is not None
    assert tool.converter({"query": "x"}) == {"query": "x"}


def test_converted_arguments_call_the_function() -> None:
    tool = from_function(transfer_funds)
    assert tool.converter is not None
    kwargs = tool.converter(
        {
            "from_account": "acc_00000001",
            "to_account": "acc_00000002",
            "amount": "10.5",
            "currency": "eur",
            "execute_on": "2026-05-01",
        }
    )
    receipt = transfer_funds(**kwargs, context=ToolContext(session_id="s"))
    assert receipt["amount"] == "10.50"
    assert receipt["execute_on"] == "2026-05-01"


# -- the example tools ------------------------------------------------------------------------------------
def test_flawed_example_shows_every_trap_at_its_parameter() -> None:
    found = {(lint.slug, lint.path) for lint in from_function(create_invoice).lints}
    assert {
        ("money_as_float", "amount"),
        ("date_as_string", "due_date"),
        ("enum_case", "status"),
        ("untyped_map", "metadata"),
        ("vague_parameter_description", "customer"),
    } <= found


@pytest.mark.parametrize("fn", [search_issues, transfer_funds], ids=["search_issues", "transfer_funds"])
def test_good_examples_have_no_lints(fn: Any) -> None:
    assert from_function(fn).lints == ()


# -- functions the tests have never seen ------------------------------------------------------------------
UNSEEN_TYPES: dict[str, Any] = {
    "str": str,
    "int": int,
    "float": float,
    "bool": bool,
    "date": date,
    "datetime": datetime,
    "uuid": UUID,
    "decimal": Decimal,
    "level": Level,
    "literal": Literal["alpha", "beta", "gammaRay"],
    "list": list[str],
    "map": dict[str, int],
    "box": Box,
}
WORDS = ("value", "the", "customer", "window", "page", "limit", "account", "used", "for", "sorting", "only")


def render_doc(style: str, summary: str, docs: dict[str, str]) -> str:
    if style == "google":
        body = "".join(f"    {name}: {text}\n" for name, text in docs.items())
        return f"{summary}\n\nArgs:\n{body}"
    if style == "numpy":
        body = "".join(f"{name}\n    {text}\n" for name, text in docs.items())
        return f"{summary}\n\nParameters\n----------\n{body}"
    return f"{summary}\n\n" + "".join(f":param {name}: {text}\n" for name, text in docs.items())


@st.composite
def unseen_functions(draw: st.DrawFn) -> tuple[Any, list[tuple[str, Any, bool, bool, str]]]:
    identifiers = st.from_regex(r"[a-z][a-z0-9_]{0,12}", fullmatch=True).filter(lambda n: not keyword.iskeyword(n))
    names = draw(st.lists(identifiers, min_size=1, max_size=6, unique=True))
    specs = []
    for name in names:
        kind = draw(st.sampled_from(sorted(UNSEEN_TYPES)))
        optional, has_default = draw(st.booleans()), draw(st.booleans())
        text = " ".join(draw(st.lists(st.sampled_from(WORDS), min_size=3, max_size=8))).capitalize() + "."
        specs.append((name, UNSEEN_TYPES[kind], optional, has_default, text))
    params = [
        inspect.Parameter(
            name,
            inspect.Parameter.KEYWORD_ONLY,
            annotation=(annotation | None) if optional else annotation,
            default=None if has_default else inspect.Parameter.empty,
        )
        for name, annotation, optional, has_default, _ in specs
    ]

    def fn(**kwargs: Any) -> None:
        pass

    fn.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    style = draw(st.sampled_from(["google", "numpy", "rest"]))
    fn.__doc__ = render_doc(style, "Do a generated thing.", {name: spec[-1] for name, *spec in specs})
    return fn, specs


@settings(max_examples=40, deadline=None, derandomize=True, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(unseen_functions())
def test_unseen_functions_keep_names_descriptions_nullability_enums_and_formats(
    generated: tuple[Any, list[tuple[str, Any, bool, bool, str]]],
) -> None:
    fn, specs = generated
    tool = from_function(fn)
    genai_types.FunctionDeclaration.model_validate(tool.declaration)
    params = tool.declaration["parameters"]
    assert list(params["properties"]) == [name for name, *_ in specs]
    assert params.get("required", []) == [name for name, _, _, has_default, _ in specs if not has_default]
    for name, annotation, optional, has_default, text in specs:
        declared = params["properties"][name]
        assert declared["description"] == text
        if optional or has_default:  # a None default makes the parameter nullable too
            assert declared.get("nullable") is True, name
        if annotation is date:
            assert declared["format"] == "date"
        if annotation is datetime:
            assert declared["format"] == "date-time"
        if annotation is Level:
            assert declared["enum"] == ["low", "high"]
        if typing.get_origin(annotation) is Literal:
            assert declared["enum"] == ["alpha", "beta", "gammaRay"]
