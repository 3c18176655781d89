"""A catalogue of example functions: every supported type, all three docstring styles, and every trap.

Each entry of :data:`CASES` is a :class:`Case` (a readable id, the callable, and ``from_function`` options).
``tests/from_python/test_function_catalogue.py`` builds a tool from each and compares it with the golden file
``tests/golden/functions/<id>.json`` (declaration, losses, lints). Annotations here are strings
(``from __future__ import annotations``) on purpose: the signature reader must resolve them.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, time
from decimal import Decimal
from enum import Enum, IntEnum, StrEnum
from typing import Annotated, Any, Literal, NotRequired, Optional
from uuid import UUID

from pydantic import BaseModel, Field
from typing_extensions import TypedDict

from toolkit import ToolContext, examples

# ruff: noqa: UP045 - Optional[...] is spelled out on purpose: it must mean exactly what `X | None` means.


@dataclass(frozen=True)
class Case:
    id: str
    fn: Callable[..., Any]
    options: dict[str, Any] = field(default_factory=dict)


# -- types used by the catalogue -------------------------------------------------------------------------
class Color(str, Enum):  # noqa: UP042 - the classic str-mixin enum is a supported spelling
    """A paint colour."""

    RED = "red"
    GREEN = "green"
    DARK_BLUE = "dark_blue"


class Priority(IntEnum):
    LOW = 1
    MEDIUM = 2
    HIGH = 3


class ShippingSpeed(StrEnum):
    STANDARD_GROUND = "STANDARD_GROUND"
    NEXT_DAY_AIR = "NEXT_DAY_AIR"


class SortOrder(StrEnum):
    NEWEST = "newestFirst"
    OLDEST = "oldest_first"


class Address(BaseModel):
    """A postal address.

    Attributes:
        street: Street and house number, e.g. "12 Main Street".
        city: City name as printed on letters.
        postcode: Postal code in the country's own format.
    """

    street: str
    city: str
    postcode: str = ""


class Customer(BaseModel):
    """Who an order is for."""

    name: str = Field(description="Full name of the customer as it appears on invoices.")
    email: str = Field(pattern=r"^[^@\s]+@[^@\s]+$", description="Contact e-mail address of the customer.")
    address: Address


@dataclass
class LineItem:
    """One line of an order.

    Attributes
    ----------
    sku
        Stock keeping unit of the product, e.g. "SKU-1234".
    quantity
        Number of units to order, at least 1.
    gift_wrap
        Whether the line is gift wrapped before shipping.
    """

    sku: str
    quantity: int = 1
    gift_wrap: bool = False


class Window(TypedDict):
    """A time window.

    Attributes:
        start: First moment of the window, inclusive (ISO 8601 date-time).
        end: Last moment of the window, exclusive (ISO 8601 date-time); open-ended when omitted.
    """

    start: datetime
    end: NotRequired[datetime]


class Category(BaseModel):
    """A node of the product category tree; children are categories too."""

    name: str = Field(description="Display name of the category, unique among its siblings.")
    children: list[Category] = Field(default_factory=list, description="Sub-categories of this category.")


class Level3(BaseModel):
    code: str = Field(description="Innermost code value of the deeply nested structure.")


class Level2(BaseModel):
    inner: Level3 = Field(description="Third level of the nested structure, one more object.")


class Level1(BaseModel):
    middle: Level2 = Field(description="Second level of the nested structure, another object.")


class Filters(BaseModel):
    """Optional filters; extra keys are allowed by this model's own config."""

    model_config = {"extra": "allow"}
    tag: str | None = Field(None, description="Only items carrying this exact tag name.")


# -- scalars and docstring styles ------------------------------------------------------------------------
def scalars_google(name: str, count: int, ratio: float, enabled: bool) -> None:
    """Store a named counter.

    The counter is created when missing.

    Args:
        name: Unique name of the counter, lowercase letters only.
        count: Starting value of the counter, zero or more.
        ratio: Sampling ratio between 0 and 1 applied to increments.
        enabled: Whether the counter accepts increments right away.

    Returns:
        Nothing.
    """


def scalars_numpy(name: str, count: int, ratio: float, enabled: bool) -> None:
    """Store a named counter.

    The counter is created when missing.

    Parameters
    ----------
    name : str
        Unique name of the counter, lowercase letters only.
    count : int
        Starting value of the counter, zero or more.
    ratio : float
        Sampling ratio between 0 and 1 applied to increments.
    enabled : bool
        Whether the counter accepts increments right away.

    Returns
    -------
    None
    """


