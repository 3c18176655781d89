"""Calling a function tool: validate, convert, confirm, call, and wrap whatever happens in a ToolResult.

:func:`call` never lets a model-caused problem escape as an exception:

* bad arguments → the validator's ``invalid_arguments`` / ``rejected`` envelope;
* a conversion that refuses the arguments (a pydantic validator, a ``ValueError`` in a converter) →
  ``rejected`` with field errors (a tool whose schema cannot state what its conversion enforces runs the
  conversion in ``validate`` too, through :func:`conversion_check`);
* parameters the runtime fills: toolkit's :class:`~toolkit.ToolContext` receives ``context``; a framework's
  context (``tool.contract.injected``) receives ``context.extras[name]`` (the adapter that runs the tool under
  its framework puts it there), its default when the call has none, and a required one without a value is a
  :class:`~toolkit.RuntimeConfigError` (``missing_context``) that says how to pass it;
* a tool marked ``confirm`` → ``needs_confirmation`` (with the cleaned arguments) until the runtime calls
  again with ``ToolContext(extras={"confirmed": True})`` — the signature ``call(args, context)`` has no
  other place for the user's "yes", and the context is what the runtime (not the model) controls;
* the function raising → ``status: "error"`` (``"timeout"`` for a ``TimeoutError``) with a safe message
  (exception type and the first line of its message, never a traceback) and a ``retryable`` flag: true for
  transient failures (timeouts, connection errors), false otherwise, unless the exception carries its own
  ``retryable`` attribute.

An ``async def`` tool is run to completion (see :func:`_settle`). The return value is made JSON-able
(dataclasses, pydantic models, dates, ``Decimal`` as a string so money keeps its digits, enums, sets, UUIDs);
a :class:`ToolResult` returned by the tool is passed through, with the validation notices added.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import enum
import inspect
import uuid
from collections.abc import Callable, Mapping
from decimal import Decimal
from pathlib import PurePath
from typing import TYPE_CHECKING, Any

from toolkit._context import ToolContext
from toolkit._envelope import FieldError, Status, ToolResult
from toolkit._exceptions import NotCallableError, RuntimeConfigError, ToolkitError
from toolkit._validation._expected import format_path
from toolkit._validation._results import safe_message

if TYPE_CHECKING:
    from toolkit._tool import Tool

__all__ = ["call", "conversion_check", "is_retryable", "to_jsonable"]

_TRANSIENT: tuple[type[BaseException], ...] = (TimeoutError, ConnectionError, InterruptedError, BlockingIOError)


def call(tool: Tool, args: Any, context: ToolContext | None = None) -> ToolResult:
    """Validate ``args``, convert them, call ``tool.fn`` and wrap the outcome. Never raises for bad args."""
    if tool.fn is None:
        raise NotCallableError(
            f"tool {tool.name!r} has no Python function to call; build it with toolkit.from_function, or call "
            "an OpenAPI tool through its generated module or the HTTP runtime"
        )
    checked = tool.validate(args)
    if not checked.ok:
        return checked
    context = context if context is not None else ToolContext(tool_name=tool.name)
    if tool.confirm and not context.extras.get("confirmed"):
        return ToolResult(
            "needs_confirmation",
            data={"tool": tool.name, "args": checked.data},
            notices=checked.notices,
            message="This action needs the user's confirmation; ask, then call again confirmed.",
        )
    kwargs = _convert(tool, checked.data)
    if isinstance(kwargs, ToolResult):
        return kwargs.with_notices(checked.notices)
    if tool.context_param:
        kwargs[tool.context_param] = context
    kwargs.update(_framework_contexts(tool, context))
    return _run(tool, kwargs).with_notices(checked.notices)


def _framework_contexts(tool: Tool, context: ToolContext) -> dict[str, Any]:
    """The values of the parameters a framework fills, from ``context.extras`` by parameter name."""
    found: dict[str, Any] = {}
    for injected in tool.contract.injected:
        if injected.framework == "toolkit":
            continue
        if injected.name in context.extras:
            found[injected.name] = context.extras[injected.name]
        elif injected.required:
            raise RuntimeConfigError(
                f"parameter {injected.name!r} of tool {tool.name!r} is filled by {injected.framework} "
                f"({injected.type}) when the tool runs under it; run it there (google-adk: "
                "toolkit.runtime.adk.to_adk(tool)), or pass the value: "
                f"tool.call(args, ToolContext(extras={{{injected.name!r}: ...}}))",
                slug="missing_context",
            )
    return found


def _convert(tool: Tool, cleaned: dict[str, Any]) -> dict[str, Any] | ToolResult:
    if tool.converter is None:
        return dict(cleaned)
    converted = _converted(tool.converter, cleaned)
    return ToolResult("rejected", errors=converted) if isinstance(converted, tuple) else converted


def _converted(
    converter: Callable[[dict[str, Any]], dict[str, Any]], args: dict[str, Any]
) -> dict[str, Any] | tuple[FieldError, ...]:
    """The arguments converted, or the field errors of what the conversion refused (a toolkit error is raised)."""
    try:
        return converter(args)
    except ToolkitError:
        raise
    except Exception as exc:  # the arguments are well-formed but a domain rule in the conversion refused them
        return _conversion_errors(exc)


def conversion_check(
    converter: Callable[[dict[str, Any]], dict[str, Any]],
) -> Callable[[Mapping[str, Any]], tuple[FieldError, ...]]:
    """A domain check that converts the checked arguments as :func:`call` will and reports what the conversion
    refuses: for a tool whose conversion enforces bounds its schema cannot state (a ``Decimal``'s ``Field(gt=0,
    decimal_places=2)``), so that ``validate`` refuses what ``call`` would, with the same errors."""

    def converts(args: Mapping[str, Any]) -> tuple[FieldError, ...]:
        converted = _converted(converter, dict(args))
        return converted if isinstance(converted, tuple) else ()

    return converts


def _conversion_errors(exc: Exception) -> tuple[FieldError, ...]:
    details = getattr(exc, "errors", None)
    if callable(details):
        try:
            found = [_pydantic_error(d) for d in details()]
        except Exception:
            found = []
        if found:
            return tuple(found)
    return (FieldError("", "domain_rule", safe_message(exc), "arguments the tool accepts"),)


def _pydantic_error(detail: Mapping[str, Any]) -> FieldError:
    loc: Any = None
    for part in detail.get("loc", ()):
        loc = (loc, part)
    message = str(detail.get("msg", "refused"))
    expected = str((detail.get("ctx") or {}).get("expected", "")) or message.removeprefix("Value error, ")
    return FieldError(format_path(loc), "domain_rule", message, expected)


def _run(tool: Tool, kwargs: dict[str, Any]) -> ToolResult:
    assert tool.fn is not None
    try:
        returned = _settle(tool.fn(**kwargs))
    except ToolkitError:
        raise
    except Exception as exc:
        status: Status = "timeout" if isinstance(exc, TimeoutError) else "error"
        return ToolResult(status, message=safe_message(exc), retryable=is_retryable(exc))
    if isinstance(returned, ToolResult):
        return returned
    try:
        return ToolResult("ok", data=to_jsonable(returned))
    except TypeError as exc:
        return ToolResult("error", message=str(exc), retryable=False)


def _settle(returned: Any) -> Any:
    """The value of an ``async def`` tool: run to completion here, or on a helper thread when this thread
    already runs an event loop (a notebook), so :func:`call` stays synchronous either way."""
    if not inspect.iscoroutine(returned):
        return returned
    # asyncio and its thread pool load only for coroutine tools: they cost `import toolkit` ~70 ms otherwise.
    import asyncio
    import concurrent.futures

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(returned)
    with concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="toolkit-async") as pool:
        return pool.submit(asyncio.run, returned).result()


def is_retryable(exc: BaseException) -> bool:
    """An exception's own ``retryable`` attribute wins; otherwise timeouts and connection errors are."""
    own = getattr(exc, "retryable", None)
    if isinstance(own, bool):
        return own
    return isinstance(exc, _TRANSIENT)


