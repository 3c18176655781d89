"""Where toolkit's validator and the 2020-12 oracle disagree: the two lists, and the classifier over them.

``DELIBERATE`` holds the differences kept on purpose, each with its reason; ``OPEN`` the disagreements that
exist today and are to be fixed, each with the spec's answer. Every entry carries a minimal example and a
predicate over a minimised :class:`~oracle_minimise.Finding`. :func:`classify` names a finding by the first
entry whose predicate holds (deliberate first), or ``unclassified: ...`` with the keywords that were left.
A fix to the validator makes its OPEN example stop reproducing: then the entry (and its xfail) goes.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

from oracle_gen import cases, dumps, toolkit_outcome
from oracle_judges import is_json, jsonschema_verdict, oracle, rs_verdict
from oracle_minimise import Finding, disagreement, minimise

__all__ = ["DELIBERATE", "OPEN", "Known", "Sweep", "classify", "known", "reproduces", "sweep"]


@dataclass(frozen=True, slots=True)
class Known:
    name: str
    kind: Literal["deliberate", "open"]
    why: str
    """Deliberate: why toolkit differs on purpose. Open: what 2020-12 asks instead."""
    schema: dict[str, Any]
    instance: Any
    matches: Callable[[Finding], bool] = field(repr=False)


# -- what a finding holds ----------------------------------------------------------------------------
def _accepts(f: Finding) -> bool:
    return f.toolkit.verdict == "valid"


def _rejects(f: Finding) -> bool:
    return f.toolkit.verdict == "invalid"


def _walk(schema: Any, key: str) -> Iterator[Any]:
    """Every value of ``key`` in schema nodes (and, for ``patternProperties``, each pattern)."""
    if isinstance(schema, list):
        for item in schema:
            yield from _walk(item, key)
    elif isinstance(schema, dict):
        for name, value in schema.items():
            if name == key:
                yield from (value if key == "patternProperties" and isinstance(value, dict) else [value])
            if name not in ("enum", "const", "default"):
                yield from _walk(value, key)


def _patterns(f: Finding) -> list[str]:
    return [p for key in ("pattern", "patternProperties") for p in _walk(f.schema, key) if isinstance(p, str)]


def _python_reads(pattern: str) -> bool:
    try:
        re.compile(pattern)
    except re.error:
        return False
    return True


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _strings(item)


def _formats(f: Finding) -> set[str]:
    return {fmt for fmt in _walk(f.schema, "format") if isinstance(fmt, str)}


_LEAP = re.compile(r"(?:^|T)(\d\d):(\d\d):60(?:\.\d+)?(?:[Zz]|([+-])(\d\d):(\d\d))$")


def _utc_leap_second(text: str) -> bool:
    """``..T23:59:60Z`` or the same instant at an offset (``00:59:60+01:00``): the only leap second RFC 3339 allows."""
    match = _LEAP.search(text)
    if match is None or (match[3] is None and not text.upper().endswith("Z")):
        return False
    minutes = int(match[1]) * 60 + int(match[2])
    if match[3]:
        offset = int(match[4]) * 60 + int(match[5])
        minutes -= offset if match[3] == "+" else -offset
    return minutes % 1440 == 23 * 60 + 59


def _decimal_agrees(f: Finding) -> bool:
    """The oracle with ``multipleOf`` read in decimal sides with toolkit: the float arithmetic was wrong."""
    return "multipleOf" in f.keywords and jsonschema_verdict(f.schema, f.instance, decimal=True) == f.toolkit.verdict


def _key_declared_and_matched(f: Finding) -> bool:
    return _accepts(f) and {"properties", "patternProperties"} <= f.keywords


def _refs(f: Finding) -> list[str]:
    return [r for r in _walk(f.schema, "$ref") if isinstance(r, str)]


def _numbers(value: Any) -> Iterator[float]:
    if isinstance(value, float):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from _numbers(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _numbers(item)


def _by_json_text(f: Finding) -> bool:
    """const/enum/uniqueItems decided where a float equals an integer (1.0, -0.0) in the value or the schema."""
    values = [f.instance, *_walk(f.schema, "const"), *_walk(f.schema, "enum")]
    return bool({"const", "enum", "uniqueItems"} & f.keywords) and any(
        x.is_integer() for value in values for x in _numbers(value) if math.isfinite(x)
    )


def _declared_texts(f: Finding) -> set[str]:
    """The strings a declaration shows for the non-string enum/const members of the schema (``2`` as ``"2"``)."""
    members = [*_walk(f.schema, "const"), *(m for e in _walk(f.schema, "enum") if isinstance(e, list) for m in e)]
    return {json.dumps(m) for m in members if m is not None and not isinstance(m, str)}


def _has(*keywords: str) -> Callable[[Finding], bool]:
    return lambda f: any(k in f.keywords for k in keywords)


def _format_class(name: str, example: dict[str, Any], instance: Any, why: str) -> Known:
    def matches(f: Finding) -> bool:
        return _formats(f) == {name}

    return Known(f"format-{name}", "open", why, example, instance, matches)


def _prop(schema: dict[str, Any], **root: Any) -> dict[str, Any]:
    return {"type": "object", "properties": {"a": schema}, **root}


# -- the lists ---------------------------------------------------------------------------------------
DELIBERATE: tuple[Known, ...] = (
    Known("declared-enum-strings", "deliberate",
          "the Gemini declaration can show enum/const members only as strings, so the string it showed for a "
          "non-string member is read back as that member, with a coerced_enum notice (toolkit/_compile.py)",
          _prop({"enum": [2]}), {"a": "2"}, lambda f: _accepts(f) and "coerced_enum" in f.toolkit.notices),
    Known("openapi-nullable", "deliberate",
          "OpenAPI 3.0's nullable: true beside a type also accepts null, as the lowered declaration says; read "
          "the same way wherever it sits (so not: {type: string, nullable: true} refuses null)",
          _prop({"type": "integer", "nullable": True}), {"a": None}, _has("nullable")),
    Known("openapi-readonly-not-required", "deliberate",
          "a readOnly property is never required: a request does not carry it and the declaration does not offer it",
          _prop({"readOnly": True}, required=["a"]), {},
          lambda f: _accepts(f) and {"readOnly", "required"} <= f.keywords),
    Known("openapi-integer-formats", "deliberate",
          "OpenAPI's int32/int64 formats are asserted as integer ranges (2020-12 leaves unknown formats alone)",
          _prop({"type": "integer", "format": "int32"}), {"a": 2**40},
          lambda f: _rejects(f) and bool(_formats(f) & {"int32", "int64"})),
    Known("time-without-offset", "deliberate",
          "format time accepts a wall-clock time without an offset (14:02:00): what tool functions mean by a time "
          "(toolkit/_formats.py); RFC 3339 full-time requires the offset",
          _prop({"format": "time"}), {"a": "14:02:00"},
          lambda f: _accepts(f) and _formats(f) == {"time"}
          and any(re.fullmatch(r"\d\d:\d\d:\d\d(\.\d+)?", s) for s in _strings(f.instance))),
    Known("leap-second", "deliberate",
          "23:59:60 UTC is a valid RFC 3339 leap second; jsonschema's rfc3339-validator refuses every :60 "
          "(jsonschema-rs accepts it)",
          _prop({"format": "date-time"}), {"a": "2016-12-31T23:59:60Z"},
          lambda f: _accepts(f) and bool(_formats(f) & {"date-time", "time"})
          and any(_utc_leap_second(s) for s in _strings(f.instance))),
    Known("format-trailing-newline", "deliberate",
          "a final newline is not part of a date-time, time, hostname or uri: jsonschema's checkers match with "
          "Python's $ and let it through (jsonschema-rs refuses it, as toolkit does)",
          _prop({"format": "time"}), {"a": "14:02:00Z\n"},
          lambda f: bool(_formats(f)) and f.rs == f.toolkit.verdict
          and any(s.endswith("\n") for s in _strings(f.instance))),
    Known("hostname-ascii-digits", "deliberate",
          "a hostname's digits are ASCII (RFC 1123); the fqdn package behind jsonschema matches \\d, which takes "
          "Arabic-Indic digits too (jsonschema-rs refuses them, as toolkit does)",
          _prop({"format": "hostname"}), {"a": "١٢٣"},
          lambda f: _rejects(f) and _formats(f) == {"hostname"} and f.rs == "invalid"
          and any(ch.isdigit() and not ch.isascii() for s in _strings(f.instance) for ch in s)),
    Known("multipleof-decimal", "deliberate",
          "JSON numbers are decimal text: 0.3 is 3 x 0.1 and 1e308 a multiple of 1e-10; jsonschema divides "
          "binary floats and says otherwise (the decimal reading sides with toolkit)",
          _prop({"multipleOf": 0.1}), {"a": 0.3}, _decimal_agrees),
)  # fmt: skip

OPEN: tuple[Known, ...] = (
    Known("unevaluated-properties-ignored", "open", "unevaluatedProperties applies to keys no adjacent or "
          "in-place keyword evaluated", _prop({}, allOf=[{"properties": {"a": {}}}], unevaluatedProperties=False),
          {"a": 1, "b": 2}, _has("unevaluatedProperties")),
    Known("unevaluated-items-ignored", "open", "unevaluatedItems applies to items nothing else evaluated",
          _prop({"prefixItems": [{}], "unevaluatedItems": False}), {"a": [1, 2]},
          _has("unevaluatedItems")),
    Known("property-names-ignored", "open", "propertyNames validates every key of the object",
          _prop({}, propertyNames={"maxLength": 1}), {"a": 1, "bb": 2},
          _has("propertyNames")),
    Known("dependent-schemas-ignored", "open", "dependentSchemas applies its schema when its key is present",
          _prop({}, dependentSchemas={"a": {"required": ["b"]}}), {"a": 1},
          _has("dependentSchemas")),
    Known("dynamic-ref-ignored", "open", "$dynamicRef resolves (within one document, like $ref) and applies",
          {**_prop({"$dynamicRef": "#/$defs/T"}), "$defs": {"T": {"$dynamicAnchor": "T", "type": "string"}}},
          {"a": 1}, _has("$dynamicRef")),
    Known("ecma-pattern-unreadable", "open", "a pattern is ECMA-262: reject what it does not match (or refuse the "
          "schema), never skip it", _prop({"pattern": r"^\p{L}+$"}), {"a": "123"},
          lambda f: f.toolkit.verdict != "refused" and any(not _python_reads(p) for p in _patterns(f))),
    Known("pattern-properties-skip-declared", "open", "patternProperties applies to every matching key, "
          "declared in properties or not", _prop({}, patternProperties={"^a": {"type": "integer"}}), {"a": "s"},
          _key_declared_and_matched),
    Known("defaults-before-keywords", "open", "the instance is validated as sent: a default is an annotation, "
          "not a value minProperties, dependentRequired, allOf or if/then can see",
          _prop({"default": 1}, maxProperties=0), {}, _has("default")),
    Known("multipleof-tolerance", "open", "multipleOf is exact: 1e-10 is not a multiple of 1, nor 2.0 of 1e20",
          _prop({"multipleOf": 1}), {"a": 1e-10}, _has("multipleOf")),
    Known("declared-strings-in-conditions", "open", "the string a declaration shows for a non-string member "
          "(\"true\" for enum [true]) is read as the member inside if/not/oneOf too, so a valid value is refused; "
          "2020-12: \"true\" is not true", _prop({"if": {"enum": [True]}, "then": {"type": "object"}}), {"a": "true"},
          lambda f: _rejects(f) and bool(_declared_texts(f) & set(_strings(f.instance)))),
    Known("equality-by-json-text", "open", "const, enum and uniqueItems use JSON equality: 1 == 1.0",
          _prop({"const": {"b": 1}}), {"a": {"b": 1.0}}, _by_json_text),
    Known("non-finite-numbers", "open", "NaN and infinities are not JSON numbers: refuse them",
          _prop({"type": "number"}), {"a": float("nan")}, lambda f: _accepts(f) and not is_json(f.instance)),
    Known("python-regex-semantics", "open", "ECMA-262 classes: \\s includes U+00A0, U+3000 and U+FEFF, . stops "
          "at U+2028, U+2029 and \\r", _prop({"pattern": r"^\s$"}), {"a": "\u3000"},
          lambda f: bool(_patterns(f)) and all(_python_reads(p) for p in _patterns(f))
          and not _key_declared_and_matched(f) and is_json(f.instance)),
    Known("anchor-ref-refused", "open", "a $ref to a plain-name fragment (#name) resolves to the $anchor or "
          "$dynamicAnchor of that name", {**_prop({"$ref": "#t"}), "$defs": {"T": {"$anchor": "t"}}}, {"a": 1},
          lambda f: f.toolkit.verdict == "refused" and any(re.match(r"#[^/]", r) for r in _refs(f))),
    _format_class("date-time", _prop({"format": "date-time"}), {"a": "2026-08-07 14:02:00Z"},
                  "RFC 3339 date-time: T between date and time, a leap second only at 23:59:60 UTC"),
    _format_class("email", _prop({"format": "email"}), {"a": "a..b@c.d"},
                  "RFC 5321 mailbox: no empty dot-atom parts; a [IPv4] address literal is a domain"),
    _format_class("duration", _prop({"format": "duration"}), {"a": "P1Y2W"},
                  "RFC 3339 appendix A duration: weeks stand alone (P2W), never beside years, months or days"),
    _format_class("uri", _prop({"format": "uri"}), {"a": "http://é.com"},
                  "RFC 3986 URI: ASCII only (a non-ASCII host or path is an IRI, format iri)"),
    _format_class("ipv6", _prop({"format": "ipv6"}), {"a": "fe80::1%eth0"},
                  "RFC 4291 text form: no zone identifier (%eth0 belongs to URIs, RFC 6874)"),
)  # fmt: skip


def known() -> tuple[Known, ...]:
    return DELIBERATE + OPEN


def _carriers_removed(keywords: frozenset[str]) -> list[str]:
    return sorted(keywords - {"type", "properties", "$defs"})


def classify(f: Finding) -> str:
    """The name of the first known entry that explains ``f`` (deliberate before open), else ``unclassified``."""
    for entry in known():
        if entry.matches(f):
            return entry.name
    side = {"valid": "accepts", "invalid": "rejects"}.get(f.toolkit.verdict, f"refuses ({f.toolkit.slug})")
    return f"unclassified: toolkit {side}; {', '.join(_carriers_removed(f.keywords)) or 'no keywords'}"


def kind_of(name: str) -> str:
    return next((entry.kind for entry in known() if entry.name == name), "unclassified")


def reproduces(entry: Known) -> bool:
    """True while the entry's own minimal example still disagrees, for the entry's reason."""
    found = disagreement(entry.schema, entry.instance)
    return found is not None and classify(found) == entry.name


@dataclass
class Sweep:
    """Counts of one run: cases, agreements, undecided cases, and per class the minimal findings seen."""

    cases: int = 0
    agreed: int = 0
    undecided: int = 0
    valid: int = 0
    counts: Counter[str] = field(default_factory=Counter)
    examples: dict[str, list[Finding]] = field(default_factory=dict)


def sweep(seed: int, count: int, keep: int = 3) -> Sweep:
    """Judge ``count`` generated cases; minimise and classify every disagreement.

    A schema toolkit refuses is refused whatever the instance, so it is minimised once, not once per instance.
    """
    out = Sweep()
    refused: dict[tuple[str, str | None], str] = {}
    for case in cases(seed, count):
        out.cases += 1
        toolkit, judged = toolkit_outcome(case.schema, case.instance), oracle(case.schema, case.instance)
        if judged.verdict == "undecided":
            out.undecided += 1
            continue
        if toolkit.verdict == judged.verdict:
            out.agreed += 1
            out.valid += judged.verdict == "valid"
            continue
        key = (dumps(case.schema), toolkit.slug)
        name = refused.get(key) if toolkit.verdict == "refused" else None
        if name is None:
            small = minimise(
                Finding(case.schema, case.instance, toolkit, judged, rs_verdict(case.schema, case.instance))
            )
            name = classify(small)
            seen = out.examples.setdefault(name, [])
            if len(seen) < keep:
                seen.append(small)
            if toolkit.verdict == "refused":
                refused[key] = name
        out.counts[name] += 1
    return out
