"""The ``gemini`` dialect: the genai ``Schema`` subset, plus the rules Vertex AI enforces at request time.

Output keys are only ``type format description nullable enum properties required items anyOf minimum
maximum minLength maxLength pattern minItems maxItems minProperties maxProperties default
propertyOrdering`` (``title`` and ``example`` are in the subset but never emitted: titles are pydantic
noise and examples belong in descriptions). On top of what ``google.genai.types.Schema`` accepts, the
finished schema obeys the rules that google-genai documents but does not check:

* every node has a ``type`` (``STRING NUMBER INTEGER BOOLEAN ARRAY OBJECT``), except a pure ``anyOf`` node;
* an ``anyOf`` node carries no key besides ``description``: its other keywords are merged into every branch
  they apply to (``{minLength: 2, anyOf: [...]}`` puts ``minLength`` on the ``STRING`` branches);
* ``required`` lists only declared properties; ``enum`` values are strings and only on ``STRING`` nodes
  (non-string values are stringified, the node becomes ``STRING`` and the loss is recorded);
* every ``ARRAY`` has ``items``.

Choices where the subset cannot say what the input says, each recorded as a loss:

* An untyped node (``{}``, pydantic's ``Any``) becomes ``anyOf`` of ``STRING NUMBER BOOLEAN OBJECT``:
  the model may send any scalar or an object; arrays and ``null`` are not offered. A node without ``type``
  whose keywords imply one (``properties`` → ``OBJECT``, ``items`` → ``ARRAY``, ``minLength``/``pattern``/
  ``enum`` → ``STRING``, ``minimum`` → ``NUMBER``) gets that type.
* A null-only node (``{type: null}``) becomes a nullable ``STRING``: the subset has no null type.
* ``default: null`` is never emitted: google-genai drops every null-valued field when it serialises the
  declaration, so it would never reach the wire (an omitted optional field still reads as null).

The payload is ``{"name", "description", "parameters"}`` (``parameters`` only when the tool has arguments),
the body of one ``FunctionDeclaration``; names follow the ``FunctionDeclaration.name`` rule, which is toolkit's
own :data:`~toolkit._contract.TOOL_NAME`, so they pass unchanged. A call comes back as a ``functionCall`` part
and is answered with a ``functionResponse`` part whose ``response`` holds the envelope under ``output`` (status
``ok``) or ``error``, the keys the API reference names for ``FunctionResponse.response``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from toolkit._contract import TOOL_NAME, Policy, ToolContract
from toolkit._exceptions import ToolCallShapeError
from toolkit._lowering._dialect import Dialect, Lowered, NameRule, RawCall
from toolkit._lowering._merge import Draft, copy_draft, merge_into
from toolkit._lowering._shared import Memo
from toolkit._lowering._walker import Site, Walker

__all__ = [
    "FORMATS",
    "GEMINI",
    "NAMES",
    "SUBSET_KEYS",
    "GeminiCalls",
    "GeminiDialect",
    "GeminiWalker",
    "enum_text",
    "has_arguments",
    "violations",
]

MAX_NESTING = 64
MAX_NODES = 10_000  # input nodes visited per top-level parameter
NAMES = NameRule(
    pattern=TOOL_NAME.pattern,
    allowed="A-Za-z0-9_.:-",
    limit=128,
    source="https://ai.google.dev/api/caching#FunctionDeclaration (FunctionDeclaration.name)",
)
NULL_DEFAULT = "a null default is not sent: google-genai drops null values (an omitted field still reads as null)"

FORMATS = frozenset({"date", "date-time", "int32", "int64", "float", "double", "email", "byte", "password", "enum"})
SUBSET_KEYS = frozenset(
    [
        "type",
        "format",
        "description",
        "nullable",
        "enum",
        "properties",
        "required",
        "items",
        "anyOf",
        "minimum",
        "maximum",
        "minLength",
        "maxLength",
        "pattern",
        "minItems",
        "maxItems",
        "minProperties",
        "maxProperties",
        "default",
        "example",
        "title",
        "propertyOrdering",
    ]
)
_ANY_TYPES = ("STRING", "NUMBER", "BOOLEAN", "OBJECT")
_APPLIES: dict[str, frozenset[str]] = {
    **dict.fromkeys(("minLength", "maxLength", "pattern"), frozenset({"STRING"})),
    **dict.fromkeys(("minimum", "maximum"), frozenset({"INTEGER", "NUMBER"})),
    **dict.fromkeys(("items", "minItems", "maxItems"), frozenset({"ARRAY"})),
    **dict.fromkeys(
        ("properties", "required", "minProperties", "maxProperties", "propertyOrdering", "$readOnlyNames"),
        frozenset({"OBJECT"}),
    ),
}
_INFERRED = (
    ("enum", "STRING"),
    ("properties", "OBJECT"),
    ("required", "OBJECT"),
    ("minProperties", "OBJECT"),
    ("maxProperties", "OBJECT"),
    ("items", "ARRAY"),
    ("minItems", "ARRAY"),
    ("maxItems", "ARRAY"),
    ("minLength", "STRING"),
    ("maxLength", "STRING"),
    ("pattern", "STRING"),
    ("minimum", "NUMBER"),
    ("maximum", "NUMBER"),
)
_NOT_FOR_STRINGS = ("minimum", "maximum", "format", "items", "minItems", "maxItems", "properties", "required")
_FORMAT_TYPES = {"int32": "INTEGER", "int64": "INTEGER", "float": "NUMBER", "double": "NUMBER"}


class GeminiWalker(Walker):
    """The walker with the genai subset's formats and finishing rules."""

    def keep_format(self, value: str) -> bool:
        return value in FORMATS

    def kw_default(self, key: str, value: Any, site: Site) -> None:
        if value is None:
            self.lose(site.path, key, value, NULL_DEFAULT)
            return
        super().kw_default(key, value, site)

    def finish_node(self, draft: Draft) -> dict[str, Any]:
        """Turn a draft into a node of the subset (its children through :meth:`finish`), reporting what has to
        change. The draft itself is left as it is (the node is a new dict): a draft inlined from a reference may
        be shared (:func:`~toolkit._lowering._shared.walk_reference`)."""
        self.spend()
        draft = dict(draft)
        path: str = draft.pop("$path", "")
        const = draft.pop("$const", False)
        if draft.pop("$readOnly", False):
            self.lose(path, "readOnly", True, "readOnly outside a property has no effect on arguments")
        if "anyOf" in draft:
            return self._finish_union(draft, path)
        if "type" not in draft:
            kind = self._infer_type(draft, path)
            if kind is None:
                return self._finish_untyped(draft, path)
            draft["type"] = kind
        if draft["type"] == "NULL":
            self.lose(path, "type", "null", "the subset has no null type: sent as a nullable STRING")
            draft["type"] = "STRING"
            draft["nullable"] = True
        if "enum" in draft:
            self._finish_enum(draft, path, "const" if const else "enum")
        if "properties" in draft:
            draft["properties"] = {name: self.finish(sub) for name, sub in draft["properties"].items()}
        if "items" in draft:
            draft["items"] = self.finish(draft["items"])
        elif draft["type"] == "ARRAY":
            draft["items"] = self._finish_untyped({"$path": path}, path, "items")
        self._finish_names(draft, path)
        return draft

    def _infer_type(self, draft: Draft, path: str) -> str | None:
        if "enum" in draft and all(value is None or isinstance(value, str) for value in draft["enum"]):
            return "STRING"  # exact: a string enum says everything a type would
        for keyword, kind in _INFERRED:
            if keyword in draft:
                self.lose(path, "type", None, f"no type given: sent as {kind}, inferred from {keyword}")
                return kind
        if "format" in draft:
            kind = _FORMAT_TYPES.get(draft["format"], "STRING")
            self.lose(path, "type", None, f"no type given: sent as {kind}, inferred from format")
            return kind
        return None

    def _finish_untyped(self, draft: Draft, path: str, keyword: str = "type") -> dict[str, Any]:
        what = "no type given" if keyword == "type" else "no item schema given"
        reason = f"{what}: offered as anyOf STRING, NUMBER, BOOLEAN, OBJECT (arrays and null are not offered)"
        self.lose(path, keyword, None, reason)
        draft["anyOf"] = [{"$path": path, "type": kind} for kind in _ANY_TYPES]
        return self._finish_union(draft, path)

    def _finish_union(self, draft: Draft, path: str) -> dict[str, Any]:
        branches: list[Draft] = draft.pop("anyOf")
        description = draft.pop("description", None)
        nullable = draft.pop("nullable", False)
        siblings = {key: value for key, value in draft.items() if not key.startswith("$")}
        names = draft.get("$readOnlyNames")
        out: list[dict[str, Any]] = []
        used: set[str] = {"default"}  # default is checked on its own below
        default_placed = False
        for branch in branches:
            kind = branch.get("type")
            extra = {k: v for k, v in siblings.items() if kind is None or kind in _APPLIES.get(k, (kind,))}
            used.update(extra)
            if "default" in extra:
                if _fits(extra["default"], kind):
                    default_placed = True
                else:
                    del extra["default"]
            if names and kind in (None, "OBJECT"):
                extra["$readOnlyNames"] = names
            if extra or nullable:
                branch = dict(branch)  # the draft's own branch is left as it is
            if extra:
                merge_into(branch, copy_draft(extra), path, self.lose)
                if extra.keys() - {"default"}:
                    branch["$path"] = path  # it now mixes the union's own keywords: report at the union
            if nullable:
                branch["nullable"] = True
            out.append(self.finish(branch))
        for key in [key for key in siblings if key not in used]:
            self.lose(path, key, siblings[key], f"{key} applies to none of the anyOf branch types")
        if "default" in siblings and not default_placed:
            self.lose(path, "default", siblings["default"], "no branch of the anyOf accepts the default")
        flat = [inner for branch in out for inner in (branch["anyOf"] if branch.keys() == {"anyOf"} else [branch])]
        unique = [branch for index, branch in enumerate(flat) if branch not in flat[:index]]
        result: dict[str, Any] = unique[0] if len(unique) == 1 else {"anyOf": unique}
        if description is not None:
            result["description"] = description
        return result

    def _finish_enum(self, draft: Draft, path: str, keyword: str) -> None:
        values: list[Any] = draft["enum"]
        if None in values:
            values = [value for value in values if value is not None]
            draft["nullable"] = True
        if not values:
            self.lose(path, "enum", draft.pop("enum"), "an enum of only null: sent as a nullable node without enum")
            return
        if all(isinstance(value, str) for value in values) and draft["type"] == "STRING":
            draft["enum"] = values
            return
        strings = [enum_text(value) for value in values]
        draft["enum"] = list(dict.fromkeys(strings))
        reason = "the subset's enum holds strings: values sent as strings; the validator keeps the originals"
        if draft["type"] != "STRING":
            reason += f" (the node is sent as STRING instead of {draft['type']})"
        self.lose(path, keyword, values[0] if keyword == "const" else values, reason)
        if draft["type"] != "STRING":
            for keyword in _NOT_FOR_STRINGS:
                if keyword in draft:
                    self.lose(path, keyword, draft.pop(keyword), "dropped: the node is sent as a STRING enum")
            draft["type"] = "STRING"

    def _finish_names(self, draft: Draft, path: str) -> None:
        read_only = draft.pop("$readOnlyNames", ())
        if "required" in draft:
            declared = draft.get("properties", {})
            for name in draft["required"]:
                if name not in declared and name not in read_only:
                    self.lose(path, "required", name, "required names a property the schema does not declare")
            kept = [name for name in draft["required"] if name in declared]
            if kept:
                draft["required"] = kept
            else:
                draft.pop("required")
        if "propertyOrdering" in draft:
            declared = draft.get("properties", {})
            draft["propertyOrdering"] = [name for name in draft["propertyOrdering"] if name in declared]


