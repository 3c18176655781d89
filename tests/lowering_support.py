"""Shared checks for the lowering tests: the carried-or-lost audit and a generator of JSON-Schema-ish dicts."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from hypothesis import strategies as st

from toolkit._contract import Loss
from toolkit._lowering._keywords import KEYWORDS, SILENT_KEYWORDS
from toolkit._schema import escape

# Keywords whose content is inlined or rewritten structurally, not copied as a key.
STRUCTURAL = frozenset({"properties", "items", "prefixItems", "allOf", "anyOf", "oneOf", "$ref"})
# Where a carried input keyword shows up in the output.
RENAMED = {
    "const": "enum",
    "oneOf": "anyOf",
    "exclusiveMinimum": "minimum",
    "exclusiveMaximum": "maximum",
    "prefixItems": "items",
}
# Keywords that only ever leave a trace through a loss (or by removing something).
ALWAYS_LOST = frozenset(key for key, method in KEYWORDS.items() if method == "unsupported") | {"readOnly"}


def output_keys(schema: Any) -> set[str]:
    """Every key used anywhere in a lowered schema (property names excluded)."""
    found: set[str] = set()
    stack = [schema]
    while stack:
        node = stack.pop()
        if not isinstance(node, dict):
            continue
        found.update(node)
        stack.extend(node.get("properties", {}).values())
        stack.extend(node.get("anyOf", ()))
        if "items" in node:
            stack.append(node["items"])
    return found


def output_values(schema: Any, key: str) -> list[Any]:
    """Every value of ``key`` anywhere in a lowered schema."""
    found: list[Any] = []
    stack = [schema]
    while stack:
        node = stack.pop()
        if not isinstance(node, dict):
            continue
        if key in node:
            found.append(node[key])
        stack.extend(node.get("properties", {}).values())
        stack.extend(node.get("anyOf", ()))
        if "items" in node:
            stack.append(node["items"])
    return found


def reachable(
    root: Mapping[str, Any], losses: tuple[Loss, ...]
) -> Iterator[tuple[str, Mapping[str, Any], tuple[str, ...]]]:
    """Every input node the walker reads, with its JSON pointer and the pointers of the nodes it was reached
    through (a ``$ref`` leads to its target's pointer; merged content may be reported at any of them)."""
    cut = {(loss.path, loss.keyword) for loss in losses}
    seen: set[str] = set()
    stack: list[tuple[str, Any, tuple[str, ...]]] = [("", root, ())]
    while stack:
        path, node, via = stack.pop()
        if not isinstance(node, Mapping) or path in seen or (path, "") in cut or (path, "readOnly") in cut:
            continue
        seen.add(path)
        yield path, node, via
        stack.extend((child, sub, (*via, path)) for child, sub in _children(root, path, node, cut, via))


def _children(
    root: Mapping[str, Any], path: str, node: Mapping[str, Any], cut: set[tuple[str, str]], via: tuple[str, ...]
) -> list[Any]:
    where = (*via, path)
    dropped = {
        key
        for key in node
        if any((place, RENAMED.get(key, "")) in cut for place in where)
        or (
            key not in ("oneOf", "prefixItems")
            and not (key == "items" and isinstance(node[key], list))
            and any((place, key) in cut for place in where)
        )
    }
    node = {key: value for key, value in node.items() if key not in dropped}  # reported whole
    out: list[tuple[str, Any]] = []
    if isinstance(node.get("properties"), Mapping):
        out += [(f"{path}/properties/{escape(str(k))}", v) for k, v in node["properties"].items()]
    if isinstance(node.get("items"), Mapping):
        out.append((f"{path}/items", node["items"]))
    for key in ("allOf", "anyOf", "oneOf", "prefixItems", "items"):
        if key == "prefixItems" and (node.get("items") is True or isinstance(node.get("items"), Mapping)):
            continue  # replaced by items, reported whole
        if isinstance(node.get(key), list):
            out += [(f"{path}/{key}/{index}", sub) for index, sub in enumerate(node[key])]
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#") and (path, "$ref") not in cut:
        target: Any = root
        pointer = ref[1:]
        for token in pointer.split("/")[1:]:
            target = target[token.replace("~1", "/").replace("~0", "~")]
        out.append((pointer, target))
    return out


def unaccounted(root: Mapping[str, Any], schema: dict[str, Any], losses: tuple[Loss, ...]) -> list[str]:
    """Input keywords that are neither carried into ``schema`` nor reported as a loss (should be empty)."""
    lost = {(loss.path, loss.keyword) for loss in losses}
    keys = output_keys(schema)
    missing: list[str] = []
    for path, node, via in reachable(root, losses):
        for key, value in node.items():
            names = {key, RENAMED.get(key, key)}
            if any((where, name) in lost for where in via for name in names) or any(
                keyword == key and where.startswith(f"{path}/") for where, keyword in lost
            ):
                continue  # reported where the node was merged in, or on the branch it was moved into
            if key == "required" and isinstance(value, list):
                value = [name for name in value if (f"{path}/properties/{escape(name)}", "readOnly") not in lost]
                if not value:
                    continue  # requires nothing, or only read-only properties (reported with them)
            if key in SILENT_KEYWORDS or key in STRUCTURAL or str(key).startswith("x-") or (path, key) in lost:
                continue
            if key == "readOnly":
                if value is True and not any(loss.keyword == "readOnly" for loss in losses):
                    missing.append(f"{path}: readOnly property kept without a loss")
            elif key in ALWAYS_LOST:
                missing.append(f"{path}: {key} dropped without a loss")
            elif key == "description" and value not in output_values(schema, "description"):
                missing.append(f"{path}: description {value!r} not carried")
            elif key in ("pattern", "format") and value not in output_values(schema, key):
                missing.append(f"{path}: {key} {value!r} not carried")
            elif key in KEYWORDS and key not in ALWAYS_LOST | {"readOnly", "nullable"}:
                if RENAMED.get(key, key) not in keys:
                    missing.append(f"{path}: {key} not carried")
            elif key not in KEYWORDS:
                missing.append(f"{path}: unknown keyword {key!r} dropped without a loss")
    return missing


# -- arbitrary JSON-Schema-ish dicts ------------------------------------------------------------------------
_TYPE_NAMES = ["string", "number", "integer", "boolean", "array", "object", "null"]
_json_scalars = (
    st.none() | st.booleans() | st.integers(-5, 5) | st.floats(-10, 10, allow_nan=False) | st.text(max_size=3)
)
_names = st.sampled_from(["a", "b", "c", "d"])


def _keyword_values(children: st.SearchStrategy[Any]) -> st.SearchStrategy[tuple[str, Any]]:
    simple = st.one_of(
        st.tuples(st.just("type"), st.sampled_from(_TYPE_NAMES) | st.lists(st.sampled_from(_TYPE_NAMES), max_size=3)),
        st.tuples(st.just("enum"), st.lists(_json_scalars, max_size=3)),
        st.tuples(st.just("const"), _json_scalars),
        st.tuples(st.sampled_from(["description", "pattern", "format", "title"]), st.text(max_size=4)),
        st.tuples(st.just("format"), st.sampled_from(["date", "uuid", "int64", "email", "uri"])),
        st.tuples(st.sampled_from(["minimum", "maximum", "exclusiveMinimum", "multipleOf"]), st.integers(-3, 9)),
        st.tuples(st.sampled_from(["minLength", "maxItems", "minProperties", "maxLength"]), st.integers(0, 4)),
        st.tuples(st.sampled_from(["nullable", "readOnly", "uniqueItems", "deprecated"]), st.booleans()),
        st.tuples(st.just("default"), _json_scalars),
        st.tuples(st.just("required"), st.lists(_names, max_size=3)),
        st.tuples(st.just("$ref"), st.sampled_from(["#/$defs/A", "#/$defs/B", "#", "#/properties/a"])),
        st.tuples(st.sampled_from(["x-extra", "examples", "$comment", "maxlength"]), _json_scalars),
    )
    nested = st.one_of(
        st.tuples(st.just("properties"), st.dictionaries(_names, children, max_size=3)),
        st.tuples(st.sampled_from(["items", "not", "additionalProperties"]), children),
        st.tuples(
            st.sampled_from(["allOf", "anyOf", "oneOf", "prefixItems"]), st.lists(children, min_size=1, max_size=3)
        ),
    )
    return simple | nested


def schemas(max_leaves: int = 12) -> st.SearchStrategy[dict[str, Any]]:
    """Dicts shaped like JSON Schema (valid or not), with ``$defs`` ``A`` and ``B`` that may refer to each other."""

    def extend(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
        return st.lists(_keyword_values(children), max_size=5).map(dict)

    node = st.recursive(st.just({}) | st.booleans() | extend(st.just({})), extend, max_leaves=max_leaves)
    return st.tuples(node, node, node).map(
        lambda parts: {**parts[0], "$defs": {"A": parts[1], "B": parts[2]}} if isinstance(parts[0], dict) else parts[0]
    )
