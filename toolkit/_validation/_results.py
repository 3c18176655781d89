"""The validator's envelopes, made at the cost of the call they answer.

A frozen dataclass writes each field through ``object.__setattr__`` and then runs ``__post_init__``: for a
:class:`~toolkit._envelope.ToolResult` that costs more than validating a typical call. The validator only
ever makes a few fixed shapes (an ok result with cleaned data, an invalid one with field errors, a field
error), from values it has already checked. So each is filled as a *blank*: a plain class with the same base
and the same slots in the same order (the same memory layout), whose slots take ordinary assignments; then
the object becomes the envelope class (``__class__`` assignment, which Python allows between layouts that
match). What comes out is the same value the dataclass makes: equal, of the same type, with the same
fields. ``tests/test_validation_generated.py`` holds them to it, and :data:`RESULT_FIELDS` /
:data:`ERROR_FIELDS` to the dataclasses' own field lists.
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


def _blank(cls: type, fields: tuple[str, ...]) -> Any:
    """A mutable class with ``cls``'s layout: its base, and the same slots in the same order."""
    return type(f"_Blank{cls.__name__}", cls.__bases__, {"__slots__": fields})


_Result: Any = _blank(ToolResult, RESULT_FIELDS)
_Error: Any = _blank(FieldError, ERROR_FIELDS)


OK_NAMESPACE: dict[str, Any] = {"_Blank": _Result, "_ToolResult": ToolResult}
"""The names :func:`ok_lines` refers to (generated fast paths put them in their namespace)."""


def ok_lines(data: str, notices: str) -> list[str]:
    """Source lines returning ``ToolResult("ok", data=<data>, notices=<notices>)``, given as expressions: what
    :func:`ok_result` runs, for generated code to run inline."""
    return [
        "result = _Blank()",
        "result.status = 'ok'",
        f"result.data = {data}",
        "result.errors = ()",
        f"result.notices = {notices}",
        "result.replay = None",
        "result.retryable = None",
        "result.message = ''",
        "result.__class__ = _ToolResult",
        "return result",
    ]


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
    result = _Result()
    result.status = "invalid_arguments"
    result.data = None
    result.errors = errors
    result.notices = notices
    result.replay = None
    result.retryable = None
    result.message = ""
    result.__class__ = ToolResult
    return result  # type: ignore[no-any-return]


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
    error = _Error()
    error.field = field
    error.code = code
    error.problem = problem
    error.expected = expected
    error.__class__ = FieldError
    return error  # type: ignore[no-any-return]
