"""The validator's envelopes, made at the cost of the call they answer.

A frozen dataclass's constructor writes each field through ``object.__setattr__`` and then runs
``__post_init__``: for a :class:`~toolkit._envelope.ToolResult` that costs more than validating a typical call.
The validator only ever makes a few fixed shapes (an ok result with cleaned data, an invalid one with field
errors, a field error), from values it has already checked, so it makes each as the envelope class's own
object (``object.__new__``) and fills its fields directly, without the constructor's checks:

* a :class:`~toolkit._envelope.ToolResult` keeps its fields in its ``__dict__`` and its defaults on the class,
  so only the fields that differ from a default are written into the new object's dictionary (an ok result:
  ``status`` and ``data``, and ``notices`` when there are some);
* a :class:`~toolkit._envelope.FieldError`'s four fields are written into its ``__dict__`` in the same way.

:func:`safe_message` is what an envelope says of an exception (a domain check's, or the tool's own).

What comes out is the value the dataclass makes: equal, of the same type, with the same fields.
``tests/validation/test_validation_generated.py`` holds them to it, and :data:`ERROR_FIELDS` to
the dataclass's own field list.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from toolkit._envelope import FieldError, Notice, ToolResult

__all__ = [
    "ERROR_FIELDS",
    "OK_NAMESPACE",
    "field_error",
    "invalid_of",
    "invalid_result",
    "ok_lines",
    "ok_result",
    "safe_message",
]

ERROR_FIELDS = ("field", "code", "problem", "expected")
"""The fields :func:`field_error` fills, in :class:`FieldError`'s order."""


_new = object.__new__

OK_NAMESPACE: dict[str, Any] = {"_new": _new, "_ToolResult": ToolResult}
"""The names :func:`ok_lines` refers to (generated fast paths put them in their namespace)."""


def ok_lines(data: str, notices: str) -> list[str]:
    """Source lines returning ``ToolResult("ok", data=<data>, notices=<notices>)``, given as expressions: what
    :func:`ok_result` runs, for generated code to run inline. Notices given as ``"()"`` (the default) are not
    written."""
    lines = ["result = _new(_ToolResult)", "fields = result.__dict__", "fields['status'] = 'ok'",
             f"fields['data'] = {data}"]  # fmt: skip
    if notices != "()":
        lines.append(f"fields['notices'] = {notices}")
    return [*lines, "return result"]


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
    fields = result.__dict__
    fields["status"] = "invalid_arguments"
    fields["errors"] = errors
    if notices:
        fields["notices"] = notices
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
    fields = error.__dict__
    fields["field"] = field
    fields["code"] = code
    fields["problem"] = problem
    fields["expected"] = expected
    return error


def safe_message(exc: BaseException) -> str:
    """``"ValueError: first line of the message"``: enough for the model, never a traceback."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    text = text if len(text) <= 200 else text[:197] + "..."
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