def to_jsonable(value: Any, depth: int = 0) -> Any:
    """Plain JSON values from what tool functions return. Unknown objects raise ``TypeError``."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if depth > 64:
        raise TypeError("the tool's return value is nested too deeply to serialise")
    if isinstance(value, Mapping):
        return {str(k): to_jsonable(v, depth + 1) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [to_jsonable(v, depth + 1) for v in value]
    if isinstance(value, set | frozenset):
        return sorted((to_jsonable(v, depth + 1) for v in value), key=repr)
    return _object_to_jsonable(value, depth)


def _object_to_jsonable(value: Any, depth: int) -> Any:
    if isinstance(value, enum.Enum):
        return to_jsonable(value.value, depth + 1)
    if isinstance(value, _dt.date | _dt.time):
        return value.isoformat()
    if isinstance(value, _dt.timedelta):
        return value.total_seconds()
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, uuid.UUID | PurePath):
        return str(value)
    if isinstance(value, bytes):
        return value.decode("utf-8", errors="replace")
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
        return to_jsonable(fields, depth + 1)
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        return dump(mode="json")
    to_dict = getattr(value, "to_dict", None)
    if callable(to_dict):
        return to_jsonable(to_dict(), depth + 1)
    raise TypeError(f"the tool returned a {type(value).__name__}, which has no JSON form; return plain data")
