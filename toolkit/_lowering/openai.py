"""The ``openai`` and ``openai_responses`` dialects: a function tool for Chat Completions and for Responses.

Chat Completions takes ``{"type": "function", "function": {"name", "description", "parameters", "strict"}}``;
the Responses API takes the same fields flat, ``{"type": "function", "name", "description", "parameters",
"strict"}`` (https://platform.openai.com/docs/api-reference/chat/create,
https://platform.openai.com/docs/api-reference/responses/create). ``strict`` is always sent: "If you omit
``strict``, the default depends on the API" (Responses tries strict, Chat Completions does not), so leaving it
out would make the two payloads mean different things.

``strict: true`` whenever the schema can be made strict (:mod:`toolkit._lowering._strict`: every object
closed, every property required, optional ones nullable, unsupported keywords dropped with losses);
otherwise ``strict: false`` with the plain ``args_schema`` and one loss per node that prevents it.

Names: "Must be a-z, A-Z, 0-9, or contain underscores and dashes, with a maximum length of 64"
(``FunctionDefinition.name``), so ``.`` and ``:`` become ``_`` and longer names are shortened with a hash.
A Chat Completions call comes back as a ``tool_calls`` entry whose ``arguments`` is JSON *text*, and is
answered with a ``{"role": "tool", "tool_call_id", "content"}`` message; a Responses call is a
``function_call`` item answered with a ``function_call_output`` item. Neither has an error flag: the
envelope's ``status`` says it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolkit._contract import Policy, ToolContract
from toolkit._exceptions import ToolCallShapeError
from toolkit._lowering._carry import carry
from toolkit._lowering._dialect import Dialect, Lowered, NameRule, RawCall, envelope_text, unique
from toolkit._lowering._strict import strictify

__all__ = ["NAMES", "OPENAI", "OPENAI_RESPONSES", "ChatDialect", "ResponsesDialect"]

NAMES = NameRule(
    pattern=r"[A-Za-z0-9_-]{1,64}",
    allowed="A-Za-z0-9_-",
    limit=64,
    source="https://platform.openai.com/docs/api-reference/chat/create (FunctionDefinition.name)",
)


class _OpenAI(Dialect):
    provider = "openai"
    names = NAMES

    def lower(self, schema: Mapping[str, Any], max_depth: int, policy: Policy) -> Lowered:
        copied, carried = carry(schema)
        strict, losses, blockers = strictify(copied, null_is_absent=policy.null_optional == "absent")
        if blockers:
            plain, _ = carry(schema)
            return Lowered(plain, unique([*carried, *blockers]), strict=False)
        return Lowered(strict, unique([*carried, *losses]), strict=True)

    def function(self, name: str, contract: ToolContract, lowered: Lowered) -> dict[str, Any]:
        return {
            "name": name,
            "description": contract.description,
            "parameters": lowered.schema,
            "strict": bool(lowered.strict),
        }

    def _call(self, raw: Mapping[str, Any], shape: str) -> tuple[str, Any]:
        name, arguments = raw.get("name"), raw.get("arguments")
        if not isinstance(name, str):
            raise ToolCallShapeError(f"an OpenAI tool call is {shape}; got keys {sorted(raw)}")
        return name, arguments


class ChatDialect(_OpenAI):
    """``openai``: a Chat Completions ``tools[]`` entry."""

    name = "openai"

    def body(self, name: str, contract: ToolContract, lowered: Lowered) -> dict[str, Any]:
        return {"type": "function", "function": self.function(name, contract, lowered)}

    def view(self, body: Mapping[str, Any]) -> dict[str, Any]:
        function = body.get("function")
        rest = {key: value for key, value in body.items() if key not in ("type", "function")}
        return {**(function if isinstance(function, Mapping) else {}), **rest}

    def read_call(self, raw: Mapping[str, Any]) -> RawCall:
        function = raw.get("function")
        shape = "a tool_calls entry ({'id': ..., 'function': {'name': ..., 'arguments': '<JSON text>'}})"
        name, arguments = self._call(function if isinstance(function, Mapping) else {}, shape)
        return RawCall(name, arguments, raw.get("id"))

    def reply(self, call: RawCall, envelope: Mapping[str, Any]) -> dict[str, Any]:
        return {"role": "tool", "tool_call_id": call.id, "content": envelope_text(envelope)}


class ResponsesDialect(_OpenAI):
    """``openai_responses``: a Responses API ``tools[]`` entry."""

    name = "openai_responses"

    def body(self, name: str, contract: ToolContract, lowered: Lowered) -> dict[str, Any]:
        return {"type": "function", **self.function(name, contract, lowered)}

    def view(self, body: Mapping[str, Any]) -> dict[str, Any]:
        return {key: value for key, value in body.items() if key != "type"}

    def read_call(self, raw: Mapping[str, Any]) -> RawCall:
        shape = "a function_call item ({'call_id': ..., 'name': ..., 'arguments': '<JSON text>'})"
        name, arguments = self._call(raw, shape)
        return RawCall(name, arguments, raw.get("call_id"))

    def reply(self, call: RawCall, envelope: Mapping[str, Any]) -> dict[str, Any]:
        return {"type": "function_call_output", "call_id": call.id, "output": envelope_text(envelope)}


OPENAI = ChatDialect()
OPENAI_RESPONSES = ResponsesDialect()