def enum_text(value: Any) -> str:
    """How an ``enum``/``const`` member travels in the subset: a string as itself, anything else as JSON text.

    The validator reads the same text back (``"2"`` → ``2``), so the model can send what it was shown.
    """
    if value.__class__ is int:  # the common case (integer enums), as json.dumps spells it, without its overhead
        return repr(value)
    return value if isinstance(value, str) else json.dumps(value, sort_keys=True)


def _fits(value: Any, kind: str | None) -> bool:
    """Whether a default value has the JSON type of a branch (``None`` kind: untyped, fits anything)."""
    if kind is None or value is None:
        return True
    if isinstance(value, bool):
        return kind == "BOOLEAN"
    if isinstance(value, int):
        return kind in ("INTEGER", "NUMBER")
    if isinstance(value, float):
        return kind == "NUMBER" or (kind == "INTEGER" and value.is_integer())
    if isinstance(value, str):
        return kind == "STRING"
    if isinstance(value, list):
        return kind == "ARRAY"
    return kind == "OBJECT"


def violations(schema: Any, path: str = "") -> list[str]:
    """Every way ``schema`` breaks the subset or the Vertex rules above, as ``"<pointer>: <problem>"``.

    An empty list means the schema is safe to send. Used by tests on every lowered output, and usable on
    declarations that come from elsewhere.
    """
    if not isinstance(schema, dict):
        return [f"{path}: a schema node must be an object"]
    found = [f"{path}: key {key!r} is outside the subset" for key in schema if key not in SUBSET_KEYS]
    if "anyOf" in schema:
        found += [f"{path}: anyOf beside {key!r}" for key in schema if key not in ("anyOf", "description")]
        for index, branch in enumerate(schema["anyOf"]):
            found += violations(branch, f"{path}/anyOf/{index}")
        return found
    kind = schema.get("type")
    if kind not in ("STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT"):
        found.append(f"{path}: type {kind!r} is not one of the six subset types")
    if "enum" in schema and (kind != "STRING" or not all(isinstance(value, str) for value in schema["enum"])):
        found.append(f"{path}: enum must hold strings on a STRING node")
    if kind == "ARRAY" and "items" not in schema:
        found.append(f"{path}: ARRAY without items")
    declared = schema.get("properties", {})
    found += [
        f"{path}: required {name!r} is not a property" for name in schema.get("required", ()) if name not in declared
    ]
    for name, sub in declared.items():
        found += violations(sub, f"{path}/properties/{name}")
    if "items" in schema:
        found += violations(schema["items"], f"{path}/items")
    return found


