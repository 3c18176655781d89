"""Shapes a description promises for a string: a date or time format, or an identifier's prefix.

* ``YYYY-MM-DD`` → ``format: date``; ``YYYY-MM-DDTHH:MM:SSZ``, ``RFC 3339`` → ``format: date-time``;
  ``ISO 8601`` with ``date``/``date-time``/``timestamp`` beside it, or with an example value, → either;
  ``HH:MM`` / ``HH:MM:SS`` alone (a local time of day, which ``format: time`` refuses without an offset) →
  a ``pattern``. A description that names two of them promises neither.
* ``starts with `ord_` followed by 12 lowercase letters or digits`` → ``pattern: ^ord_[a-z0-9]{12}$``;
  ``prefixed with "cus_"`` → ``pattern: ^cus_``; ``must start with "http://" or "https://"`` →
  ``pattern: ^(?:http://|https://)``. The prefix must be quoted (backticks, quotes, bold) or look like an id
  prefix (``ord_``); a negated one (``must not start with '..'``) or a conditional one (``starts with `T` in
  case of an org token``) promises nothing.

Each reader runs in linear time: patterns start with literal words and no quantifier nests another.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from toolkit._regex import lazy

__all__ = ["Promise", "format_promise", "prefix_promise"]


class Promise(NamedTuple):
    """A promise that becomes one keyword (``format: date``, ``pattern: ^ord_…$``), with its words."""

    keyword: str
    value: str
    quote: str


_DATE_TIME_TOKEN = lazy(r"\bY{4}-M{2}-D{2}(?:T|'T')h{2}:m{2}\S*", re.I)
_DATE_TOKEN = lazy(r"\bY{4}-M{2}-D{2}\b(?!\s*(?:'T'|T)?\s*h{2}:)", re.I)
_SPACED_DATE_TIME = lazy(r"\bY{4}-M{2}-D{2}\s+h{2}:", re.I)
_TIME_TOKEN = lazy(r"(?<![\w:])h{2}:m{2}(?P<seconds>:s{2})?(?![\w:])", re.I)
_RFC_3339 = lazy(r"\bRFC\s?3339\b(?P<tail>[^.\n]{0,24})", re.I)
_ISO_8601 = lazy(r"\bISO[\s-]?8601\b(?:\]\([^)\s]{0,200}\))?(?P<tail>[^.\n]{0,30})", re.I)
_DATE_TIME_WORDS = lazy(r"\bdate[- ]?time\b|\btimestamp\b|\bdate and time\b|\binstant\b", re.I)
_DATE_WORD = lazy(r"\bdate\b(?![- ]?time)", re.I)
_DURATION_WORD = lazy(r"\bduration|\binterval|\bperiod\b", re.I)
_DATE_TIME_EXAMPLE = lazy(r"(?<![\d-])\d{4}-\d{2}-\d{2}T\d{2}:\d{2}")
_DATE_EXAMPLE = lazy(r"(?<![\d-])\d{4}-\d{2}-\d{2}(?![\dT:-])")
_TIME_PATTERNS = {
    False: "^([01][0-9]|2[0-3]):[0-5][0-9]$",
    True: "^([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]$",
}


def format_promise(text: str) -> Promise | None:
    """The date or time format ``text`` promises, if it promises exactly one."""
    found: dict[tuple[str, str], str] = {}
    if m := _DATE_TIME_TOKEN.search(text):
        found[("format", "date-time")] = m.group(0).rstrip("`*.,;:)")
    if m := _DATE_TOKEN.search(text):
        found[("format", "date")] = m.group(0)
    if m := _RFC_3339.search(text):
        kind = "date" if "full-date" in m["tail"].lower() else "date-time"
        found.setdefault(("format", kind), m.group(0)[: len(m.group(0)) - len(m["tail"])])
    if not found and (m := _ISO_8601.search(text)):
        iso = _iso_kind(text, m["tail"])
        if iso is not None:
            found[("format", iso)] = "ISO 8601" + (f" {iso}" if iso in m["tail"].lower() else "")
    if not found and not _SPACED_DATE_TIME.search(text) and (m := _TIME_TOKEN.search(text)):
        found[("pattern", _TIME_PATTERNS[m["seconds"] is not None])] = m.group(0)
    if len(found) != 1:
        return None
    ((keyword, value), quote) = found.popitem()
    return Promise(keyword, value, quote)


def _iso_kind(text: str, tail: str) -> str | None:
    """What an ``ISO 8601`` mention means: the words right after it, or else the example value it gives."""
    if _DURATION_WORD.search(tail):
        return None
    if _DATE_TIME_WORDS.search(tail):
        return "date-time"
    if _DATE_WORD.search(tail):
        return "date"
    if _DATE_TIME_EXAMPLE.search(text):
        return "date-time"
    if _DATE_EXAMPLE.search(text):
        return "date"
    return None


def _literal(name: str) -> str:
    quoted = rf"`(?P<{name}b>[^`\s]{{1,32}})`|\"(?P<{name}d>[^\"\s]{{1,32}})\"|'(?P<{name}s>[^'\s]{{1,32}})'"
    bare = rf"(?P<{name}w>\b[A-Za-z][A-Za-z0-9]{{0,15}}_)(?!\w)|(?P<{name}u>\b[a-z][a-z0-9+.-]{{0,15}}://)"
    return rf"(?:\*\*)?(?:{quoted}|\*\*(?P<{name}k>[^*\s]{{1,32}})\*\*|{bare})(?:\*\*)?"


_CLASS = (
    r"(?P<case>lower-?case\s+|upper-?case\s+)?(?P<cls>alphanumeric(?:\s+characters)?"
    r"|(?:letters|characters)\s+(?:or|and)\s+(?:digits|numbers)|(?:digits|numbers)\s+(?:or|and)\s+letters"
    r"|hex(?:adecimal)?\s+(?:digits|characters)|digits|numbers|numeric characters|letters|characters)\b"
)
_FOLLOWED = (
    r"(?P<followed>\s*,?\s+(?:and\s+)?followed\s+by\s+(?:exactly\s+)?(?<![\d.])(?P<n>\d{1,3})(?!\d)"
    rf"(?:\s*(?:to|-|–)\s*(?P<m>\d{{1,3}})(?!\d))?\s+{_CLASS})"
)
_LITERALS = rf"(?P<literals>{_literal('a')}(?:\s+or\s+{_literal('o')})?)"
_HEADED = lazy(
    r"\b(?P<head>(?:(?:must|should|shall|will|has to|have to|needs to|need to|always)\s+(?:always\s+)?"
    r"(?:start|begin)|starts|begins)\s+with|(?:be|is|are)\s+(?:always\s+)?prefixed\s+(?:with|by))"
    rf"\s+(?:an?\s+|the\s+)?{_LITERALS}(?:{_FOLLOWED})?",
    re.I,
)
"""``must start with `ord_` …``, ``is prefixed with "cus_"``: a prefix, maybe with the rest of the shape."""
_BARE = lazy(rf"{_LITERALS}{_FOLLOWED}", re.I)
"""``"acc_" followed by 8 digits`` after a clause start or ``is``/``as``/``the``: the whole shape."""
_BARE_LEAD = lazy(r"(?:[:;,(]\s*|\b(?:is|be|as|an?|the)\s+)$", re.I)
_NEGATION = lazy(r"\b(?:not|never|cannot)\b|n't\b", re.I)
_CONDITION_AFTER = lazy(r"\s+(?:in case|if|when|for|unless|except)\b", re.I)
_SET = {
    "alnum": {None: "[A-Za-z0-9]", "lower": "[a-z0-9]", "upper": "[A-Z0-9]"},
    "hex": {None: "[0-9a-fA-F]", "lower": "[0-9a-f]", "upper": "[0-9A-F]"},
    "digit": {None: "[0-9]", "lower": "[0-9]", "upper": "[0-9]"},
    "alpha": {None: "[A-Za-z]", "lower": "[a-z]", "upper": "[A-Z]"},
    "any": {None: ".", "lower": ".", "upper": "."},
}
_SYNTAX = lazy(r"([\^$\\.*+?()\[\]{}|])")


def prefix_promise(text: str) -> Promise | None:
    """The identifier shape ``text`` promises (``^ord_[a-z0-9]{12}$``), if it promises exactly one."""
    found: dict[str, str] = {}
    for m in _HEADED.finditer(text):
        if _NEGATION.search(text, max(0, m.start() - 24), m.end("head")):
            continue  # "must not start with '..'"
        if m["followed"] is None and _CONDITION_AFTER.match(text, m.end()):
            continue  # "starts with `T` in case of an org token"
        _add(found, m, text[m.start() : m.end()])
    if "followed by" in text.lower():
        for m in _BARE.finditer(text):
            window = max(0, m.start() - 8)
            if (window == 0 and not text[: m.start()].strip()) or _BARE_LEAD.search(text, window, m.start()):
                _add(found, m, text[m.start() : m.end()])
    if len(found) != 1:
        return None
    ((pattern, quote),) = found.items()
    return Promise("pattern", pattern, quote)


def _add(found: dict[str, str], m: re.Match[str], quote: str) -> None:
    literals = [lit for lit in (_group(m, "a"), _group(m, "o")) if lit]
    if literals:
        found.setdefault(_pattern(literals, m), " ".join(quote.split()))


def _group(m: re.Match[str], name: str) -> str | None:
    found = next((m[name + kind] for kind in "bdskwu" if m[name + kind]), None)
    return None if found is None else found.strip("\"'*") or None


def _pattern(literals: list[str], m: re.Match[str]) -> str:
    escaped = [_SYNTAX.sub(r"\\\1", lit) for lit in literals]
    start = escaped[0] if len(escaped) == 1 else "(?:" + "|".join(escaped) + ")"
    if m["followed"] is None:
        return f"^{start}"
    cls = m["cls"].lower()
    kind = (
        "hex"
        if cls.startswith("hex")
        else "alnum"
        if "alphanumeric" in cls
        or ("letters" in cls and ("digits" in cls or "numbers" in cls))
        or cls.startswith("characters ")
        else "digit"
        if cls in ("digits", "numbers", "numeric characters")
        else "alpha"
        if cls == "letters"
        else "any"
    )
    case = (m["case"] or "").lower().replace("-", "").strip().removesuffix("case") or None
    times = f"{{{m['n']}}}" if m["m"] is None else f"{{{m['n']},{m['m']}}}"
    return f"^{start}{_SET[kind][case]}{times}$"
