"""The validator's envelopes, made at the cost of the call they answer.

A frozen dataclass's constructor writes each field through ``object.__setattr__`` and then runs
``__post_init__``: for a :class:`~toolkit._envelope.ToolResult` that costs more than validating a typical call.
The validator only ever makes a few fixed shapes (an ok result with cleaned data, an invalid one with field
errors, a field error), from values it has already checked. So each is made as the envelope class's own
object (``object.__new__``) whose slots are filled through the slots' own descriptors, which is what the
constructor does, without its checks. What comes out is the value the dataclass makes: equal, of the same
type, with the same fields. ``tests/validation/test_validation_generated.py`` holds them to it, and
:data:`RESULT_FIELDS` / :data:`ERROR_FIELDS` to the dataclasses' own field lists.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from toolkit._envelope import FieldError, Notice, ToolResult

__all__ = [
    "ERROR_FIELDS",
    "OK_NAMESPACE",
    "RESULT_FIELDS",
    "field_error",
    "invalid_of",
    "invalid_result",
    "ok_lines",
    "ok_result",
]

RESULT_FIELDS = ("status", "data", "errors", "notices", "replay", "retryable", "message")
"""The fields :func:`ok_result` and :func:`invalid_result` fill, in :class:`ToolResult`'s order."""
ERROR_FIELDS = ("field", "code", "problem", "expected")
"""The fields :func:`field_error` fills, in :class:`FieldError`'s order."""


def _setters(cls: type, fields: tuple[str, ...]) -> tuple[Callable[[Any, Any], None], ...]:
    """The ``__set__`` of each field's slot descriptor (a slotted dataclass keeps one per field)."""
    return tuple(vars(cls)[name].__set__ for name in fields)


_new = object.__new__
_RESULT_SETTERS = _setters(ToolResult, RESULT_FIELDS)
_status, _data, _errors, _notices, _replay, _retryable, _message = _RESULT_SETTERS
_field, _code, _problem, _expected = _setters(FieldError, ERROR_FIELDS)

OK_NAMESPACE: dict[str, Any] = {
    "_new": _new,
    "_ToolResult": ToolResult,
    **{f"_set_{name}": setter for name, setter in zip(RESULT_FIELDS, _RESULT_SETTERS, strict=True)},
}
"""The names :func:`ok_lines` refers to (generated fast paths put them in their namespace)."""


def ok_lines(data: str, notices: str) -> list[str]:
    """Source lines returning ``ToolResult("ok", data=<data>, notices=<notices>)``, given as expressions: what
    :func:`ok_result` runs, for generated code to run inline."""
    values = {"status": "'ok'", "data": data, "errors": "()", "notices": notices, "replay": "None"}
    values |= {"retryable": "None", "message": "''"}
    return ["result = _new(_ToolResult)", *(f"_set_{name}(result, {values[name]})" for name in RESULT_FIELDS),
            "return result"]  # fmt: skip


def _ok_function() -> Callable[[Any, tuple[Notice, ...]], ToolResult]:
    namespace = dict(OK_NAMESPACE)
    body = "".join(f"    {line}\n" for line in ok_lines("data", "notices"))
    exec(f"def ok_result(data, notices):\n{body}", namespace)  # fixed text: no value enters it
    function: Callable[[Any, tuple[Notice, ...]], ToolResult] = namespace["ok_result"]
    return function


ok_result = _ok_function()
"""``ToolResult("ok", data=data, notices=notices)``."""


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


def invalid_of(errors: list[FieldError], more: int) -> ToolResult:
    """The envelope of a run's field errors, with a notice counting the ``more`` beyond those kept."""
    notices: tuple[Notice, ...] = ()
    if more:
        total = len(errors) + more
        notices = (Notice("", "errors_truncated", f"{more:,} more field errors ({total:,} in all) are not shown; "
                          f"fix these {len(errors)} and call again", to=more),)  # fmt: skip
    return invalid_result(tuple(errors), notices)


def field_error(field: str, code: str, problem: str, expected: str) -> FieldError:
    """``FieldError(field, code, problem, expected)``."""
    error = _new(FieldError)
    _field(error, field)
    _code(error, code)
    _problem(error, problem)
    _expected(error, expected)
    return error