# -- the dialect ---------------------------------------------------------------------------------------------
class GeminiCalls(Dialect):
    """How Gemini's calls come back and are answered (shared by ``gemini`` and ``gemini_json``)."""

    provider = "gemini"
    names = NAMES

    def read_call(self, raw: Mapping[str, Any]) -> RawCall:
        call = raw.get("functionCall", raw.get("function_call", raw))
        if not isinstance(call, Mapping) or not isinstance(call.get("name"), str):
            raise ToolCallShapeError(
                "a Gemini tool call is a functionCall part ({'name': ..., 'args': {...}, 'id': ...}); "
                f"got {sorted(call) if isinstance(call, Mapping) else type(call).__name__}"
            )
        return RawCall(call["name"], call.get("args", {}), call.get("id"))

    def reply(self, call: RawCall, envelope: Mapping[str, Any]) -> dict[str, Any]:
        key = "output" if envelope.get("status") == "ok" else "error"
        response: dict[str, Any] = {"name": call.name, "response": {key: dict(envelope)}}
        if call.id is not None:
            response = {"id": call.id, **response}
        return {"functionResponse": response}

    def turn(self, replies: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
        return [{"role": "user", "parts": [dict(reply) for reply in replies]}]


class GeminiDialect(GeminiCalls):
    """``gemini``: the genai ``Schema`` subset under ``FunctionDeclaration.parameters``."""

    name = "gemini"

    def lower(self, schema: Mapping[str, Any], max_depth: int, policy: Policy, memo: Memo | None = None) -> Lowered:
        walker = GeminiWalker(schema, max_depth=max_depth, max_nesting=MAX_NESTING, max_nodes=MAX_NODES, memo=memo)
        result, losses = walker.run()
        return Lowered(result, losses)

    def body(self, name: str, contract: ToolContract, lowered: Lowered) -> dict[str, Any]:
        out: dict[str, Any] = {"name": name, "description": contract.description}
        if has_arguments(contract):
            out["parameters"] = lowered.schema
        return out


def has_arguments(contract: ToolContract) -> bool:
    """Whether the declaration carries ``parameters`` (a tool without arguments leaves them out)."""
    return bool(contract.args_schema.get("properties"))


GEMINI = GeminiDialect()
