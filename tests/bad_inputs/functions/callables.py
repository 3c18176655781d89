"""Callables that cannot become tools, each with the error slug ``from_function`` must refuse it with.

Each entry of :data:`BAD` is ``(id, callable, from_function options, expected slug)``.
"""

from __future__ import annotations

import socket
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any
from typing import TypedDict as PlainTypedDict  # pydantic refuses typing.TypedDict in a field on Python < 3.12

from pydantic import Field

from toolkit import ToolContext


def varargs(*ids: int) -> None:
    """Delete records by id."""


def varkw(**options: str) -> None:
    """Set options."""


def positional_only(record_id: int, /) -> None:
    """Delete a record."""


def missing_annotation(record_id) -> None:  # type: ignore[no-untyped-def]
    """Delete a record."""


def unicode_name(größe: int) -> None:
    """Set the size."""


def long_name(a_parameter_name_that_goes_on_and_on_well_past_the_sixty_four_character_limit: int) -> None:
    """Do something."""


def unsupported(sock: socket.socket) -> None:
    """Read from a socket."""


def callable_param(callback: Callable[[int], int]) -> None:
    """Run a callback."""


class LegacyDict(PlainTypedDict):
    key: str


@dataclass
class Envelope:
    """A record holding a stdlib TypedDict: pydantic reads this field itself, before toolkit can convert it."""

    body: LegacyDict


def legacy_typed_dict_in_dataclass(value: Envelope) -> None:
    """Store a value."""


def context_or_data(value: ToolContext | str) -> None:
    """Take either a context or a string."""


def unresolved(value: NotDefinedAnywhere) -> None:  # type: ignore[name-defined]  # noqa: F821
    """Refer to a missing type."""


def missing_attribute(value: socket.NoSuchSocketType) -> None:  # type: ignore[name-defined]
    """Refer to a module attribute that does not exist."""


def two_contexts(first: ToolContext, second: ToolContext) -> None:
    """Take the context twice."""


class Service:
    def method(self, value: int) -> None:
        """Do something with a value."""


def crossed_bounds(page: Annotated[int, Field(ge=10, le=5)]) -> None:
    """Read one page: no integer is at least 10 and at most 5."""


def crossed_lengths(code: Annotated[str, Field(min_length=8, max_length=4)]) -> None:
    """Check a code: no string is at least 8 and at most 4 characters long."""


def fine(value: int) -> None:
    """Do something with a value."""


BAD: tuple[tuple[str, Any, dict[str, Any], str], ...] = (
    ("varargs", varargs, {}, "varargs"),
    ("varkw", varkw, {}, "varkw"),
    ("positional_only", positional_only, {}, "positional_only"),
    ("missing_annotation", missing_annotation, {}, "missing_annotation"),
    ("unicode_parameter_name", unicode_name, {}, "bad_parameter_name"),
    ("parameter_name_over_64", long_name, {}, "bad_parameter_name"),
    ("socket_type", unsupported, {}, "unsupported_type"),
    ("callable_type", callable_param, {}, "unsupported_type"),
    ("typing_typeddict_inside_a_dataclass", legacy_typed_dict_in_dataclass, {}, "unsupported_type"),
    ("context_or_data_union", context_or_data, {}, "mixed_context"),
    ("unresolved_annotation", unresolved, {}, "unresolved_annotation"),
    ("missing_module_attribute", missing_attribute, {}, "unresolved_annotation"),
    ("two_contexts", two_contexts, {}, "duplicate_context"),
    ("unbound_method", Service.method, {}, "unbound_method"),
    ("not_callable", 42, {}, "not_callable"),
    ("raw_staticmethod", staticmethod(fine), {}, "not_callable"),
    ("lambda_without_name", lambda: 0, {}, "lambda_needs_name"),
    ("bad_tool_name", fine, {"name": "has spaces"}, "bad_tool_name"),
    ("bad_namespace", fine, {"namespace": "9/lives"}, "bad_tool_name"),
    ("name_over_128", fine, {"name": "n" * 129}, "bad_tool_name"),
    ("unknown_effect", fine, {"effect": "delete"}, "bad_effect"),
    ("crossed_bounds", crossed_bounds, {}, "unsatisfiable_schema"),
    ("crossed_lengths", crossed_lengths, {}, "unsatisfiable_schema"),
)
