"""Calling function tools: validation first, then conversion, confirmation, the call, and a safe envelope.

Internals: ``_validation._invoke`` (``safe_message``, ``to_jsonable``), the envelope helpers tested as units."""

from __future__ import annotations

import dataclasses
import datetime as dt
import enum
from decimal import Decimal
from typing import Any

import pytest

import toolkit as tk
from toolkit import Policy, Tool, ToolContext, ToolContract, ToolkitError
from toolkit._validation._invoke import to_jsonable
from toolkit._validation._results import safe_message

SCHEMA = {
    "type": "object",
    "properties": {
        "query": {"type": "string", "minLength": 1},
        "limit": {"type": "integer", "minimum": 1, "maximum": 100, "default": 20},
    },
    "required": ["query"],
    "additionalProperties": False,
}


def make_tool(fn: Any, *, confirm: bool = False, effect: str = "read", **fields: Any) -> Tool:
    contract = ToolContract(name="t", description="d", args_schema=SCHEMA, effect=effect, confirm=confirm)  # type: ignore[arg-type]
    return Tool(contract=contract, parameters=None, policy=Policy(), fn=fn, **fields)


def echo(query: str, limit: int) -> dict[str, Any]:
    return {"query": query, "limit": limit}


def test_a_call_gets_the_cleaned_arguments_and_carries_the_notices() -> None:
    result = make_tool(echo).call({"query": "q", "limit": 500})
    assert result.status == "ok"
    assert result.data == {"query": "q", "limit": 100}
    assert {n.action for n in result.notices} == {"clamped"}


def test_bad_arguments_never_reach_the_function() -> None:
    calls: list[Any] = []
    result = make_tool(lambda **kw: calls.append(kw)).call({"query": "q", "limit": "10"})
    assert result.status == "invalid_arguments"
    assert calls == []


def test_the_converter_turns_clean_arguments_into_keyword_arguments() -> None:
    tool = make_tool(echo, converter=lambda args: {**args, "query": args["query"].upper()})
    assert tool.call({"query": "q"}).data == {"query": "Q", "limit": 20}


def test_a_converter_that_refuses_gives_rejected() -> None:
    def converter(args: dict[str, Any]) -> dict[str, Any]:
        raise ValueError("query must name a project")

    result = make_tool(echo, converter=converter).call({"query": "q"})
    assert result.status == "rejected"
    assert result.errors[0].code == "domain_rule"
    assert "query must name a project" in result.errors[0].problem


def test_the_context_is_injected_and_defaults_to_the_tool_name() -> None:
    seen: list[ToolContext] = []

    def fn(query: str, limit: int, ctx: ToolContext) -> str:
        seen.append(ctx)
        return ctx.session_id

    tool = make_tool(fn, context_param="ctx")
    assert tool.call({"query": "q"}).data == "default"
    assert seen[0].tool_name == "t"
    assert tool.call({"query": "q"}, ToolContext(session_id="s1")).data == "s1"


class Flaky(Exception):
    retryable = True


@pytest.mark.parametrize(
    ("exc", "status", "retryable"),
    [
        (TimeoutError("upstream took too long"), "timeout", True),
        (ConnectionResetError("peer reset"), "error", True),
        (ValueError("no such project"), "error", False),
        (FileNotFoundError("x.db"), "error", False),
        (Flaky("try again"), "error", True),
    ],
    ids=["timeout", "connection", "value-error", "file-not-found", "own-flag"],
)
def test_exceptions_become_safe_error_envelopes(exc: Exception, status: str, retryable: bool) -> None:
    def fn(query: str, limit: int) -> None:
        raise exc

    result = make_tool(fn).call({"query": "q"})
    assert (result.status, result.retryable) == (status, retryable)
    assert result.message.startswith(type(exc).__name__)
    assert "Traceback" not in result.message


