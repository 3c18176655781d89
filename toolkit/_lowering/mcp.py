"""The ``mcp`` dialect: a Model Context Protocol ``Tool``, as ``tools/list`` returns it.

``{"name", "title", "description", "inputSchema", "annotations"}`` with camelCase keys, as on the wire
(https://modelcontextprotocol.io/specification/2025-11-25/server/tools). ``inputSchema`` is ``args_schema``
as it is: revision 2026-07-28 says "Tool arguments are always JSON objects, so ``type: "object"`` is required at
the root. Beyond that, any JSON Schema 2020-12 keyword may appear", and 2025-11-25's model types the root
``type`` as the literal ``"object"``; a root that is not a plain object is refused. No schema losses beyond
what JSON cannot carry.

``title`` is the contract name in words (``orders_refund_create`` → ``Orders refund create``). The annotations
are hints ("All properties in ToolAnnotations are hints"), every one set from the contract, because their
defaults assume the worst:

* ``readOnlyHint``: the effect is ``read``;
* ``destructiveHint``: a ``write`` tool that needs confirmation (a write the author lets run unconfirmed is
  not advertised as destructive; meaningful only when ``readOnlyHint`` is false);
* ``idempotentHint``: a ``read`` tool, or an HTTP operation whose method RFC 9110 §9.2.2 calls idempotent
  (``PUT``, ``DELETE``, ...);
* ``openWorldHint``: the tool calls a remote API (an OpenAPI operation); left out for other tools, whose reach
  toolkit cannot know (the default, ``true``, then applies).

Names follow the spec's "Tool names" rule, ``[A-Za-z0-9._-]{1,128}`` ("SHOULD be the only allowed
characters"), so ``:`` becomes ``_``. A call is ``tools/call`` params (``{"name", "arguments"}``); the reply is a
``CallToolResult`` with the envelope as ``structuredContent`` and as text, ``isError`` when the status is not
``ok`` ("Any errors that originate from the tool SHOULD be reported inside the result object").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolkit._contract import ToolContract
from toolkit._exceptions import ToolCallShapeError
from toolkit._lowering._dialect import Dialect, Lowered, NameRule, RawCall, envelope_text

__all__ = ["IDEMPOTENT_METHODS", "MCP", "NAMES", "McpDialect", "hints", "title"]

NAMES = NameRule(
    pattern=r"[A-Za-z0-9._-]{1,128}",
    allowed="A-Za-z0-9._-",
    limit=128,
    source="https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool-names",
)
IDEMPOTENT_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE"})


def title(name: str) -> str:
    """A tool name in words: separators become spaces, the first letter a capital."""
    words = " ".join(part for part in name.replace(".", "_").replace(":", "_").replace("-", "_").split("_") if part)
    return words[:1].upper() + words[1:] if words else name


def hints(contract: ToolContract) -> dict[str, bool]:
    """The MCP ``ToolAnnotations`` hints the contract supports (see the module docstring)."""
    read = contract.effect == "read"
    hints = {
        "readOnlyHint": read,
        "destructiveHint": not read and contract.confirm,
        "idempotentHint": read or (contract.method or "").upper() in IDEMPOTENT_METHODS,
    }
    if contract.source == "openapi":
        hints["openWorldHint"] = True
    return hints


class McpDialect(Dialect):
    """``mcp``: ``args_schema`` as ``inputSchema``, with a title and annotations from the contract."""

    name = "mcp"
    provider = "mcp"
    names = NAMES
    schema_key = "inputSchema"

    def body(self, name: str, contract: ToolContract, lowered: Lowered) -> dict[str, Any]:
        return {
            "name": name,
            "title": title(contract.name),
            "description": contract.description,
            "inputSchema": lowered.schema,
            "annotations": hints(contract),
        }

    def read_call(self, raw: Mapping[str, Any]) -> RawCall:
        if not isinstance(raw.get("name"), str):
            raise ToolCallShapeError(
                f"an MCP tool call is tools/call params ({{'name': ..., 'arguments': {{...}}}}); got {sorted(raw)}"
            )
        return RawCall(raw["name"], raw.get("arguments") or {}, None)

    def reply(self, call: RawCall, envelope: Mapping[str, Any]) -> dict[str, Any]:
        return {
            "content": [{"type": "text", "text": envelope_text(envelope)}],
            "structuredContent": dict(envelope),
            "isError": envelope.get("status") != "ok",
        }


MCP = McpDialect()
