"""A reusable battery of hostile arguments for ``tool.validate()`` and ``tool.call()``.

Each :class:`Payload` names the tool schema it targets (one of :data:`SCHEMAS`) and builds its arguments on
demand (a 10 MB text or a 300,000-key dict is made only when used): huge integers, nesting 10^5 deep under
``{}`` and arrays, Python object cycles, objects whose ``__repr__``/``__eq__``/``__hash__`` raise, non-string
keys, 300,000 unknown keys, giant strings, bytes, NaN and infinities, ``Decimal``, subclasses of dict, str
and int, and 10 MB of JSON text. ``many`` is how many field errors the arguments deserve (``None`` when it
is not a fixed number), so a test can check the envelope's bound and the notice counting the rest.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

DEEP = 100_000
HUGE = 10**5000
"""A 5,001-digit integer: past Python's 4,300-digit limit for ``str(int)``."""
UNKNOWN_KEYS = 300_000

SCHEMAS: dict[str, dict[str, Any]] = {
    "any": {"type": "object", "properties": {"x": {}}, "additionalProperties": False},
    "closed": {"type": "object", "properties": {"n": {"type": "integer"}}, "additionalProperties": False},
    "typed": {
        "type": "object",
        "properties": {
            "i": {"type": "integer", "minimum": 0, "maximum": 100},
            "f": {"type": "number", "maximum": 1e6},
            "s": {"type": "string", "maxLength": 100},
            "b": {"type": "boolean"},
            "a": {"type": "array", "items": {"type": "integer"}},
            "o": {"type": "object", "properties": {"k": {"type": "string"}}, "additionalProperties": False},
        },
        "additionalProperties": False,
    },
    "enum": {
        "type": "object",
        "properties": {"e": {"enum": [1, "a", None, [1, 2], {"k": "v"}]}},
        "additionalProperties": False,
    },
    "const": {"type": "object", "properties": {"c": {"const": {"k": [1, 2]}}}, "additionalProperties": False},
    "unique": {
        "type": "object",
        "properties": {"u": {"type": "array", "uniqueItems": True}},
        "additionalProperties": False,
    },
    "strings": {
        "type": "object",
        "properties": {"s": {"type": "string", "pattern": "^[a-z]+$", "format": "email"}},
        "additionalProperties": False,
    },
}


@dataclass(frozen=True, slots=True)
class Payload:
    """One hostile argument value for one schema."""

    id: str
    schema: str
    make: Callable[[], Any]
    many: int | None = None
    """How many field errors the arguments deserve, when that is a fixed number over the bound."""


# -- hostile objects ---------------------------------------------------------------------------------------
class RaisingRepr:
    """``repr``/``str`` raise; equality and hashing work."""

    def __repr__(self) -> str:
        raise RuntimeError("repr raised")

    __str__ = __repr__


class RaisingEq:
    """``==`` raises (hashing works, so it can sit in sets and dict keys)."""

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("eq raised")

    def __hash__(self) -> int:
        return 1


class RaisingHash:
    """Hashing raises."""

    def __hash__(self) -> int:
        raise RuntimeError("hash raised")


class Key:
    """A hashable dict key whose ``repr`` raises."""

    def __repr__(self) -> str:
        raise RuntimeError("repr raised")

    __str__ = __repr__


class Text(str):
    pass


class Number(int):
    pass


class Real(float):
    pass


class Args(dict):  # type: ignore[type-arg]
    pass


class Level(enum.IntEnum):
    HIGH = 7


def deep_dict(depth: int = DEEP) -> Any:
    node: Any = {}
    for _ in range(depth):
        node = {"a": node}
    return node


def deep_list(depth: int = DEEP) -> Any:
    node: Any = []
    for _ in range(depth):
        node = [node]
    return node


def cyclic_dict() -> dict[str, Any]:
    node: dict[str, Any] = {"k": 1}
    node["self"] = node
    return node


def cyclic_list() -> list[Any]:
    node: list[Any] = [1]
    node.append(node)
    return node


def self_args() -> dict[str, Any]:
    args: dict[str, Any] = {}
    args["x"] = args
    return args


def deep_text(depth: int = DEEP) -> str:
    return '{"x": ' + "[" * depth + "]" * depth + "}"


