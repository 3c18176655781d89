"""The envelope's closed vocabularies: the ``code`` of a :class:`~toolkit.FieldError` and the ``action`` of a
:class:`~toolkit.Notice`, each a ``Literal`` alias (mypy checks every literal passed where the alias is the
parameter type) and a table with a one-line meaning per entry (``docs/reference.md`` is rendered
from it; ``tests/package/test_vocabularies.py`` keeps alias, table and the package's source in step).

These are the codes and actions the package itself writes. :class:`~toolkit.FieldError` and
:class:`~toolkit.Notice` stay open ``str`` fields, so a tool's own domain checks may add codes of their own.
A key with ``<...>`` in it names a family: the runtime fills in the part in brackets (``http_405``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

__all__ = ["FIELD_CODES", "NOTICE_ACTIONS", "FieldCode", "NoticeAction"]

FieldCode = Literal[
    "ambiguous",
    "bad_format",
    "bad_header_value",
    "bad_property_name",
    "conflict",
    "domain_rule",
    "duplicate_items",
    "forbidden",
    "gone",
    "idempotency_key_reused",
    "invalid_json",
    "missing",
    "no_branch_matched",
    "not_allowed",
    "not_found",
    "not_in_enum",
    "not_finite",
    "not_multiple",
    "out_of_range",
    "path_traversal",
    "pattern_mismatch",
    "pattern_too_slow",
    "precondition_failed",
    "server_rejected",
    "too_deep",
    "too_few_items",
    "too_few_properties",
    "too_large",
    "too_long",
    "too_many_items",
    "too_many_properties",
    "too_short",
    "unknown_property",
    "unknown_tool",
    "wrong_type",
]

FIELD_CODES: Mapping[str, str] = {
    "ambiguous": "the value matches more than one `oneOf` alternative",
    "bad_format": "a string breaks its `format` (date, date-time, email, uuid, uri, ...)",
    "bad_header_value": "an argument sent as an HTTP header holds control or non-ASCII characters",
    "bad_property_name": "an object key breaks the object's `propertyNames` rule",
    "conflict": "the API answered 409: the resource's current state does not allow the request",
    "domain_rule": "the arguments are well-formed but a domain rule refuses them (status `rejected`)",
    "duplicate_items": "an array with `uniqueItems` holds two equal items",
    "forbidden": "the API answered 403: the caller may not take this action",
    "gone": "the API answered 410: the resource no longer exists",
    "http_<status>": "the API answered another 4xx status, named in the code (`http_405`, `http_418`, ...)",
    "idempotency_key_reused": "a caller's idempotency key already names a call with other arguments (hashes named)",
    "invalid_json": "the arguments are not JSON: not UTF-8, not JSON text, or data JSON cannot hold (a set, a cycle)",
    "missing": "a required field is absent (also a `dependentRequired` field, or an empty HTTP path parameter)",
    "no_branch_matched": "the value has a type some alternative accepts but matches none of the alternatives",
    "not_allowed": "a value where the schema allows none (the `false` schema) or one that `not` forbids",
    "not_found": "the API answered 404: no such resource (look the id up first)",
    "not_in_enum": "the value is not one of the `enum` values (or not the `const`)",
    "not_finite": "a number is NaN or infinite (or JSON text such as 1e400 that no float holds)",
    "not_multiple": "a number is not a multiple of `multipleOf`",
    "out_of_range": "a number is outside `minimum`/`maximum` or its integer format (int32), or has over 4,300 digits",
    "path_traversal": "a path parameter is `.` or `..`",
    "pattern_mismatch": "a string does not match its `pattern`",
    "pattern_too_slow": "a string's `pattern` (or a key's `patternProperties` pattern) could not be checked in time",
    "precondition_failed": "the API answered 412: a precondition of the request does not hold",
    "server_rejected": "the API answered 400 or 422: it found the arguments malformed",
    "too_deep": "the data nests deeper than 64 levels (or the schema refers to itself without end)",
    "too_few_items": "an array is shorter than `minItems`, or has fewer `contains` matches than `minContains`",
    "too_few_properties": "an object has fewer fields than `minProperties`",
    "too_large": "the arguments are larger than the validator reads (8 MiB of JSON text)",
    "too_long": "a string is longer than `maxLength`",
    "too_many_items": "an array is longer than `maxItems`, or has more `contains` matches than `maxContains`",
    "too_many_properties": "an object has more fields than `maxProperties`",
    "too_short": "a string is shorter than `minLength` (or empty)",
    "unknown_property": "a field the schema does not declare (refused at every depth unless the policy allows it)",
    "unknown_tool": "the model called a tool name the request did not offer (`expected` lists the names)",
    "wrong_type": "the JSON type is wrong (a string for an integer, ...), or the arguments are not an object",
}
"""Every ``FieldError.code`` the package writes, with what it tells the model."""

NoticeAction = Literal[
    "clamped",
    "clock_skew",
    "coerced_enum",
    "defaulted",
    "errors_truncated",
    "late_completion",
    "normalised_case",
    "null_as_absent",
    "outcome_unknown",
    "trimmed",
    "unrecorded",
]

NOTICE_ACTIONS: Mapping[str, str] = {
    "clamped": "a read parameter outside its range was set to the nearest bound (`from` the value, `to` the bound)",
    "clock_skew": "a replay whose original call is dated in this caller's future (a wall clock is off)",
    "coerced_enum": "a string the declaration shows for a non-string enum member was read as that member",
    "defaulted": "an absent optional field (or a null read as absent) took its documented default (`to`)",
    "errors_truncated": "more field errors were found than an envelope carries (50); `to` counts those not shown",
    "late_completion": "the effect was applied after another caller took the claim over; the ledger reports it",
    "normalised_case": "an enum value in another letter case was read as the declared member (case policy)",
    "null_as_absent": "a null for an optional field without a default was read as absent",
    "outcome_unknown": "a write may have been applied but its answer was lost; the message says what is safe next",
    "trimmed": "the result was cut to fit: fields dropped, a list shortened (`to` items), or a byte budget",
    "unrecorded": "the ledger could not record the outcome in time; it is kept aside for the next identical call",
}
"""Every ``Notice.action`` the package writes, with what it tells the model."""
