"""On the wire: each provider's official SDK sends toolkit's payload, and the envelope comes back to the model.

A loopback server (``tests/wire_support.py``, 127.0.0.1 only) stands in for each provider's API. For every
dialect a provider SDK sends (gemini, gemini_json: google-genai; openai, openai_responses: openai; anthropic:
anthropic), the test sends one request with two tools through the SDK, checks the tool JSON the server
received against ``tk.payloads(...).bodies``, answers with two calls of the shipment tool (a valid one and an
invalid one) in that provider's format, lets the SDK parse them, maps them back to the tool through the
name mapping (``shipping.book_shipment`` is ``shipping_book_shipment`` for OpenAI and Anthropic), calls the
tool, and sends the function-response messages, which the next captured request must carry with the
envelopes. The ``mcp`` payload is checked against ``mcp.types.Tool`` in ``test_dialects_sdk.py``.

What "exact" means, per SDK. openai and anthropic put the tool JSON on the wire verbatim: the received
``tools`` equal the bodies as JSON text (key order, ``1`` against ``1.0``, every value). google-genai
re-serialises through its own pydantic models, so the received declaration is first shown to be genai's own
serialisation of the payload (``FunctionDeclaration.model_validate(body).model_dump(mode="json",
exclude_none=True)``, as JSON text), and then equal to the payload after undoing exactly these documented
re-spellings, and nothing else:

1. ``gemini``: Schema keywords go out in snake_case (``anyOf`` → ``any_of``, ``minItems`` → ``min_items``,
   ``propertyOrdering`` → ``property_ordering`` ...); they are mapped back through ``types.Schema``'s aliases.
2. ``gemini``: ``minimum``/``maximum`` go out as floats (``1`` → ``1.0``); compared with the integers given.
3. ``gemini``, ``gemini_json``: keys go out in genai's field order (the declaration's, and every Schema node's
   for ``gemini``); the comparison puts them back in the payload's order. ``gemini_json``'s schema itself is
   passed through byte for byte and compared as JSON text.
4. ``gemini_json``: the declaration key ``parametersJsonSchema`` goes out as ``parameters_json_schema`` (the
   API's proto JSON parser accepts both spellings).

What toolkit controls is made equal instead: the ``gemini`` dialect never emits ``default: null`` (genai drops
every null field, so it would never reach the wire).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from enum import StrEnum
from typing import Any, Literal

import pytest
from pydantic import BaseModel, Field
from wire_support import REPLIES, Captured, Recorder, client, gemini_as_given, ordered_like, same_json, sent_replies

import toolkit as tk
from toolkit import examples


class Dimensions(BaseModel):
    """Outer size of the parcel."""

    length_cm: int = Field(ge=1, le=200, description="Longest side in centimetres, 1 to 200.")
    width_cm: int = Field(ge=1, le=200, description="Second-longest side in centimetres, 1 to 200.")


class Parcel(BaseModel):
    weight_grams: int = Field(ge=1, description="Weight in grams, at least 1.")
    dimensions: Dimensions


class Destination(BaseModel):
    street: str
    city: str
    country: Literal["DE", "FR", "NL"] = Field(description="ISO 3166 country code: DE, FR or NL.")


class Speed(StrEnum):
    STANDARD = "standard"
    EXPRESS = "express"


BOOKED: list[dict[str, Any]] = []


def book_shipment(parcel: Parcel, to: Destination, speed: Speed, ship_on: date, note: str | None = None) -> dict:
    """Book a parcel shipment and return the booking reference.

    Args:
        parcel: The parcel: weight and outer dimensions.
        to: Where the parcel goes.
        speed: "standard" or "express".
        ship_on: The calendar day the parcel is handed over (ISO 8601, YYYY-MM-DD).
        note: A note for the driver, if any.
    """
    BOOKED.append({"ship_on": ship_on, "speed": speed, "note": note, "city": to.city})
    return {"booking": f"B-{len(BOOKED)}", "ship_on": ship_on.isoformat(), "speed": speed.value}


SHIPMENT = tk.from_function(book_shipment, name="shipping.book_shipment")
SEARCH = tk.from_function(examples.search_issues, namespace="issues", effect="read")
VALID = {
    "parcel": {"weight_grams": 1200, "dimensions": {"length_cm": 30, "width_cm": 20}},
    "to": {"street": "Hauptstrasse 1", "city": "Berlin", "country": "DE"},
    "speed": "express",
    "ship_on": "2026-05-04",
}
INVALID = {
    "parcel": {"weight_grams": "1.2kg", "dimensions": {"length_cm": 30}},
    "to": {"street": "Hauptstrasse 1", "city": "Berlin", "country": "Germany"},
    "speed": "FAST",
    "ship_on": "next tuesday",
}
INVALID_FIELDS = {"parcel.weight_grams", "parcel.dimensions.width_cm", "to.country", "speed", "ship_on"}
DIALECTS = ["gemini", "gemini_json", "openai", "openai_responses", "anthropic"]

Outcome = tuple[list[tk.Call], list[tk.ToolResult], str]


def _answer(wire: tk.PayloadSet, raw_calls: list[Any]) -> tuple[list[tk.Call], list[tk.ToolResult], list[Any]]:
    calls = [wire.read(raw) for raw in raw_calls]
    results = [call.run(execute=True) for call in calls]
    return calls, results, [wire.reply(call, result) for call, result in zip(calls, results, strict=True)]


# -- one conversation per SDK, written out the way each SDK's documentation shows it -------------------------
def _gemini(sdk: Any, wire: tk.PayloadSet) -> Outcome:
    from google.genai import types

    declarations = [types.FunctionDeclaration.model_validate(body) for body in wire.bodies]
    config = types.GenerateContentConfig(
        tools=[types.Tool(function_declarations=declarations)],
        automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True),
    )
    history = [types.Content(role="user", parts=[types.Part(text="Ship the parcel to Berlin, express.")])]
    first = sdk.models.generate_content(model="gemini-2.5-flash", contents=history, config=config)
    calls, results, replies = _answer(wire, list(first.function_calls or []))
    history.append(first.candidates[0].content)  # the model's turn, verbatim (thought signatures included)
    history += [types.Content.model_validate(message) for message in wire.turn(replies)]
    second = sdk.models.generate_content(model="gemini-2.5-flash", contents=history, config=config)
    return calls, results, second.text or ""


def _chat(sdk: Any, wire: tk.PayloadSet) -> Outcome:
    history: list[Any] = [{"role": "user", "content": "Ship the parcel to Berlin, express."}]
    first = sdk.chat.completions.create(model="gpt-loopback", messages=history, tools=wire.bodies)
    message = first.choices[0].message
    calls, results, replies = _answer(wire, list(message.tool_calls or []))
    history += [message.model_dump(exclude_none=True), *wire.turn(replies)]
    second = sdk.chat.completions.create(model="gpt-loopback", messages=history, tools=wire.bodies)
    return calls, results, second.choices[0].message.content or ""


def _responses(sdk: Any, wire: tk.PayloadSet) -> Outcome:
    history: list[Any] = [{"role": "user", "content": "Ship the parcel to Berlin, express."}]
    first = sdk.responses.create(model="gpt-loopback", input=history, tools=wire.bodies)
    calls, results, replies = _answer(wire, [item for item in first.output if item.type == "function_call"])
    history += [item.model_dump(exclude_none=True) for item in first.output] + wire.turn(replies)
    second = sdk.responses.create(model="gpt-loopback", input=history, tools=wire.bodies)
    return calls, results, second.output_text


def _anthropic(sdk: Any, wire: tk.PayloadSet) -> Outcome:
    history: list[Any] = [{"role": "user", "content": "Ship the parcel to Berlin, express."}]
    first = sdk.messages.create(model="claude-loopback", max_tokens=512, messages=history, tools=wire.bodies)
    calls, results, replies = _answer(wire, [block for block in first.content if block.type == "tool_use"])
    history.append({"role": "assistant", "content": [block.model_dump(exclude_none=True) for block in first.content]})
    history += wire.turn(replies)
    second = sdk.messages.create(model="claude-loopback", max_tokens=512, messages=history, tools=wire.bodies)
    return calls, results, "".join(block.text for block in second.content if block.type == "text")


DRIVERS: dict[str, Callable[[Any, tk.PayloadSet], Outcome]] = {
    "gemini": _gemini,
    "gemini_json": _gemini,
    "openai": _chat,
    "openai_responses": _responses,
    "anthropic": _anthropic,
}


# -- what the server received -----------------------------------------------------------------------------
def _sent_tools(dialect: str, request: Captured) -> list[Any]:
    if dialect.startswith("gemini"):
        (tool,) = request.json["tools"]
        return list(tool["functionDeclarations"])
    return list(request.json["tools"])


def _assert_sent_exactly(dialect: str, sent: list[Any], bodies: list[dict[str, Any]]) -> None:
    assert len(sent) == len(bodies)
    if dialect in ("openai", "openai_responses", "anthropic"):
        assert same_json(sent, bodies)
        return
    from google.genai import types

    for declaration, body in zip(sent, bodies, strict=True):
        sdk_own = types.FunctionDeclaration.model_validate(body).model_dump(mode="json", exclude_none=True)
        assert same_json(declaration, sdk_own)  # the wire is genai's own serialisation of the payload
        if dialect == "gemini_json":
            assert list(declaration) == ["description", "name", "parameters_json_schema"]  # 3, 4
            assert same_json(declaration["parameters_json_schema"], body["parametersJsonSchema"])
            restored = {
                key.replace("parameters_json_schema", "parametersJsonSchema"): v for key, v in declaration.items()
            }
        else:
            restored = dict(declaration)
            if "parameters" in body:
                restored["parameters"] = gemini_as_given(declaration["parameters"], body["parameters"])  # 1, 2
        assert same_json(ordered_like(restored, body), body)  # 3: and nothing else differs


@pytest.mark.parametrize("dialect", DIALECTS)
def test_the_sdk_sends_the_payload_and_the_envelopes_go_back_to_the_model(dialect: str) -> None:
    wire = tk.payloads([SHIPMENT, SEARCH], dialect)
    name = wire.names[SHIPMENT.name]
    valid = {**VALID, "note": None} if dialect.startswith("openai") else VALID  # strict: every field sent
    calls_sent = [("call-1", name, valid), ("call-2", name, INVALID)]
    script = [(200, REPLIES[dialect](calls_sent)), (200, REPLIES[dialect]([], "Booked B-1; the second needs a date."))]
    booked = len(BOOKED)
    with Recorder(script) as server, client(dialect, server.url) as sdk:
        calls, results, text = DRIVERS[dialect](sdk, wire)
    first, second = server.requests
    assert first.path == second.path
    _assert_sent_exactly(dialect, _sent_tools(dialect, first), wire.bodies)
    _assert_sent_exactly(dialect, _sent_tools(dialect, second), wire.bodies)
    assert [call.tool for call in calls] == [SHIPMENT, SHIPMENT]
    assert [result.status for result in results] == ["ok", "invalid_arguments"]
    assert results[0].data == {"booking": f"B-{booked + 1}", "ship_on": "2026-05-04", "speed": "express"}
    assert {error.field for error in results[1].errors} == INVALID_FIELDS
    assert len(BOOKED) == booked + 1  # the invalid call never reached the function
    replies = sent_replies(dialect, second)
    assert [reply["id"] for reply in replies] == ["call-1", "call-2"]
    assert [reply["envelope"] for reply in replies] == [result.to_dict() for result in results]
    if dialect.startswith("gemini"):
        assert [(reply["name"], reply["key"]) for reply in replies] == [(name, "output"), (name, "error")]
    if dialect == "anthropic":
        assert [reply["error"] for reply in replies] == [False, True]
    assert text.startswith("Booked B-1")


@pytest.mark.parametrize("dialect", ["openai", "openai_responses", "anthropic"])
def test_names_with_dots_are_mapped_for_providers_that_refuse_them(dialect: str) -> None:
    wire = tk.payloads([SHIPMENT, SEARCH], dialect)
    assert wire.names == {
        "shipping.book_shipment": "shipping_book_shipment",
        "issues_search_issues": "issues_search_issues",
    }


@pytest.mark.parametrize("dialect", DIALECTS)
def test_a_call_to_a_tool_the_request_did_not_offer_is_answered_not_raised(dialect: str) -> None:
    wire = tk.payloads([SEARCH], dialect)
    script = [(200, REPLIES[dialect]([("call-9", "delete_everything", {})])), (200, REPLIES[dialect]([], "Sorry."))]
    with Recorder(script) as server, client(dialect, server.url) as sdk:
        calls, results, _ = DRIVERS[dialect](sdk, wire)
    assert calls[0].tool is None
    assert results[0].status == "invalid_arguments"
    assert [(e.code, e.expected) for e in results[0].errors] == [("unknown_tool", "one of: issues_search_issues")]
    assert [reply["envelope"] for reply in sent_replies(dialect, server.requests[1])] == [results[0].to_dict()]
