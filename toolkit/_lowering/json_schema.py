"""The ``json_schema`` dialect: the schema itself, for ``FunctionDeclaration.parametersJsonSchema``.

Nothing is rewritten: ``$ref``, ``$defs``, ``oneOf`` and every other keyword pass through, because that
field takes JSON Schema as it is (whether a given model honours each keyword is a question for tests, not
for lowering). The only losses are values JSON cannot carry: non-string object keys (turned into strings),
non-finite numbers and values that are not JSON at all (dropped). Tuples become lists without a loss.
References travel as they are, so they must be readable: they are checked by
:func:`toolkit._refs.check_references`, with the same slugs as the other dialects and the validator.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from toolkit._contract import Loss
from toolkit._exceptions import SchemaError
from toolkit._lowering._keywords import escape
from toolkit._refs import Refs, check_references

__all__ = ["carry"]

_MISSING = object()


def carry(schema: Mapping[str, Any]) -> tuple[dict[str, Any], tuple[Loss, ...]]:
    """A JSON copy of ``schema`` and the losses for whatever JSON cannot hold."""
    if not isinstance(schema, Mapping):
        raise SchemaError(f"a schema must be a JSON object, got {type(schema).__name__}", slug="bad_schema")
    check_references(schema, Refs(schema))  # the references travel as they are: they must be readable
    losses: list[Loss] = []
    result = _copy(schema, "", losses, 0)
    return result, tuple(losses)


def _copy(value: Any, path: str, losses: list[Loss], depth: int) -> Any:
    if depth > 500:
        raise SchemaError(f"the schema nests deeper than 500 levels at {path}", slug="schema_too_deep")
    if value is None or isinstance(value, (str, bool, int)):
        return value
    if isinstance(value, float):
        if math.isfinite(value):
            return value
        losses.append(Loss(path, _keyword(path), value, "JSON has no non-finite numbers"))
        return _MISSING
    if isinstance(value, Mapping):
        out: dict[str, Any] = {}
        for key, item in value.items():
            name = key if isinstance(key, str) else str(key)
            if name is not key:
                losses.append(Loss(path, name, key, "JSON object keys are strings: the key was stringified"))
            copied = _copy(item, f"{path}/{escape(name)}", losses, depth + 1)
            if copied is not _MISSING:
                out[name] = copied
        return out
    if isinstance(value, (list, tuple)):
        items = [_copy(item, f"{path}/{index}", losses, depth + 1) for index, item in enumerate(value)]
        return [item for item in items if item is not _MISSING]
    losses.append(Loss(path, _keyword(path), repr(value), f"a {type(value).__name__} is not a JSON value"))
    return _MISSING


def _keyword(path: str) -> str:
    return path.rsplit("/", 1)[-1].replace("~1", "/").replace("~0", "~")
