"""The ``anthropic`` dialect: a Messages API tool, ``{"name", "description", "input_schema"}``.

"input_schema: A JSON Schema object defining the expected parameters for the tool"
(https://platform.claude.com/docs/agents-and-tools/tool-use/define-tools); the SDK's ``InputSchemaTyped``
documents it as JSON Schema draft 2020-12 with ``type: "object"``. So ``args_schema`` travels as it is (a JSON
copy), and a root that is not a plain object is refused (the API answers "input_schema does not support oneOf,
allOf, or anyOf at the top level"). No schema losses beyond what JSON cannot carry.

Names: the page above says "Must match the regex ``^[a-zA-Z0-9_-]{1,128}$``"; older copies of it, and the
API's ``tool_reference.tool_name`` error, still say 64. The stricter rule is used, so a name passes under both:
``.`` and ``:`` become ``_`` and names over 64 characters are shortened with a hash.

A call comes back as a ``tool_use`` content block (``input`` is an object) and is answered with a
``tool_result`` block in the next user message, ``is_error`` set when the envelope's status is not ``ok``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from toolkit._contract import ToolContract
from toolkit._exceptions import ToolCallShapeError
from toolkit._lowering._dialect import Dialect, Lowered, NameRule, RawCall, envelope_text

__all__ = ["ANTHROPIC", "NAMES", "AnthropicDialect"]

NAMES = NameRule(
    pattern=r"[A-Za-z0-9_-]{1,64}",
    allowed="A-Za-z0-9_-",
    limit=64,
    source="https://platform.claude.com/docs/agents-and-tools/tool-use/define-tools (name; 64 in older copies)",
)


class AnthropicDialect(Dialect):
    """``anthropic``: ``args_schema`` as ``input_schema``."""

    name = "anthropic"
    provider = "anthropic"
    names = NAMES
    schema_key = "input_schema"

    def body(self, name: str, contract: ToolContract, lowered: Lowered) -> dict[str, Any]:
        return {"name": name, "description": contract.description, "input_schema": lowered.schema}

    def read_call(self, raw: Mapping[str, Any]) -> RawCall:
        if not isinstance(raw.get("name"), str):
            raise ToolCallShapeError(
                "an Anthropic tool call is a tool_use block ({'type': 'tool_use', 'id': ..., 'name': ..., "
                f"'input': {{...}}}}); got keys {sorted(raw)}"
            )
        return RawCall(raw["name"], raw.get("input", {}), raw.get("id"))

    def reply(self, call: RawCall, envelope: Mapping[str, Any]) -> dict[str, Any]:
        return {
            "type": "tool_result",
            "tool_use_id": call.id,
            "content": envelope_text(envelope),
            "is_error": envelope.get("status") != "ok",
        }

    def turn(self, replies: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
        return [{"role": "user", "content": [dict(reply) for reply in replies]}]


ANTHROPIC = AnthropicDialect()
