"""The per-operation refusal signal: raised inside one operation's build, turned into a ``Rejection``.

It never leaves the package: :func:`toolkit.from_openapi` catches it per operation, so one bad operation
(a dangling ``$ref``, a multipart body, an unsupported schema) never aborts the rest of the toolset.

:data:`SLUGS` is the one table of refusal slugs (``Rejection.slug``) with their meanings (the README's
reference section is rendered from it); :data:`RefusalSlug` is its ``Literal`` alias, so mypy checks every
literal passed to :class:`Refusal` and ``Candidate.reject``. ``tests/package/test_vocabularies.py`` keeps both in
step with the package's source.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from toolkit._schema import REF_SLUGS

__all__ = ["SCHEMA_REFUSALS", "SLUGS", "Refusal", "RefusalSlug"]

RefusalSlug = Literal[
    "missing_operation_id",
    "duplicate_operation_id",
    "missing_description",
    "multipart_body",
    "form_body",
    "binary_body",
    "unsupported_media_type",
    "name_too_long",
    "bad_tool_name",
    "name_collision",
    "argument_collision",
    "bad_argument_name",
    "bad_parameter",
    "bad_request_body",
    "bad_responses",
    "bad_ref",
    "remote_ref",
    "unresolved_ref",
    "left_recursive_ref",
    "unsupported_schema",
    "bad_keyword",
    "bad_pattern",
    "unsupported_keyword",
    "unsatisfiable_schema",
    "schema_too_deep",
    "schema_too_large",
    "declaration_over_budget",
    "over_toolset_budget",
    "deprecated",
    "unknown_operation",
    "lowering_failed",
    "internal_error",
]

SLUGS: Mapping[str, str] = {
    "missing_operation_id": "the operation has no operationId and the extension names no tool",
    "duplicate_operation_id": (
        "two operations share one operationId (name the ones to build by METHOD /path in the overrides)"
    ),
    "missing_description": "no description anywhere (extension, overrides, operation or path item)",
    "multipart_body": "the request body is multipart/form-data with fields",
    "form_body": "the request body is an application/x-www-form-urlencoded form whose schema is not an object",
    "binary_body": "the request body is binary (octet-stream, images, files)",
    "unsupported_media_type": "the request body has neither a JSON nor a form-urlencoded media type",
    "name_too_long": "the tool name is longer than 128 characters",
    "bad_tool_name": "reserved: the tool name cannot be made valid (names are sanitised, so no refusal uses it today)",
    "name_collision": "two operations give the same tool name after sanitising",
    "argument_collision": "two arguments give the same name after sanitising",
    "bad_argument_name": "an argument name cannot be made valid (empty or over 64 characters)",
    "bad_parameter": "a parameter object is malformed",
    "bad_request_body": "the request body object is malformed",
    "bad_responses": "the responses object (or one response) is malformed",
    **REF_SLUGS,  # a $ref that cannot be read: the slugs every stage uses
    "unsupported_schema": "a schema uses a construct that cannot be read",
    "bad_keyword": "a schema keyword's value has a shape JSON Schema 2020-12 does not allow (so it cannot be enforced)",
    "bad_pattern": "a `pattern` (or `patternProperties` key) is not an ECMA-262 regular expression",
    "unsupported_keyword": "a keyword of an older draft that 2020-12 replaced, which would be silently ignored",
    "unsatisfiable_schema": "a schema no value can satisfy, with no one reading to repair it (the node and why)",
    "schema_too_deep": "a schema nests deeper than the limit",
    "schema_too_large": "an operation needs more shared schemas than the limit",
    "declaration_over_budget": (
        "the declaration is over a budget the author set even with every reduction (the default one builds it: TK504)"
    ),
    "over_toolset_budget": "the toolset's declarations are over its `toolset_budget`: the largest tools are refused",
    "deprecated": "the operation is deprecated (pass include_deprecated=True)",
    "unknown_operation": "the overrides name an operationId or a location (METHOD /path) the document does not have",
    "lowering_failed": "the arguments schema could not be lowered",
    "internal_error": "an unexpected error (a bug: please report it with the spec)",
}
"""Every refusal slug with a one-line meaning (the table the docs and the summary use).

An entry whose meaning starts with ``reserved:`` is part of the vocabulary but raised nowhere today."""


class Refusal(Exception):
    """One operation cannot become a tool; ``slug`` is one of :data:`SLUGS`."""

    def __init__(self, slug: RefusalSlug, message: str) -> None:
        super().__init__(message)
        assert slug in SLUGS, slug
        self.slug = slug
        self.message = message

    def again(self) -> Refusal:
        """This refusal afresh, with no traceback or context: what a memo keeps, and what it raises each time.
        A refusal that was raised holds the frames it passed through, and they reach the memo that keeps it:
        a cycle that holds the whole build (document, resolver, memos) until the cyclic collector runs."""
        return Refusal(self.slug, self.message)


SCHEMA_REFUSALS: Mapping[str, RefusalSlug] = {
    "bad_keyword": "bad_keyword",
    "bad_pattern": "bad_pattern",
    "unsupported_keyword": "unsupported_keyword",
    "bad_ref": "bad_ref",
    "remote_ref": "remote_ref",
    "unresolved_ref": "unresolved_ref",
    "left_recursive_ref": "left_recursive_ref",
    "declaration_over_budget": "declaration_over_budget",
    "unsatisfiable_schema": "unsatisfiable_schema",
}
"""The :class:`~toolkit.SchemaError` slugs with which building a tool refuses its schema (the validator could
not enforce it), each the refusal slug an operation gets for it: the same word."""
