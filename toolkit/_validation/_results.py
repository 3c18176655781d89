"""The validator's envelopes, made at the cost of the call they answer.

A frozen dataclass writes each field through ``object.__setattr__`` and then runs ``__post_init__``: for a
:class:`~toolkit._envelope.ToolResult` that costs more than validating a typical call. The validator only
ever makes a few fixed shapes (an ok result with cleaned data, an invalid one with field errors, a field
error), with arguments it has already checked, so these constructors fill the slots directly. What they make
is the same value the dataclass makes (equal, same type, same fields); ``tests/test_validation_generated.py``
holds them to it, and :data:`RESULT_FIELDS` / :data:`ERROR_FIELDS` to the dataclasses' own field lists.
"""

from __future__ import annotations

from typing import Any

from toolkit._envelope import FieldError, Notice, ToolResult

__all__ = ["ERROR_FIELDS", "RESULT_FIELDS", "field_error", "invalid_result", "ok_result"]

RESULT_FIELDS = ("status", "data", "errors", "notices", "replay", "retryable", "message")
"""The fields :func:`ok_result` and :func:`invalid_result` fill, in :class:`ToolResult`'s order."""
ERROR_FIELDS = ("field", "code", "problem", "expected")
"""The fields :func:`field_error` fills, in :class:`FieldError`'s order."""

_new = object.__new__
_status, _data, _errors, _notices, _replay, _retryable, _message = (
    ToolResult.__dict__[name].__set__ for name in RESULT_FIELDS
)
_field, _code, _problem, _expected = (FieldError.__dict__[name].__set__ for name in ERROR_FIELDS)


def ok_result(data: Any, notices: tuple[Notice, ...]) -> ToolResult:
    """``ToolResult("ok", data=data, notices=notices)``."""
    result = _new(ToolResult)
    _status(result, "ok")
    _data(result, data)
    _errors(result, ())
    _notices(result, notices)
    _replay(result, None)
    _retryable(result, None)
    _message(result, "")
    return result


def invalid_result(errors: tuple[FieldError, ...], notices: tuple[Notice, ...] = ()) -> ToolResult:
    """``ToolResult("invalid_arguments", errors=errors, notices=notices)``."""
    result = _new(ToolResult)
    _status(result, "invalid_arguments")
    _data(result, None)
    _errors(result, errors)
    _notices(result, notices)
    _replay(result, None)
    _retryable(result, None)
    _message(result, "")
    return result


def field_error(field: str, code: str, problem: str, expected: str) -> FieldError:
    """``FieldError(field, code, problem, expected)``."""
    error = _new(FieldError)
    _field(error, field)
    _code(error, code)
    _problem(error, problem)
    _expected(error, expected)
    return error
