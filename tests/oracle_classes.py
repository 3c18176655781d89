"""Where toolkit's validator and the 2020-12 oracle disagree: the two lists, and the classifier over them.

``DELIBERATE`` holds the differences kept on purpose, each with its reason; ``OPEN`` the disagreements known
and not yet fixed, each with the spec's answer (empty today: the oracle finds none outside DELIBERATE). Every
entry carries a minimal example and a predicate over a minimised :class:`~oracle_minimise.Finding`.
:func:`classify` names a finding by the first entry whose predicate holds (deliberate first), or
``unclassified: ...`` with the keywords that were left. A fix to the validator makes an OPEN example stop
reproducing: then the entry (and its xfail) goes.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

from oracle_gen import cases, dumps, toolkit_outcome
from oracle_judges import jsonschema_verdict, oracle, rs_verdict
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


def _values(value: Any) -> Iterator[Any]:
    if isinstance(value, list):
        for item in value:
            yield from _values(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _values(item)
    else:
        yield value


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


def _has(*keywords: str) -> Callable[[Finding], bool]:
    return lambda f: any(k in f.keywords for k in keywords)


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
          lambda f: bool(_formats(f) & {"int32", "int64"}) and any(
              isinstance(n, int | float) and not isinstance(n, bool) and not -(2**31) <= n < 2**31
              for n in _values(f.instance))),
    Known("time-without-offset", "deliberate",
          "format time accepts a wall-clock time without an offset (14:02:00): what tool functions mean by a time "
          "(toolkit/_formats.py); RFC 3339 full-time requires the offset",
          _prop({"format": "time"}), {"a": "14:02:00"},
          lambda f: _formats(f) == {"time"}
          and any(re.fullmatch(r"\d\d:\d\d:\d\d(\.\d+)?", s) for s in _strings(f.instance))),
    Known("leap-second", "deliberate",
          "23:59:60 UTC is a valid RFC 3339 leap second; jsonschema's rfc3339-validator refuses every :60 "
          "(jsonschema-rs accepts it)",
          _prop({"format": "date-time"}), {"a": "2016-12-31T23:59:60Z"},
          lambda f: f.rs == f.toolkit.verdict and bool(_formats(f) & {"date-time", "time"})
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
          lambda f: _formats(f) == {"hostname"} and f.rs == f.toolkit.verdict
          and any(ch.isdigit() and not ch.isascii() for s in _strings(f.instance) for ch in s)),
    Known("multipleof-decimal", "deliberate",
          "JSON numbers are decimal text: 0.3 is 3 x 0.1 and 1e308 a multiple of 1e-10; jsonschema divides "
          "binary floats and says otherwise (the decimal reading sides with toolkit)",
          _prop({"multipleOf": 0.1}), {"a": 0.3}, _decimal_agrees),
    Known("duration-rfc-3339", "deliberate",
          "format duration is RFC 3339 appendix A, as 2020-12 says: whole numbers, units in order without gaps "
          "(PT1.5S, P1Y2D and -P1D are refused); jsonschema's isoduration reads ISO 8601, which allows them "
          "(jsonschema-rs refuses them, as toolkit does)",
          _prop({"format": "duration"}), {"a": "PT1.5S"},
          lambda f: _formats(f) == {"duration"} and f.rs == f.toolkit.verdict),
    Known("unsatisfiable-schema-refused", "deliberate",
          "a schema with a node no value can satisfy (crossed bounds, a type against every enum member) is a "
          "valid 2020-12 schema, but a tool built on it could never be called there: toolkit refuses to build "
          "it (unsatisfiable_schema, toolkit/_schema/_satisfiable.py) whatever the instance",
          _prop({"type": "integer", "minimum": 1, "maximum": 0}), {},
          lambda f: f.toolkit.slug == "unsatisfiable_schema"),
)  # fmt: skip

OPEN: tuple[Known, ...] = ()
"""Empty: every disagreement found so far is fixed or listed in DELIBERATE. A new one goes here, with the
spec's answer and its minimal example, until it is fixed (an entry's test fails the day its example stops
reproducing, so the list only shrinks by fixing)."""


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
