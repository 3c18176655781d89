"""The text mutators behind :mod:`openapi_mutations`: each takes a document's JSON or YAML text, its suffix
(``.json`` or ``.yaml``) and a seeded ``random.Random``, and returns text or bytes: a BOM, invalid UTF-8, a
5,000-digit literal, YAML anchors, aliases, merge keys and tags, nesting 10^5 deep, truncation, byte flips.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from openapi_mutators import DEEP, HUGE_DIGITS

TextMutator = Callable[[str, str, random.Random], "str | bytes"]


def _insert(text: str, piece: str, rng: random.Random) -> str:
    at = rng.randrange(len(text) + 1)
    return text[:at] + piece + text[at:]


def bom(text: str, suffix: str, rng: random.Random) -> str | bytes:
    return rng.choice(["\ufeff" + text, b"\xef\xbb\xbf" + text.encode("utf-8", "surrogatepass"),
                       b"\xff\xfe" + text.encode("utf-16-le", "surrogatepass"), "\ufeff\ufeff" + text])  # fmt: skip


def invalid_utf8(text: str, suffix: str, rng: random.Random) -> str | bytes:
    if rng.random() < 0.2:
        return _insert(text, "\udcff", rng)  # a lone surrogate: text that cannot be encoded
    raw = text.encode("utf-8", "surrogatepass")
    at = rng.randrange(len(raw) + 1)
    return raw[:at] + rng.choice([b"\xff", b"\xc3\x28", b"\xe2\x82", b"\xed\xa0\x80", b"\x00"]) + raw[at:]


def huge_literal(text: str, suffix: str, rng: random.Random) -> str | bytes:
    """A 5,000-digit number in place of a value (JSON or YAML), or a hex one (YAML reads it too)."""
    digits = rng.choice(["9" * HUGE_DIGITS, "-" + "1" * HUGE_DIGITS, "1" + "0" * HUGE_DIGITS + ".5",
                         "1e99999", "0x" + "f" * HUGE_DIGITS, "0o" + "7" * HUGE_DIGITS, "1" * 4301])  # fmt: skip
    for quoted in ('"3.0', '"2.0', '"string"', "true", "false", '"object"', '"query"'):
        if quoted in text:
            at = text.find(quoted, rng.randrange(len(text)))
            at = at if at >= 0 else text.find(quoted)
            end = text.find('"', at + 1) + 1 if quoted.startswith('"') else at + len(quoted)
            return text[:at] + digits + text[end:]
    return text.replace(": ", f": {digits} #", 1) if suffix == ".yaml" else text.replace(":", f":{digits},", 1)


_YAML_EXTRAS = [
    "x-bomb: &a0 [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"x-b{i}: &a{i} [*a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}]\n"
        for i in range(1, 10)),
    "x-loop: &loop [*loop]\n",
    "x-base: &base {type: string}\nx-merged: {<<: *base, format: date}\n",
    "x-tag: !!python/object:os.system {}\n",
    "x-tag: !!python/name:os.system\n",
    "x-set: !!set {a, b}\n",
    "x-omap: !!omap [{a: 1}, {2: b}]\n",
    "x-pairs: !!pairs [[1, 2]]\n",
    "x-bin: !!binary aGVsbG8=\n",
    "x-ts: !!timestamp 2001-12-14t21:59:43.10-05:00\n",
    "x-custom: !custom {a: 1}\n",
    "x-float: !!float nan\n",
    "x-int: !!int 0x" + "f" * HUGE_DIGITS + "\n",
    "x-key: {? [a, b] : c}\n",
    "x-key: {? {a: 1} : c}\n",
    "x-dup: 1\nx-dup: 2\n",
    "--- \nsecond: document\n",
    "x-anchor: &x [1]\nx-alias: *undefined\n",
]  # fmt: skip


def yaml_extras(text: str, suffix: str, rng: random.Random) -> str | bytes:
    """YAML anchors, aliases, merge keys, tags (safe and unsafe), complex keys, a second document."""
    extra = rng.choice(_YAML_EXTRAS)
    if suffix == ".yaml" and text and not text.startswith(("[", "{", "-", "'", '"')):
        return text + extra
    return extra + text if rng.random() < 0.5 else text.replace('"enum": [', f'"enum": {extra.split(":", 1)[1]}, [')


def tagged_values(text: str, suffix: str, rng: random.Random) -> str | bytes:
    """A YAML tag in front of a value inside the document (``!!set``, ``!!binary``, ``!!python/tuple``)."""
    if suffix != ".yaml":
        return yaml_extras(text, suffix, rng)
    tag = rng.choice(["!!set", "!!binary", "!!python/tuple", "!!omap", "!!str", "!!float", "!!int", "!custom"])
    for key in ("type: ", "enum:\n", "name: ", "in: ", "operationId: ", "- "):
        if key in text:
            at = text.find(key, rng.randrange(len(text)))
            at = at if at >= 0 else text.find(key)
            return text[: at + len(key)] + tag + " " + text[at + len(key) :]
    return text


def deep_text(text: str, suffix: str, rng: random.Random) -> str | bytes:
    """A value nested 10^5 deep, written out: ``[[[...]]]`` or ``{"a": {"a": ...}}`` in JSON or YAML flow style."""
    depth = rng.choice([DEEP, 1100, 990])
    value = "[" * depth + "]" * depth if rng.random() < 0.5 else '{"a": ' * depth + "1" + "}" * depth
    if suffix == ".yaml" and text and not text.startswith(("{", "[")):
        return text + f"x-deep: {value}\n"
    at = text.find("{")
    return text[: at + 1] + f'"x-deep": {value}, ' + text[at + 1 :] if at >= 0 else value


def truncate(text: str, suffix: str, rng: random.Random) -> str | bytes:
    return text[: rng.randrange(len(text) + 1)]


def flip(text: str, suffix: str, rng: random.Random) -> str | bytes:
    raw = bytearray(text.encode("utf-8", "surrogatepass"))
    for _ in range(rng.randint(1, 8)):
        if raw:
            raw[rng.randrange(len(raw))] = rng.randrange(256)
    return bytes(raw)


def control_chars(text: str, suffix: str, rng: random.Random) -> str | bytes:
    piece = rng.choice(["\x00", "\x85", "\u2028", "\t", "\r", "\x1b[31m", "\ufffe", "\x7f"])
    return _insert(text, piece, rng) if rng.random() < 0.5 else text.replace("\n", "\r\n")


TEXT_MUTATORS: list[tuple[str, TextMutator]] = [
    ("bom", bom),
    ("invalid_utf8", invalid_utf8),
    ("huge_literal", huge_literal),
    ("yaml_extras", yaml_extras),
    ("tagged_values", tagged_values),
    ("deep_text", deep_text),
    ("truncate", truncate),
    ("flip", flip),
    ("control_chars", control_chars),
]
