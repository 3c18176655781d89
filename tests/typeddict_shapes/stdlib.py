"""TypedDicts written with the standard library's ``typing`` module."""

from __future__ import annotations

import typing
from typing import Annotated, Generic, Optional, TypeVar

from pydantic import Field

T = TypeVar("T")


class Address(typing.TypedDict):
    """A postal address.

    Attributes:
        street: Street and house number.
        city: City or town name.
    """

    street: str
    city: str


class Options(typing.TypedDict, total=False):
    """Search options."""

    limit: typing.Required[int]
    sort: str
    tags: list[str]


class Extended(Options):
    """Search options with a home address."""

    home: typing.NotRequired[Address]
    flags: dict[str, Optional[Address]]  # noqa: UP045 - the typing form under test
    note: Annotated[str, Field(description="Free text for the support team.", max_length=20)]


class Node(typing.TypedDict):
    """A node of a category tree."""

    name: str
    children: list[Node]


class Page(typing.TypedDict, Generic[T]):
    """One page of results."""

    items: list[T]
    next: typing.NotRequired[str | None]


def ship(
    to: Address,
    options: Extended,
    tree: Node | None = None,
    pages: list[Page[int]] | None = None,
    addresses: Page[Address] | None = None,
) -> dict[str, object]:
    """Ship a parcel.

    Args:
        to: Where the parcel goes.
        options: How to search for a carrier.
        tree: The category tree the parcel belongs to.
        pages: Pages of carrier ids already tried.
        addresses: Pages of other addresses to try.
    """
    return {"to": to, "options": options, "tree": tree, "pages": pages, "addresses": addresses}