def scalars_rest(name: str, count: int, ratio: float, enabled: bool) -> None:
    """Store a named counter.

    The counter is created when missing.

    :param name: Unique name of the counter, lowercase letters only.
    :param count: Starting value of the counter, zero or more.
    :param ratio: Sampling ratio between 0 and 1 applied to increments.
    :param enabled: Whether the counter accepts increments right away.
    :returns: Nothing.
    """


def null_param(marker: None = None) -> None:
    """Clear the cache; the only accepted argument value is null.

    Args:
        marker: Always null; present to show how a None-typed parameter is declared.
    """


# -- optional, unions, literals, enums -------------------------------------------------------------------
def optional_without_default(note: Optional[str]) -> None:
    """Attach a note to the ticket.

    Args:
        note: Text of the note, or null to clear the existing note.
    """


def optional_pipe_with_default(note: str | None = None) -> None:
    """Attach a note to the ticket.

    Args:
        note: Text of the note, or null to clear the existing note.
    """


def optional_typing_with_default(note: Optional[str] = None) -> None:
    """Attach a note to the ticket.

    Args:
        note: Text of the note, or null to clear the existing note.
    """


def implicit_optional(note: str = None) -> None:  # type: ignore[assignment]  # noqa: RUF013
    """Attach a note to the ticket.

    Args:
        note: Text of the note, or null to clear the existing note.
    """


def scalar_union(key: int | str) -> None:
    """Look up a record by key.

    Args:
        key: Numeric record id, or the record's external string key.
    """


def literal_values(mode: Literal["fast", "safe"], level: Literal[1, 2, 3], kind: Literal["only"] = "only") -> None:
    """Run a job in a mode.

    Args:
        mode: How to run the job: "fast" skips checks, "safe" runs them all.
        level: Verbosity level of the job log, 1 (quiet) to 3 (chatty).
        kind: Job kind; only one kind exists today.
    """


def str_enum(color: Color, fallback: Color = Color.RED) -> None:
    """Paint the fence.

    Args:
        color: Paint colour for the fence boards.
        fallback: Paint colour used when the first one is out of stock.
    """


def int_enum(priority: Priority = Priority.MEDIUM) -> None:
    """Raise the priority of the ticket.

    Args:
        priority: New priority of the ticket: 1 low, 2 medium, 3 high.
    """


def screaming_enum(speed: ShippingSpeed) -> None:
    """Choose the shipping speed of the parcel.

    Args:
        speed: Carrier service level used to ship the parcel.
    """


def mixed_case_enum(order: SortOrder = SortOrder.NEWEST) -> None:
    """List the orders of the current customer.

    Args:
        order: Sort order of the listed orders, by creation time.
    """


# -- dates, ids, money -----------------------------------------------------------------------------------
def temporal(day: date, starts: datetime, opens_at: time) -> None:
    """Book a table.

    Args:
        day: Calendar day of the booking (ISO 8601, YYYY-MM-DD).
        starts: Start of the booking, an ISO 8601 date-time with a UTC offset.
        opens_at: Local time the kitchen opens on that day (HH:MM:SS).
    """


def uuid_param(request_id: UUID) -> None:
    """Cancel a pending request.

    Args:
        request_id: Id of the request to cancel, a UUID as returned by create_request.
    """


def decimal_money(amount: Annotated[Decimal, Field(ge=0, le=10000)], currency: str = "EUR") -> None:
    """Refund a payment.

    Args:
        amount: Refund amount in major units as a decimal string, e.g. "19.99"; 0 to 10000.
        currency: ISO 4217 code of the refund currency, three uppercase letters.
    """


def minor_units(amount_cents: Annotated[int, Field(ge=1)]) -> None:
    """Top up the prepaid balance.

    Args:
        amount_cents: Top-up amount in integer cents (minor units), at least 1.
    """


def float_money(price: float, shipping_fee: float = 0.0) -> None:
    """Set the list price of the product.

    Args:
        price: New list price of the product in euros.
        shipping_fee: Flat shipping fee added at checkout, in euros.
    """


def string_dates(since: str, created_at: str, ends_on: str | None = None) -> None:
    """List audit events in a period.

    Args:
        since: Start of the period, as typed by the user.
        created_at: Creation moment of the audited object, as stored upstream.
        ends_on: End of the period, as typed by the user; open-ended when omitted.
    """


# -- collections and maps --------------------------------------------------------------------------------
def collections_(
    tags: list[str],
    point: tuple[float, float],
    scores: tuple[int, ...],
    ids: set[int],
    frozen: frozenset[str] = frozenset(),
) -> None:
    """Tag a map point.

    Args:
        tags: Tag names to attach, in display order.
        point: Latitude and longitude of the point, in degrees.
        scores: Quality scores of the point, one per reviewer.
        ids: Ids of the reviewers, each listed once.
        frozen: Tag names that can no longer be removed.
    """