def test_only_the_first_line_of_an_exception_message_is_shown() -> None:
    message = safe_message(RuntimeError("first line\n  File 'secret.py', line 3"))
    assert message == "RuntimeError: first line"


def test_a_tool_without_a_function_is_programmer_misuse() -> None:
    with pytest.raises(ToolkitError) as caught:
        make_tool(None).call({"query": "q"})
    assert caught.value.slug == "not_callable"


def test_confirm_tools_ask_first_and_run_when_confirmed() -> None:
    tool = make_tool(echo, confirm=True, effect="write")
    asked = tool.call({"query": "q"})
    assert asked.status == "needs_confirmation"
    assert asked.data == {"tool": "t", "args": {"query": "q", "limit": 20}}
    done = tool.call({"query": "q"}, ToolContext(extras={"confirmed": True}))
    assert done.status == "ok"


class Colour(enum.Enum):
    RED = "red"


@dataclasses.dataclass
class Receipt:
    amount: Decimal
    on: dt.date
    colour: Colour
    tags: frozenset[str]


def test_return_values_are_made_json_able() -> None:
    receipt = Receipt(Decimal("19.99"), dt.date(2026, 8, 7), Colour.RED, frozenset({"b", "a"}))
    assert to_jsonable(receipt) == {"amount": "19.99", "on": "2026-08-07", "colour": "red", "tags": ["a", "b"]}


def test_an_unserialisable_return_is_an_error_envelope() -> None:
    result = make_tool(lambda query, limit: object()).call({"query": "q"})
    assert result.status == "error"
    assert "object" in result.message


def test_a_returned_tool_result_passes_through() -> None:
    result = make_tool(lambda query, limit: tk.ToolResult("partial", data=[1])).call({"query": "q"})
    assert result.status == "partial"
    assert [n.action for n in result.notices] == ["defaulted"]


def test_function_tools_call_through_from_function() -> None:
    from toolkit import examples

    search = tk.from_function(examples.search_issues, namespace="issues", effect="read")
    result = search.call({"query": "login", "limit": 2, "state": "closed"})
    assert result.status == "ok"
    assert result.data["total"] == 2
    assert search.call({"query": "login", "limit": "2"}).status == "invalid_arguments"


def test_pydantic_models_are_dumped() -> None:
    pydantic = pytest.importorskip("pydantic")

    class Out(pydantic.BaseModel):
        when: dt.date

    assert make_tool(lambda query, limit: Out(when=dt.date(2026, 1, 2))).call({"query": "q"}).data == {
        "when": "2026-01-02"
    }


def test_pydantic_validation_errors_in_the_converter_become_field_errors() -> None:
    pydantic = pytest.importorskip("pydantic")

    class Args(pydantic.BaseModel):
        query: str
        limit: int

        @pydantic.field_validator("query")
        @classmethod
        def no_wildcards(cls, value: str) -> str:
            if "*" in value:
                raise ValueError("wildcards are not supported")
            return value

    result = make_tool(echo, converter=lambda args: dict(Args(**args))).call({"query": "a*"})
    assert result.status == "rejected"
    (error,) = result.errors
    assert (error.field, error.code) == ("query", "domain_rule")
    assert "wildcards are not supported" in error.problem


async def async_echo(query: str, limit: int) -> dict[str, Any]:
    return {"query": query, "limit": limit}


async def async_timeout(query: str, limit: int) -> None:
    raise TimeoutError("upstream")


def test_async_tools_run_to_completion() -> None:
    assert make_tool(async_echo).call({"query": "q"}).data == {"query": "q", "limit": 20}
    result = make_tool(async_timeout).call({"query": "q"})
    assert (result.status, result.retryable) == ("timeout", True)


def test_async_tools_run_inside_a_running_event_loop() -> None:
    import asyncio

    async def main() -> Any:
        return make_tool(async_echo).call({"query": "q"})

    assert asyncio.run(main()).data == {"query": "q", "limit": 20}
