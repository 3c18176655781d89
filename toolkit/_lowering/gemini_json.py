"""The ``gemini_json`` dialect: JSON Schema under ``FunctionDeclaration.parametersJsonSchema``.

The Gemini API takes the arguments as JSON Schema in ``parametersJsonSchema`` ("The schema must describe an
object where the properties are the parameters to the function … mutually exclusive with ``parameters``",
https://ai.google.dev/api/caching#FunctionDeclaration). The subset it honours is documented for
``responseJsonSchema`` (https://ai.google.dev/api/generate-content#generationconfig): "While the full JSON
Schema may be sent, not all features are supported. Specifically, only the following properties are
supported: ``$id $defs $ref $anchor type format title description enum`` (for strings and numbers) ``items
prefixItems minItems maxItems minimum maximum anyOf oneOf`` (interpreted the same as ``anyOf``) ``properties
additionalProperties required``", plus ``propertyOrdering``; and "If ``$ref`` is set on a sub-schema, no other
properties, except for those starting as a ``$``, may be set."

So the schema travels as JSON (google-genai passes this field through byte for byte), with these rules:

* a ``$ref`` beside other keywords moves into ``anyOf: [{"$ref": ...}]`` (the same meaning; the keywords stay
  beside the ``anyOf``); where the node already has an ``anyOf``/``oneOf`` the other keywords are dropped, each
  with a loss;
* an ``allOf`` of one subschema becomes an ``anyOf`` of it, and a string or number ``const`` an ``enum`` of it
  (the same meaning in supported words);
* a constraint outside the supported list (``pattern``, ``minLength``, ``multipleOf``, ``uniqueItems``,
  ``not`` ...) is sent as it is, with a loss: the model may not be held to it (the validator is); an enum with
  values other than strings and numbers gets the same loss, and so does an ``oneOf`` of several branches;
* annotations (``default``, ``examples``, ``deprecated``, ``readOnly`` ...) are sent without a loss: they
  constrain nothing, and the model reads them as text.

Names, calls and replies are Gemini's (:class:`~toolkit._lowering.gemini.GeminiCalls`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolkit._contract import Loss, Policy, ToolContract
from toolkit._lowering._carry import carry, map_subschemas
from toolkit._lowering._dialect import Lowered, unique
from toolkit._lowering.gemini import GeminiCalls

__all__ = ["GEMINI_JSON", "SUPPORTED", "GeminiJsonDialect"]

SUPPORTED = frozenset(
    {
        "$id",
        "$defs",
        "$ref",
        "$anchor",
        "type",
        "format",
        "title",
        "description",
        "enum",
        "items",
        "prefixItems",
        "minItems",
        "maxItems",
        "minimum",
        "maximum",
        "anyOf",
        "oneOf",
        "properties",
        "additionalProperties",
        "required",
        "propertyOrdering",
    }
)
_CONSTRAINTS = frozenset(
    {
        "pattern",
        "minLength",
        "maxLength",
        "multipleOf",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "const",
        "uniqueItems",
        "contains",
        "minContains",
        "maxContains",
        "minProperties",
        "maxProperties",
        "patternProperties",
        "propertyNames",
        "dependentRequired",
        "dependentSchemas",
        "dependencies",
        "not",
        "if",
        "then",
        "else",
        "allOf",
        "unevaluatedProperties",
        "unevaluatedItems",
        "additionalItems",
        "$dynamicRef",
    }
)
"""Keywords that constrain a value but are outside the documented list: sent, with a loss."""
_NOT_HELD = "sent, but not a keyword Gemini documents as supported: the model may not be held to it"


class GeminiJsonDialect(GeminiCalls):
    """``gemini_json``: JSON Schema under ``parametersJsonSchema``, with the documented ``$ref`` rule applied."""

    name = "gemini_json"
    schema_key = "parametersJsonSchema"

    def lower(self, schema: Mapping[str, Any], max_depth: int, policy: Policy) -> Lowered:
        copied, carried = carry(schema)
        losses: list[Loss] = list(carried)
        result = _node(copied, "", losses)
        return Lowered(result if isinstance(result, dict) else {}, unique(losses))

    def body(self, name: str, contract: ToolContract, lowered: Lowered) -> dict[str, Any]:
        return {"name": name, "description": contract.description, "parametersJsonSchema": lowered.schema}


def _node(schema: Any, path: str, losses: list[Loss]) -> Any:
    if not isinstance(schema, dict):
        return schema  # true / false
    node = map_subschemas(schema, path, lambda sub, where: _node(sub, where, losses))
    if "allOf" in node and len(node["allOf"]) == 1 and not {"anyOf", "oneOf"} & node.keys():
        node = _rename(node, "allOf", "anyOf")
    const = node.get("const")
    if "enum" not in node and isinstance(const, str | int | float) and not isinstance(const, bool):
        node = _rename(node, "const", "enum", [const])
    if "$ref" in node and any(not key.startswith("$") for key in node):
        node = _ref_alone(node, path, losses)
    for key, value in node.items():
        if key in _CONSTRAINTS:
            losses.append(Loss(path, key, value, _NOT_HELD))
    enum = node.get("enum")
    if isinstance(enum, list) and any(isinstance(v, bool) or not isinstance(v, str | int | float) for v in enum):
        reason = "sent, but Gemini documents enum for strings and numbers only: the model may not be held to it"
        losses.append(Loss(path, "enum", enum, reason))
    branches = node.get("oneOf")
    if isinstance(branches, list) and sum(1 for b in branches if b != {"type": "null"}) > 1:
        reason = "Gemini reads oneOf as anyOf: the model is not told that exactly one branch may match"
        losses.append(Loss(path, "oneOf", branches, reason))
    return node


def _rename(node: dict[str, Any], old: str, new: str, value: Any = None) -> dict[str, Any]:
    """The node with keyword ``old`` replaced by ``new`` in the same place (``value`` defaults to the old one)."""
    out: dict[str, Any] = {}
    for key, item in node.items():
        out[new if key == old else key] = value if key == old and value is not None else item
    return out


def _ref_alone(node: dict[str, Any], path: str, losses: list[Loss]) -> dict[str, Any]:
    """Nothing but ``$`` keywords may stand beside ``$ref``: move it into an ``anyOf``, or drop the others."""
    ref = node["$ref"]
    if not {"anyOf", "oneOf"} & node.keys():
        out = {key: value for key, value in node.items() if key != "$ref"}
        out["anyOf"] = [{"$ref": ref}]
        return out
    reason = "Gemini reads nothing beside a $ref, and this node's anyOf leaves no place for it: dropped"
    for key, value in node.items():
        if not key.startswith("$"):
            losses.append(Loss(path, key, value, reason))
    return {key: value for key, value in node.items() if key.startswith("$")}


GEMINI_JSON = GeminiJsonDialect()