def typed_map(weights: dict[str, int]) -> None:
    """Set the ranking weights.

    Args:
        weights: Weight per ranking signal name, each an integer.
    """


def untyped_map(metadata: dict[str, Any]) -> None:
    """Attach metadata to the order.

    Args:
        metadata: Arbitrary key/value metadata stored with the order.
    """


def any_value(payload: Any) -> None:
    """Send a payload to the webhook.

    Args:
        payload: Body of the webhook call, forwarded unchanged.
    """


def object_value(payload: object) -> None:
    """Send a payload to the queue.

    Args:
        payload: Message body placed on the queue, forwarded unchanged.
    """


# -- models, dataclasses, TypedDicts ---------------------------------------------------------------------
def pydantic_model(address: Address) -> None:
    """Change the delivery address of the order.

    Args:
        address: New delivery address of the order.
    """


def nested_models(customer: Customer, billing: Address | None = None) -> None:
    """Register a customer.

    Args:
        customer: The customer to register, with their postal address.
        billing: Billing address when it differs from the customer address.
    """


def dataclass_items(items: list[LineItem]) -> None:
    """Add lines to the cart.

    Args:
        items: Lines to add to the cart, in display order.
    """


def typed_dict(window: Window) -> None:
    """Schedule maintenance in a time window.

    Args:
        window: When the maintenance may run.
    """


def recursive_model(root: Category) -> None:
    """Replace the category tree.

    Args:
        root: Root category of the new tree, with all its descendants.
    """


def deep_nesting(outer: Level1) -> None:
    """Store a deeply nested record.

    Args:
        outer: First level of the nested structure, an object.
    """


def open_model(filters: Filters) -> None:
    """Search products with filters.

    Args:
        filters: Filters applied to the product search.
    """


# -- constraints, descriptions, defaults -----------------------------------------------------------------
def numeric_constraints(
    page: Annotated[int, Field(ge=1, le=500)],
    temperature: Annotated[float, Field(gt=0, lt=2)],
    step: Annotated[int, Field(multiple_of=5)] = 10,
) -> None:
    """Sample generated text.

    Args:
        page: Page of results to return, 1 to 500.
        temperature: Sampling temperature, strictly between 0 and 2.
        step: Token step size, a multiple of 5.
    """


def string_constraints(
    username: Annotated[str, Field(min_length=3, max_length=20, pattern=r"^[a-z][a-z0-9_]*$")],
    tags: Annotated[list[str], Field(min_length=1, max_length=5)],
) -> None:
    """Create a user account.

    Args:
        username: Login name: 3 to 20 characters, lowercase letters, digits and underscores.
        tags: Between one and five tags describing the account.
    """


def field_description_wins(
    city: Annotated[str, Field(description="City to forecast, as an English city name.")],
    days: Annotated[int, "Number of days to forecast, 1 to 7."] = 3,
    units: str = "metric",
) -> None:
    """Forecast the weather.

    Args:
        city: This docstring line loses to the Field description.
        days: This docstring line loses to the Annotated text.
        units: Unit system of the forecast: "metric" or "imperial".
    """


def field_as_default(limit: int = Field(25, ge=1, le=50, description="Page size of the listing, 1 to 50.")) -> None:
    """List recent deployments."""


def defaults_of_every_kind(
    start: date = date(2026, 1, 1),
    color: Color = Color.GREEN,
    tags: list[str] = ["new"],  # noqa: B006 - a literal default the schema must show
    fee: Decimal = Decimal("2.50"),
    verbose: bool = False,
) -> None:
    """Export a report.

    Args:
        start: First calendar day included in the report.
        color: Accent colour of the report charts.
        tags: Tags printed on the report cover page.
        fee: Handling fee charged per exported report, as a decimal string.
        verbose: Whether the report lists every row instead of totals only.
    """


def keyword_only(*, query: str, exact: bool = False) -> None:
    """Find documents by title.

    Args:
        query: Words that must appear in the document title.
        exact: Whether the title must match the query exactly.
    """


def no_parameters() -> str:
    """Return the server's current status line."""
    return "ok"


# -- traps -----------------------------------------------------------------------------------------------
def no_docstring(user_id: str, limit: int = 10) -> None:
    pass


def vague_descriptions(user_id: str, mode: str, flag: bool) -> None:
    """Update the user.

    Args:
        user_id: The user id.
        mode: Mode.
        flag: A flag.
    """