def big_text() -> str:
    """About 10 MB of JSON text: a list of 1.4 million integers under ``{}``."""
    return '{"x": [' + ", ".join("1234567" for _ in range(1_400_000)) + "]}"


def huge_text() -> str:
    return '{"n": ' + "9" * 5000 + "}"


# -- the battery -------------------------------------------------------------------------------------------
PAYLOADS: tuple[Payload, ...] = (
    # huge integers (past the 4,300-digit str() limit) wherever a value can go
    Payload("huge_int_integer", "closed", lambda: {"n": HUGE}),
    Payload("huge_negative_int", "closed", lambda: {"n": -HUGE}),
    Payload("huge_int_bounded", "typed", lambda: {"i": HUGE}),
    Payload("huge_int_string", "typed", lambda: {"s": HUGE}),
    Payload("huge_int_any", "any", lambda: {"x": HUGE}),
    Payload("huge_int_in_array", "typed", lambda: {"a": [1, HUGE]}),
    Payload("huge_int_enum", "enum", lambda: {"e": HUGE}),
    Payload("huge_int_const", "const", lambda: {"c": HUGE}),
    Payload("huge_int_unique", "unique", lambda: {"u": [HUGE, HUGE]}),
    Payload("huge_int_unknown_key", "closed", lambda: {"other": HUGE}),
    Payload("huge_int_json_text", "closed", huge_text),
    Payload("int_2_64", "typed", lambda: {"i": 2**64}),
    # nesting 10^5 deep
    Payload("deep_dict_any", "any", lambda: {"x": deep_dict()}),
    Payload("deep_list_any", "any", lambda: {"x": deep_list()}),
    Payload("deep_list_array", "typed", lambda: {"a": deep_list()}),
    Payload("deep_dict_object", "typed", lambda: {"o": deep_dict()}),
    Payload("deep_dict_enum", "enum", lambda: {"e": deep_dict()}),
    Payload("deep_list_unique", "unique", lambda: {"u": [deep_list(), deep_list()]}),
    Payload("deep_dict_unknown_key", "closed", lambda: {"other": deep_dict()}),
    Payload("deep_json_text", "any", deep_text),
    # Python object cycles
    Payload("cyclic_dict_any", "any", lambda: {"x": cyclic_dict()}),
    Payload("cyclic_list_any", "any", lambda: {"x": cyclic_list()}),
    Payload("cyclic_list_array", "typed", lambda: {"a": cyclic_list()}),
    Payload("cyclic_dict_object", "typed", lambda: {"o": cyclic_dict()}),
    Payload("cyclic_dict_enum", "enum", lambda: {"e": cyclic_dict()}),
    Payload("cyclic_list_const", "const", lambda: {"c": cyclic_list()}),
    Payload("cyclic_unique", "unique", lambda: {"u": [cyclic_list(), cyclic_list()]}),
    Payload("cyclic_args", "any", self_args),
    # keys that are not strings
    Payload("mixed_keys_any", "any", lambda: {"x": {1: "a", "b": 2}}),
    Payload("mixed_keys_enum", "enum", lambda: {"e": {1: "a", "b": 2}}),
    Payload("mixed_keys_unique", "unique", lambda: {"u": [{1: "a", "b": 2}, {1: "a", "b": 2}]}),
    Payload("mixed_keys_const", "const", lambda: {"c": {1: "a", "k": 2}}),
    Payload("int_key_args", "closed", lambda: {1: "a", "n": 1}),
    Payload("tuple_key_args", "closed", lambda: {(1, 2): "a"}),
    Payload("none_key_any", "any", lambda: {"x": {None: 1}}),
    Payload("raising_repr_key", "any", lambda: {"x": {Key(): 1}}),
    Payload("raising_repr_key_args", "closed", lambda: {Key(): 1}),
    # objects whose dunder methods raise
    Payload("raising_repr_any", "any", lambda: {"x": RaisingRepr()}),
    Payload("raising_repr_string", "typed", lambda: {"s": RaisingRepr()}),
    Payload("raising_repr_enum", "enum", lambda: {"e": RaisingRepr()}),
    Payload("raising_repr_args", "any", RaisingRepr),
    Payload("raising_eq_enum", "enum", lambda: {"e": RaisingEq()}),
    Payload("raising_eq_const", "const", lambda: {"c": RaisingEq()}),
    Payload("raising_eq_unique", "unique", lambda: {"u": [RaisingEq(), RaisingEq()]}),
    Payload("raising_hash_unique", "unique", lambda: {"u": [RaisingHash(), RaisingHash()]}),
    Payload("raising_hash_enum", "enum", lambda: {"e": RaisingHash()}),
    # many problems at once
    Payload("unknown_keys_300k", "closed", lambda: {f"k{i}": i for i in range(UNKNOWN_KEYS)}, UNKNOWN_KEYS),
    Payload("wrong_items_300k", "typed", lambda: {"a": ["x"] * UNKNOWN_KEYS}, UNKNOWN_KEYS),
    Payload("unknown_keys_100", "closed", lambda: {f"k{i}": i for i in range(100)}, 100),
    # giant strings and text
    Payload("giant_string_bounded", "typed", lambda: {"s": "x" * 10_000_000}),
    Payload("giant_string_any", "any", lambda: {"x": "x" * 10_000_000}),
    Payload("giant_string_pattern", "strings", lambda: {"s": "a" * 10_000_000 + "!"}),
    Payload("giant_unknown_key_name", "closed", lambda: {"k" * 10_000_000: 1}),
    Payload("lone_surrogate_string", "typed", lambda: {"s": "\ud800"}),
    Payload("lone_surrogate_key", "closed", lambda: {"\ud800": 1}),
    Payload("nul_in_string", "strings", lambda: {"s": "a\x00b"}),
    Payload("json_text_10mb", "any", big_text),
    Payload("json_bytes_10mb", "any", lambda: big_text().encode()),
    # bytes and other non-JSON values
    Payload("bytes_string", "typed", lambda: {"s": b"abc"}),
    Payload("bytes_any", "any", lambda: {"x": b"\xff\xfe"}),
    Payload("bytearray_any", "any", lambda: {"x": bytearray(b"x")}),
    Payload("invalid_utf8_bytes_args", "any", lambda: b'{"x": "\xff"}'),
    Payload("set_array", "typed", lambda: {"a": {1, 2}}),
    Payload("tuple_array", "typed", lambda: {"a": (1, 2)}),
    Payload("object_any", "any", lambda: {"x": object()}),
    Payload("complex_number", "typed", lambda: {"f": complex(1, 2)}),
    # NaN and infinities as Python floats (JSON text with them is refused already)
    Payload("nan_number", "typed", lambda: {"f": math.nan}),
    Payload("inf_number", "typed", lambda: {"f": math.inf}),
    Payload("negative_inf_integer", "typed", lambda: {"i": -math.inf}),
    Payload("nan_any", "any", lambda: {"x": math.nan}),
    Payload("inf_any", "any", lambda: {"x": [math.inf]}),
    Payload("nan_enum", "enum", lambda: {"e": math.nan}),
    Payload("nan_unique", "unique", lambda: {"u": [math.nan, math.nan]}),
    Payload("nan_unknown_key", "closed", lambda: {"other": math.nan}),
    # Decimal
    Payload("decimal_number", "typed", lambda: {"f": Decimal("1.5")}),
    Payload("decimal_integer", "typed", lambda: {"i": Decimal("7")}),
    Payload("decimal_nan", "typed", lambda: {"f": Decimal("NaN")}),
    Payload("decimal_huge", "typed", lambda: {"f": Decimal("1e999999")}),
    Payload("decimal_any", "any", lambda: {"x": Decimal("1.5")}),
    # subclasses of dict, str, int, float
    Payload("dict_subclass_args", "typed", lambda: Args(i=1)),
    Payload("str_subclass", "typed", lambda: {"s": Text("abc")}),
    Payload("int_subclass", "typed", lambda: {"i": Number(5)}),
    Payload("int_enum", "typed", lambda: {"i": Level.HIGH}),
    Payload("float_subclass", "typed", lambda: {"f": Real(1.5)}),
    Payload("str_subclass_key", "closed", lambda: {Text("n"): 1}),
    Payload("dict_subclass_object", "typed", lambda: {"o": Args(k="v")}),
    # arguments that are not an object
    Payload("list_args", "any", lambda: [1, 2]),
    Payload("set_args", "any", lambda: {1, 2}),
    Payload("int_args", "any", lambda: 3),
    Payload("object_args", "any", object),
)
"""Every hostile payload (ids are unique)."""


def by_id() -> dict[str, Payload]:
    return {p.id: p for p in PAYLOADS}
