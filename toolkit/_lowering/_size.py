"""The size the declaration budget counts (:mod:`toolkit._lowering._budget`): a declaration's bytes as compact
UTF-8 JSON, keys in their order (what google-genai puts on the wire near enough), and an approximate token
count, ``ceil(bytes / 4)``.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from typing import Any

import orjson

from toolkit._contract import ToolContract
from toolkit._lowering.gemini import has_arguments

__all__ = ["declaration_bytes", "declaration_size", "json_bytes", "tokens"]


def tokens(size: int) -> int:
    """An approximate token count for ``size`` bytes of JSON: ``ceil(size / 4)`` (see the module's notes)."""
    return -(-size // 4)


def declaration_bytes(declaration: Mapping[str, Any]) -> int:
    """The size the budget counts: the declaration as compact UTF-8 JSON, keys in their order. A value JSON
    cannot hold (a NaN or an infinite bound, a stray object) counts as its text: other checks refuse it."""
    return json_bytes(declaration)


def json_bytes(value: Any) -> int:
    """The length of ``value`` as compact UTF-8 JSON (``json.dumps`` with ``separators=(",", ":")``,
    ``ensure_ascii=False`` and ``default=str``, encoded). ``orjson`` writes the same bytes about nine times
    faster, except for a few values, which take the standard encoder: some floats (Python writes ``1e-05``
    and ``NaN`` where orjson writes ``0.00001`` and ``null``), an integer beyond 64 bits, a key that is not a
    string, a string orjson refuses, and a stray object (a dataclass, a date: orjson would write them its own
    way). The floats are found in orjson's output (:func:`_floats_differ`): every float the two write
    differently has an exponent, four zeros after its point, or is ``null`` (checked over a million random
    doubles and every power of ten)."""
    try:
        text = orjson.dumps(value, default=_stray, option=_ORJSON)
    except TypeError:  # orjson.JSONEncodeError is one: big integers, non-string keys, lone surrogates, strays
        return _std_bytes(value)
    if _floats_differ(text):
        return _std_bytes(value)
    return len(text)


def _stray(value: Any) -> Any:
    """What orjson cannot write natively goes to the standard encoder, which writes its ``str``."""
    raise TypeError(type(value).__name__)


_ORJSON = orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME
"""Dataclasses and dates are strays too (orjson would write them its own way)."""


def _std_bytes(value: Any) -> int:
    return len(_ENCODER.encode(value).encode("utf-8"))


_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, default=str)
_NUMBERS = bytes.maketrans(b"123456789E,[", b"000000000e::")
"""Every digit as ``0``, ``E`` as ``e``, and what may precede a value (``,`` and ``[``) as ``:``, so that three
plain substring searches find every float orjson writes otherwise than ``json.dumps`` (:func:`json_bytes`)."""


def _floats_differ(text: bytes) -> bool:
    """Whether orjson's output may hold a float ``json.dumps`` writes otherwise: a number with an exponent or
    four zeros after its point, or a ``null`` value (NaN and the infinities). Strings that look the same
    (``"x,null"``) only send a declaration to the standard encoder."""
    digits = text.translate(_NUMBERS)
    return b"0e" in digits or b"0.0000" in digits or b":null" in digits or digits.startswith(b"null")


def declaration_size(
    contract: ToolContract, schema: Mapping[str, Any] | None, sizes: dict[int, Any] | None = None
) -> int:
    """:func:`declaration_bytes` of the contract's declaration with ``schema`` as its parameters. With ``sizes``
    (by node id, the node kept beside so its id cannot be reused), each top-level argument's node is measured
    once: lowerings share the nodes of shared parameters, and compact JSON's size is the sum of its parts."""
    body: dict[str, Any] = {"name": contract.name, "description": contract.description}
    if schema is None or not has_arguments(contract):
        return declaration_bytes(body)
    arguments = schema.get("properties")
    if sizes is None or arguments.__class__ is not dict or not arguments:
        body["parameters"] = schema
        return declaration_bytes(body)
    body["parameters"] = {**schema, "properties": {}}
    total = declaration_bytes(body) + len(arguments) - 1  # the commas between the arguments
    for key, node in arguments.items():
        if key.__class__ is not str:
            body["parameters"] = schema
            return declaration_bytes(body)
        found = sizes.get(id(node))
        if found is None or found[0] is not node:
            found = sizes[id(node)] = (node, json_bytes(node))
        total += _key_bytes(key) + 1 + found[1]
    return total


@functools.lru_cache(maxsize=8192)  # argument names repeat across the tools of a document
def _key_bytes(key: str) -> int:
    return json_bytes(key)