def too_many_parameters(a1: int, a2: int, a3: int, a4: int, a5: int, a6: int, a7: int, a8: int, a9: int) -> None:
    """Sum nine numbers.

    Args:
        a1: First integer added to the sum.
        a2: Second integer added to the sum.
        a3: Third integer added to the sum.
        a4: Fourth integer added to the sum.
        a5: Fifth integer added to the sum.
        a6: Sixth integer added to the sum.
        a7: Seventh integer added to the sum.
        a8: Eighth integer added to the sum.
        a9: Ninth integer added to the sum.
    """


def awkward_names(json: str, model_id: str, title: str, schema: str = "public") -> None:
    """Rename a database object.

    Args:
        json: JSON text of the new object definition.
        model_id: Id of the object model being renamed.
        title: New human-readable title of the object.
        schema: Database schema that holds the object.
    """


def with_context(message: str, context: ToolContext) -> None:
    """Post a message to the current session.

    Args:
        message: Text of the message, plain text without markup.
        context: Injected by the runtime; never shown to the model.
    """


class Thermostat:
    """A thermostat whose methods become tools."""

    def set_target(self, celsius: Annotated[float, Field(ge=5, le=30)]) -> None:
        """Set the target temperature.

        Args:
            celsius: Target room temperature in degrees Celsius, 5 to 30.
        """

    @classmethod
    def describe(cls, verbose: bool = False) -> str:
        """Describe the thermostat model.

        Args:
            verbose: Whether to include the firmware version in the description.
        """
        return cls.__name__


class Greeter:
    """Say hello to someone by name."""

    def __call__(self, who: str) -> str:
        """
        Args:
            who: Name of the person to greet, as they wrote it.
        """
        return f"hello {who}"


def _scale(value: float, factor: float) -> float:
    """Scale a measurement.

    Args:
        value: Measurement to scale, in its own unit.
        factor: Multiplier applied to the measurement.
    """
    return value * factor


CASES: tuple[Case, ...] = (
    Case("scalars_google", scalars_google),
    Case("scalars_numpy", scalars_numpy),
    Case("scalars_rest", scalars_rest),
    Case("null_param", null_param),
    Case("optional_without_default", optional_without_default),
    Case("optional_pipe_with_default", optional_pipe_with_default),
    Case("optional_typing_with_default", optional_typing_with_default),
    Case("implicit_optional", implicit_optional),
    Case("scalar_union", scalar_union),
    Case("literal_values", literal_values),
    Case("str_enum", str_enum),
    Case("int_enum", int_enum),
    Case("screaming_enum", screaming_enum),
    Case("mixed_case_enum", mixed_case_enum),
    Case("temporal", temporal),
    Case("uuid_param", uuid_param),
    Case("decimal_money", decimal_money, {"namespace": "billing"}),
    Case("minor_units", minor_units),
    Case("float_money", float_money),
    Case("string_dates", string_dates, {"effect": "read"}),
    Case("collections", collections_, {"name": "collections"}),
    Case("typed_map", typed_map),
    Case("untyped_map", untyped_map),
    Case("any_value", any_value),
    Case("object_value", object_value),
    Case("pydantic_model", pydantic_model),
    Case("nested_models", nested_models),
    Case("dataclass_items", dataclass_items),
    Case("typed_dict", typed_dict),
    Case("recursive_model", recursive_model),
    Case("deep_nesting", deep_nesting),
    Case("open_model", open_model, {"effect": "read"}),
    Case("numeric_constraints", numeric_constraints, {"effect": "read"}),
    Case("string_constraints", string_constraints),
    Case("field_description_wins", field_description_wins, {"effect": "read"}),
    Case("field_as_default", field_as_default, {"effect": "read"}),
    Case("defaults_of_every_kind", defaults_of_every_kind),
    Case("keyword_only", keyword_only, {"effect": "read"}),
    Case("no_parameters", no_parameters, {"effect": "read"}),
    Case("no_docstring", no_docstring),
    Case("vague_descriptions", vague_descriptions),
    Case("too_many_parameters", too_many_parameters, {"effect": "read"}),
    Case("awkward_names", awkward_names),
    Case("with_context", with_context),
    Case("bound_method", Thermostat().set_target, {"namespace": "home"}),
    Case("class_method", Thermostat.describe, {"namespace": "home", "effect": "read"}),
    Case("callable_object", Greeter(), {"effect": "read"}),
    Case("partial", functools.partial(_scale, factor=2.0), {"name": "double", "description": "Double a value."}),
    Case("explicit_overrides", scalars_google, {"namespace": "ops", "name": "counter_put", "confirm": True}),
    Case("example_search_issues", examples.search_issues, {"namespace": "issues", "effect": "read"}),
    Case("example_transfer_funds", examples.transfer_funds, {"namespace": "payments", "confirm": True}),
    Case("example_create_invoice", examples.create_invoice, {"namespace": "billing"}),
)
