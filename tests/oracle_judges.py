"""The judges toolkit's validator is held to, on the pairs ``oracle_gen`` draws.

* **the oracle** -- ``jsonschema``'s ``Draft202012Validator`` with its 2020-12 format checker (``email`` by
  jsonschema-rs, see :data:`FORMATS_ASSERTED`), reading ``pattern`` as ECMA-262 (2020-12 section 6.4)
  through ``regress`` where stock ``jsonschema`` calls Python's ``re``: that one swap lets the oracle see
  ``^.$`` refuse ``"\\u2028"`` and ``^abc$`` refuse ``"abc\\n"``, and read ``^\\p{L}+$`` at all. An instance
  holding ``NaN`` or an infinity is not JSON, so the oracle calls it invalid without asking; a schema with a
  reference to nowhere has no meaning, so the oracle is ``undecided`` on it;
* **jsonschema-rs** -- the tiebreaker shown beside every disagreement, and the judge where ``jsonschema``
  raises (``OverflowError`` for ``10**400`` against ``multipleOf: 0.5``).
"""

from __future__ import annotations

import contextlib
import copy
import math
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

import jsonschema_rs
import regress
from jsonschema import Draft202012Validator, FormatChecker, ValidationError, _keywords, _utils, validators
from oracle_gen import Verdict, close_objects, memo, oracle_schema
from referencing import Registry
from referencing.jsonschema import DRAFT202012

__all__ = ["FORMATS_ASSERTED", "DecimalValidator", "Judgement", "is_json", "jsonschema_verdict", "oracle"]
__all__ += ["judge", "refs_resolve", "rs_verdict"]


class _EcmaRe:
    """Stands in for ``re`` inside ``jsonschema``'s keyword code: ``search`` by an ECMA-262 engine."""

    error = regress.RegressError

    @staticmethod
    def search(pattern: str, text: str) -> bool:
        return _ecma(pattern).find(text) is not None


@cache
def _ecma(pattern: str) -> regress.Regex:
    return regress.Regex(pattern, "u")


@contextlib.contextmanager
def _ecma_patterns() -> Iterator[None]:
    saved = _keywords.re, _utils.re  # type: ignore[attr-defined]
    _keywords.re = _utils.re = _EcmaRe  # type: ignore[attr-defined]
    try:
        yield
    finally:
        _keywords.re, _utils.re = saved  # type: ignore[attr-defined]


def is_json(value: Any) -> bool:
    """False when ``value`` holds a number JSON cannot write (``NaN``, ``Infinity``)."""
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, list):
        return all(is_json(v) for v in value)
    if isinstance(value, dict):
        return all(is_json(v) for v in value.values())
    return True


def _decimal_multiple_of(validator: Any, step: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    """``multipleOf`` on the numbers as JSON writes them (decimal text), in exact rational arithmetic."""
    if validator.is_type(instance, "number") and Fraction(repr(instance)) % Fraction(repr(step)) != 0:
        yield ValidationError(f"{instance!r} is not a multiple of {step!r}")


def _rs_email(value: object) -> bool:
    return not isinstance(value, str) or bool(_RS_EMAIL.is_valid(value))


_RS_EMAIL = jsonschema_rs.validator_for({"format": "email"}, validate_formats=True)
FORMATS_ASSERTED = FormatChecker(formats=())
FORMATS_ASSERTED.checkers = {**Draft202012Validator.FORMAT_CHECKER.checkers}
FORMATS_ASSERTED.checks("email")(_rs_email)
"""jsonschema's 2020-12 format checker, but ``email`` judged by jsonschema-rs (RFC 5321): jsonschema's own
email check is ``"@" in value``, which has no answer for ``a..b@c.d`` or ``a@[127.0.0.1]``."""

DecimalValidator = validators.extend(Draft202012Validator, {"multipleOf": _decimal_multiple_of})
"""The oracle with ``multipleOf`` read in decimal: the judge of which side the float arithmetic wronged."""


def refs_resolve(schema: Any) -> bool:
    """True when every ``$ref`` and ``$dynamicRef`` in ``schema`` points at something inside it."""
    return bool(memo("refs", schema, lambda: _refs_resolve(schema)))


def _refs_resolve(schema: Any) -> bool:
    resolver = Registry().with_resource("urn:oracle", DRAFT202012.create_resource(schema)).resolver("urn:oracle")
    try:
        for ref in _refs(schema):
            resolver.lookup(ref)
    except Exception:
        return False
    return True


def _refs(node: Any) -> Iterator[str]:
    if isinstance(node, list):
        for item in node:
            yield from _refs(item)
    elif isinstance(node, dict):
        for key, value in node.items():
            if key in ("$ref", "$dynamicRef") and isinstance(value, str):
                yield value
            elif key not in ("enum", "const", "default", "examples"):
                yield from _refs(value)


def jsonschema_verdict(schema: Mapping[str, Any], instance: Any, decimal: bool = False) -> Verdict:
    """``jsonschema`` 2020-12 with formats asserted and ECMA-262 patterns; ``undecided`` when it raises."""
    judge = DecimalValidator if decimal else Draft202012Validator
    read = copy.deepcopy(oracle_schema(schema))
    validator = memo(judge.__name__, schema, lambda: judge(read, format_checker=FORMATS_ASSERTED))
    try:
        with _ecma_patterns():
            return "valid" if validator.is_valid(instance) else "invalid"
    except Exception:  # re errors, unresolvable refs, OverflowError on huge integers, RecursionError
        return "undecided"


def judge(schema: Mapping[str, Any], *, closed: bool) -> Callable[[Any], Verdict]:
    """The oracle of :func:`jsonschema_verdict` made once for ``schema`` (closed as the default policy reads it,
    or as written), for judging many instances against one large schema."""
    validator = Draft202012Validator(copy.deepcopy(close_objects(schema) if closed else schema),
                                     format_checker=FORMATS_ASSERTED)  # fmt: skip

    def verdict(instance: Any) -> Verdict:
        try:
            with _ecma_patterns():
                return "valid" if validator.is_valid(instance) else "invalid"
        except Exception:  # as jsonschema_verdict: no answer
            return "undecided"

    return verdict


def rs_verdict(schema: Mapping[str, Any], instance: Any) -> Verdict:
    """jsonschema-rs 2020-12 with formats asserted; ``undecided`` when it refuses the schema or the value."""
    try:
        judge = jsonschema_rs.Draft202012Validator(oracle_schema(schema), validate_formats=True)
        return "valid" if judge.is_valid(instance) else "invalid"
    except Exception:
        return "undecided"


@dataclass(frozen=True, slots=True)
class Judgement:
    """The oracle's verdict and which judge gave it (``jsonschema``, ``rs``, or ``json`` for non-JSON)."""

    verdict: Verdict
    by: str


def oracle(schema: Mapping[str, Any], instance: Any) -> Judgement:
    """The verdict toolkit is held to: ``undecided`` for a schema with a reference to nowhere (no meaning)."""
    if not refs_resolve(schema):
        return Judgement("undecided", "refs")
    if not is_json(instance):
        return Judgement("invalid", "json")
    verdict = jsonschema_verdict(schema, instance)
    if verdict != "undecided":
        return Judgement(verdict, "jsonschema")
    return Judgement(rs_verdict(schema, instance), "rs")
