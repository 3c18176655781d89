"""A user's confirmation is one answer to one question: bound to whoever was asked and to the call, single-use,
and expiring. In-process MCP servers (``mcp.Client(server)``) over an HTTP tool whose upstream logs its effects;
no ledger, so nothing but the confirmation stands between a replayed "yes" and a second refund. The same over
``toolkit serve --http`` is in ``test_exactly_once_processes.py``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from runtime_workers.bank_upstream import SPEC, Upstream, in_thread

import toolkit as tk
from toolkit.runtime.serving import Served, served

mcp = pytest.importorskip("mcp", reason="serving over MCP needs the mcp extra")
types = pytest.importorskip("mcp.types")
from toolkit.runtime import mcp as serving_mcp  # noqa: E402 - needs the mcp extra checked above

REFUND = {"account": "acct_C", "amount": 250}
YES = {"confirm": types.ElicitResult(action="accept", content={"confirm": True})}


@pytest.fixture
def upstream(tmp_path: Path) -> Iterator[Upstream]:
    with in_thread(tmp_path / "effects.jsonl") as running:
        yield running


def _served(upstream: Upstream) -> Served:
    return served(tk.from_openapi(SPEC, namespace="bank"), base_url=upstream.url)


async def _yes(context: Any, params: Any) -> Any:
    return types.ElicitResult(action="accept", content={"confirm": True})


def _ask_then_answer(asked_by: Served, answered_at: Served, arguments: dict[str, Any]) -> Any:
    """Ask ``asked_by``'s server for a refund, then send the user's "yes" to ``answered_at``'s."""

    async def run() -> Any:
        async with mcp.Client(serving_mcp.build_server(asked_by), elicitation_callback=_yes) as client:
            asked = await client.session.call_tool("bank_refund", REFUND, allow_input_required=True)
            assert isinstance(asked, types.InputRequiredResult)
        async with mcp.Client(serving_mcp.build_server(answered_at), elicitation_callback=_yes) as client:
            return await client.session.call_tool(
                "bank_refund",
                arguments,
                input_responses=YES,
                request_state=asked.request_state,
                allow_input_required=True,
            )

    return anyio.run(run)


def test_an_answer_to_this_servers_question_for_this_call_runs_it_once(upstream: Upstream) -> None:
    tools = _served(upstream)
    result = _ask_then_answer(tools, tools, REFUND)
    assert result.structured_content["status"] == "ok"
    assert len(upstream.effects()) == 1


@pytest.mark.parametrize("where", ["another-session", "other-arguments", "expired"])
def test_an_answer_given_elsewhere_for_something_else_or_too_late_is_no_answer(
    upstream: Upstream, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    tools = _served(upstream)
    if where == "expired":
        monkeypatch.setattr(serving_mcp, "CONFIRM_TTL", -1.0)
    other = _served(upstream) if where == "another-session" else tools  # a server of its own: its own session
    arguments = {**REFUND, "amount": 9_999} if where == "other-arguments" else REFUND
    result = _ask_then_answer(tools, other, arguments)
    assert isinstance(result, types.InputRequiredResult)  # the user is asked again
    assert upstream.effects() == []
