"""What a description says in words: money, and the constraints it promises.

:func:`read` turns one description into a :class:`Reading` (cached per text): the promises a schema can
enforce — a string's length, an array's item count, a number's range, a date or time format, an identifier's
shape (the last two read by :mod:`._shapes`), the values it lists and its decimal places (read by
:mod:`._values`). :func:`money_word` finds the word that makes a number money.
The rules in :mod:`._promises` compare a reading with the schema. Precision comes first: a promise is read
only when it is stated plainly about the value itself.

* A bound must follow a word that ties it to the value (``must be at most 100``, ``an integer between 1 and
  100``, ``(max 100)``, ``Maximum: 100``); ``running at least 1 daemon pod`` or ``the global minimum is 1``
  say nothing about the field. A verb may lead a count or a length with its unit (``provide at least 2
  options``), never a number's range.
* ``must not be longer than 253`` is at most 253; ``can be more than 100`` allows and promises nothing.
* A conditional bound is skipped: ``if``/``when``/``unless``/``for `x``` earlier in its sentence, a sentence
  opening with ``For …,``, or ``for``/``when``/``if`` right after it (``1000 characters for dall-e-2``).
* Two different bounds on the same side (``max: 31`` … ``max: 168``), a range nothing fits, or more than
  :data:`_MAX_CLAIMS` bounds in one text make that promise ambiguous: it is dropped.
* ``truncated`` or ``cut off`` beside a length limit means the API cuts rather than refuses: no length promise.

Every pattern runs in linear time on hostile text: each one starts with a literal word or at the start of a
digit run, no quantifier nests another, and look-backs read bounded windows.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator
from itertools import islice
from typing import NamedTuple

from toolkit._lints._shapes import Promise, format_promise, prefix_promise
from toolkit._lints._values import Listed, Places, listed_values, promised_places
from toolkit._regex import lazy

__all__ = ["NOTHING", "Bound", "Promise", "Reading", "Span", "money_word", "read"]

Number = int | float


class Bound(NamedTuple):
    """One side of a promised interval: ``at least 1`` is ``Bound(1, False)``, ``greater than 0`` ``Bound(0, True)``."""

    value: Number
    exclusive: bool


class Span(NamedTuple):
    """A promised interval on one measure (characters, items or the value), with the words that promise it."""

    low: Bound | None
    high: Bound | None
    quote: str
    units: frozenset[str] = frozenset()
    """The words after the numbers (``characters``, ``tags``; ``""`` for none), lowercased."""


class Reading:
    """What one description promises, by measure (``None``: nothing, or nothing unambiguous): ``length``,
    ``count``, ``value`` (spans), ``format``, ``prefix`` (promises), ``listed`` and ``places``. Read-only by
    convention; a plain slotted class, since a dataclass costs the first call more to define than it gives."""

    __slots__ = ("count", "format", "length", "listed", "places", "prefix", "value")

    def __init__(
        self,
        length: Span | None = None,
        count: Span | None = None,
        value: Span | None = None,
        format: Promise | None = None,
        prefix: Promise | None = None,
        listed: Listed | None = None,
        places: Places | None = None,
    ) -> None:
        self.length, self.count, self.value, self.format = length, count, value, format
        self.prefix, self.listed, self.places = prefix, listed, places


NOTHING = Reading()
"""The reading of a description that promises nothing (shared, so a rule can skip it by identity)."""

_LEAD = lazy(
    r"(?:[,;:(\[\n]\s*|[.!?]\s+|\b(?:be|is|are|was|of|a|an|the|with|and|or|but|to|value|values|number|numbers"
    r"|integer|integers|range|ranges|limit|count|size)\s+)$",
    re.I,
)
"""What may come right before a bound: a clause start, or a word that makes it about the value itself."""
_MAX_HEAD = (
    r"at most|no more than|not more than|up to|less than or equal to|cannot exceed|can't exceed|must not exceed"
    r"|may not exceed|should not exceed|not to exceed|does not exceed|not exceeding|no longer than|not longer than"
    r"|limited to|(?:a |the )?max(?:imum)?\b(?:\s+(?:[a-z]+\s+)?(?:length|size|value|count|number))?(?:\s*(?:is|of|=))?"
)
_MIN_HEAD = (
    r"at least|no less than|not less than|no fewer than|not fewer than|greater than or equal to"
    r"|(?:a |the )?min(?:imum)?\b(?:\s+(?:[a-z]+\s+)?(?:length|size|value|count|number))?(?:\s*(?:is|of|=))?"
)


def _num(name: str, *, dash: bool = False) -> str:
    """A number at the start of its digit run (``10,000``, ``-2.0``); not a version, a power, a date or ``2MB``.

    ``dash``: the number may be followed by a dash (the first number of ``1-80``)."""
    tail = r"(?![\w^/]|[.,]\d)" if dash else r"(?![\w^/]|[.,]\d|-\w)"
    return rf"(?<![\d.,])(?P<{name}>-?\d{{1,3}}(?:,\d{{3}})+|-?\d+(?:\.\d+)?){tail}"


_UNIT = (
    r"(?=\s*(?P<percent>%)|\s+(?!(?:and|or|to|for|if|when|the|an?|in|per|of|by|at|is|are|but|so|as|on|with"
    r"|inclusive|exclusive|max|maximum|min|minimum|default)\b)(?P<unit>[A-Za-z]+))?"
)
"""The word after a number, looked at but not consumed (it may start the next bound: ``Minimum: 1 Maximum: 9``)."""
_LABEL = r"(?P<label>(?:(?P<maxlabel>max(?:imum)?)|(?P<minlabel>min(?:imum)?))(?:\s+(?:length|size|value))?\s*:)"
"""``Maximum: 100``, ``Min length: 3``: a label needs no lead."""
_BOUND = lazy(
    rf"(?=[acdfglmnstu])\b(?:{_LABEL}|(?P<max>{_MAX_HEAD})|(?P<min>{_MIN_HEAD})"
    rf"|(?P<lt>less than|fewer than|shorter than)|(?P<gt>greater than|more than|longer than))\s*{_num('n')}{_UNIT}",
    re.I,
)
"""Every pattern starts with a word or a digit, never with the lead: the engine skips text fast, and the
lead before a match is checked on a short window (:func:`_led`)."""
_RANGE = lazy(
    rf"(?=[bfs])\b(?:(?P<strict>strictly\s+)?between|(?P<from>from))\s+{_num('n')}\s+(?:and|to)\s+{_num('m')}{_UNIT}"
    r"(?P<excl>,?\s+\(?exclusive\)?)?",
    re.I,
)
_BARE_RANGE = lazy(rf"(?=[-\d]){_num('n', dash=True)}\s*(?:to|-|–|—)\s*{_num('m')}{_UNIT}", re.I)
"""``3 to 20 characters``, ``1-80 chars``, ``, 5 to 30.``: a range without ``between``."""
_CHAR_WORD = r"(?:characters?|chars?|letters?)"
_TRAILING = lazy(
    rf"(?=\d)(?<![\w.,-]){_num('n')}\s+(?P<unit>{_CHAR_WORD})\s+(?:long\s+|in length\s+)?"
    r"(?P<side>or (?:less|fewer|more)|max|maximum)\b",
    re.I,
)
_EXACT = lazy(
    rf"\b(?:a|an)\s+{_num('n', dash=True)}[- ](?P<unit>{_CHAR_WORD})\s+(?:long\s+)?(?P<noun>[a-z]+)"
    rf"|\bexactly\s+{_num('x')}\s+(?P<xunit>{_CHAR_WORD})",
    re.I,
)
_SIGN = lazy(
    r"(?P<lead>\b(?:be|is|are|a|an)\s+)(?:strictly\s+)?(?P<sign>positive|non-?negative|negative|non-?positive)"
    r"(?:\s+(?:integer|number|value|whole number|int|float|decimal|amount)s?\b|(?=\s*(?:[.,;)]|$)))",
    re.I,
)
_CONDITION_BEFORE = lazy(r"\b(?:if|when|unless|whenever|otherwise|except)\b|\bfor\s+[`\"'*]", re.I)
_FOR_CASE = lazy(r"[.?\s]*for\s+(?!example\b|instance\b)", re.I)
"""A sentence that opens with ``For vector stores created before …,``: what follows holds only in that case."""
_CONDITION_AFTER = lazy(r"(?:\s+[A-Za-z-]+){0,3}?\s+(?:for|when|if|unless|whenever|depending|except)\b", re.I)
_CHARS = frozenset({"character", "characters", "char", "chars", "letter", "letters"})
_NOT_VALUES = frozenset(
    {"byte", "bytes", "kb", "mb", "gb", "kib", "mib", "gib", "digit", "digits", "decimal", "decimals", "places"}
)
_NOT_ITEMS = _NOT_VALUES | {"percent", "%"}
_TIME = frozenset(
    {
        "ms",
        "millisecond",
        "milliseconds",
        "second",
        "seconds",
        "minute",
        "minutes",
        "hour",
        "hours",
        "day",
        "days",
        "week",
        "weeks",
        "month",
        "months",
        "year",
        "years",
    }
)
_KNOWN_UNITS = _CHARS | _NOT_ITEMS | _TIME
_POSSIBLE = lazy(r"\b(?:can|may|could|might) be\s+$", re.I)
_NEGATED = lazy(r"(?:\bnot|\bnever|\bcannot|n't)\s+(?:[a-z]+\s+)?$", re.I)
_CUT = lazy(r"truncat|\bcut off\b|\bcut short\b", re.I)
"""Beside a length limit: the API cuts long values rather than refusing them, so the limit is not a promise."""
_DIGIT = lazy(r"\d")
_DIGIT_TO_DIGIT = lazy(r"\d\s*(?:to|-|–|—)\s*-?\d")
_BOUND_WORDS = lazy("most|least|max|min|than|up to|exceed|limited")
_VERB_LEAD = lazy(
    r"\b(?:provide|pass|send|include|specify|contain|contains|list|add|select|choose|accept|accepts|take|takes"
    r"|allow|allows|hold|holds|supply|upload|attach|enter|give)\s+$",
    re.I,
)
"""``Provide at least 2 options``, ``enter at most 80 characters``: a verb leads a count or a length (with its
unit), never a number's range (``running at least 1 daemon pod`` is about something else)."""
_ARTICLE = lazy(r"(?:a|the)\s", re.I)
_CLAUSE_END = lazy(r"\s*(?:[.,;)]|$)")
_FORMAT_WORDS = lazy("yyyy|iso|rfc|hh:mm")
_PREFIX_WORDS = lazy("start with|starts with|begin with|begins with|prefixed|followed by")
_LIST_WORDS = lazy(r"one of|either|values|can be|must be|may be|should be|options are|:\s*[`\"'*]")
_PLACES_WORDS = lazy("decimal|cents|minor unit|smallest currency")
"""Words without which a description cannot promise a format, a prefix, a list of values or decimal places (a
cheap test before the patterns)."""
_MAX_CLAIMS = 32
"""More bounds than this in one description (a table, a changelog) promise nothing; reading stops there."""
_SENTENCE = 300
"""How far back a bound's sentence is searched for a condition (bounded, so reading stays linear)."""
_NOT_EXACT_NOUNS = frozenset({"max", "maximum", "limit", "min", "minimum", "cap"})


class _Claim(NamedTuple):
    side: str  # "low" or "high"
    bound: Bound
    unit: str  # "" when none; lowercased
    quote: str
    conditional: bool
    value: bool = True  # may promise a number's range (not "limited to 1", said of something else)


@functools.lru_cache(maxsize=8192)
def read(text: str) -> Reading:
    """Everything ``text`` promises, read once per distinct description."""
    if not text:
        return NOTHING
    low = text.lower()
    found = list(islice(_claims(text, low), _MAX_CLAIMS + 1))
    claims = [c for c in found if not c.conditional] if len(found) <= _MAX_CLAIMS else []  # a table: no bounds
    shape = format_promise(text) if _FORMAT_WORDS.search(low) else None
    prefix = prefix_promise(text) if _PREFIX_WORDS.search(low) else None
    listed = listed_values(text) if _LIST_WORDS.search(low) else None
    places = promised_places(text) if _PLACES_WORDS.search(low) else None
    if not claims and shape is None and prefix is None and listed is None and places is None:
        return NOTHING  # most descriptions
    length = [c for c in claims if c.unit in _CHARS]
    if length and _CUT.search(text):
        length = [c for c in length if c.side == "low"]
    count = [c for c in claims if c.unit not in _CHARS | _NOT_ITEMS | _TIME]
    value = [c for c in claims if c.value and c.unit not in _CHARS | _NOT_VALUES]
    reading = Reading(_span(length), _span(count), _span(value), shape, prefix, listed, places)
    return NOTHING if reading == NOTHING else reading


def _claims(text: str, low: str) -> Iterator[_Claim]:
    if "positive" in low or "negative" in low:
        yield from _signs(text)
    if _DIGIT.search(text) is None:
        return  # every other bound is a number: most descriptions stop here
    bounds = _BOUND.finditer(text) if _BOUND_WORDS.search(low) else ()
    for m in bounds:
        verb = False
        if m["label"] is None and not _ARTICLE.match(m.group(0)) and not _led(text, m.start()):
            verb = bool(m["unit"]) and _VERB_LEAD.search(text, max(0, m.start() - 16), m.start()) is not None
            if not verb:
                continue  # "a maximum of 8" is led by its article; "running at least 1 pod" is not led
        kind = next(k for k in ("max", "min", "lt", "gt", "maxlabel", "minlabel") if m.group(k))
        before = text[max(0, m.start(kind) - 16) : m.start(kind)]
        if kind in ("lt", "gt") and _POSSIBLE.search(before):
            continue  # "can be more than 100" allows, it does not require
        negation = _NEGATED.search(before) if kind in ("lt", "gt") else None
        if negation is not None:  # "must not be longer than 253": at most 253
            kind = "min" if kind == "lt" else "max"
        side = "high" if kind in ("max", "lt", "maxlabel") else "low"
        sizes_only = verb or (kind == "max" and (m["max"] or "").lower() == "limited to")
        start = m.start("lt" if m["lt"] else "gt") - len(before) + negation.start() if negation else None
        yield _claim(text, m, side, Bound(_number(m["n"]), kind in ("lt", "gt")), value=not sizes_only, start=start)
    ranges = _RANGE.finditer(text) if "between" in low or "from" in low else ()
    for m in ranges:
        if m["from"] is not None and not _led(text, m.start()):
            continue
        exclusive = bool(m["strict"] or m["excl"])
        yield _claim(text, m, "low", Bound(_number(m["n"]), exclusive))
        yield _claim(text, m, "high", Bound(_number(m["m"]), exclusive))
    bare = _BARE_RANGE.finditer(text) if _DIGIT_TO_DIGIT.search(text) else ()
    for m in bare:
        if not _led(text, m.start()):
            continue
        if m["unit"] or m["percent"] or _CLAUSE_END.match(text, m.end()):
            yield _claim(text, m, "low", Bound(_number(m["n"]), False))
            yield _claim(text, m, "high", Bound(_number(m["m"]), False))
    characters = "char" in low or "letter" in low
    for m in _TRAILING.finditer(text) if characters else ():
        side = "low" if m["side"].lower().endswith("more") else "high"
        yield _claim(text, m, side, Bound(_number(m["n"]), False))
    for m in _EXACT.finditer(text) if characters or "exactly" in low else ():
        if m["noun"] is not None and m["noun"].lower() in _NOT_EXACT_NOUNS:
            continue
        bound = Bound(_number(m["n"] or m["x"]), False)
        yield _claim(text, m, "low", bound, unit=(m["unit"] or m["xunit"]))
        yield _claim(text, m, "high", bound, unit=(m["unit"] or m["xunit"]))


def _signs(text: str) -> Iterator[_Claim]:
    for m in _SIGN.finditer(text):
        sign = m["sign"].lower().replace("-", "")
        side = "low" if sign in ("positive", "nonnegative") else "high"
        bound = Bound(0, sign in ("positive", "negative"))
        yield _claim(text, m, side, bound, unit="", start=m.start("sign"))


def _led(text: str, start: int) -> bool:
    """Whether a bound at ``start`` opens the text or a clause, or follows a word that ties it to the value."""
    window = max(0, start - 16)
    return (window == 0 and not text[:start].strip()) or _LEAD.search(text, window, start) is not None


def _claim(
    text: str,
    m: re.Match[str],
    side: str,
    bound: Bound,
    unit: str | None = None,
    *,
    value: bool = True,
    start: int | None = None,
) -> _Claim:
    groups = m.groupdict()
    end = m.end()
    if unit is None:
        unit = "%" if groups.get("percent") else (groups.get("unit") or "")
        if unit and (unit == "%" or unit.lower() in _KNOWN_UNITS or unit.lower().endswith("s")):
            end = m.end("percent") if groups.get("percent") else m.end("unit")
    if start is None:
        start = m.start()
    quote = " ".join(text[start:end].split())
    return _Claim(side, bound, unit.lower(), quote, _conditional(text, start, end), value)


def _conditional(text: str, start: int, end: int) -> bool:
    """Whether the bound holds only under a condition stated in its own sentence."""
    window = max(0, start - _SENTENCE)
    sentence = max(text.rfind(". ", window, start), text.rfind("\n", window, start), text.rfind("? ", window, start))
    if _CONDITION_BEFORE.search(text, max(window, sentence + 1), start):
        return True
    if _FOR_CASE.match(text, max(window, sentence + 1)):
        return True
    return _CONDITION_AFTER.match(text, end, min(len(text), end + 60)) is not None


def _span(claims: Iterable[_Claim]) -> Span | None:
    """The interval the claims promise; ``None`` when they promise nothing or disagree."""
    sides: dict[str, set[Bound]] = {"low": set(), "high": set()}
    quotes: list[str] = []
    units: set[str] = set()
    for claim in claims:
        units.add(claim.unit)
        sides[claim.side].add(claim.bound)
        if claim.quote not in quotes:
            quotes.append(claim.quote)
    low = next(iter(sides["low"])) if len(sides["low"]) == 1 else None
    high = next(iter(sides["high"])) if len(sides["high"]) == 1 else None
    if len(sides["low"]) > 1 or len(sides["high"]) > 1:
        return None  # two different bounds on one side: ambiguous
    if low is None and high is None:
        return None
    if (
        low is not None
        and high is not None
        and (low.value > high.value or (low.value == high.value and (low.exclusive or high.exclusive)))
    ):
        return None  # nothing fits: the words mean something else
    return Span(low, high, "; ".join(quotes), frozenset(units))


def _number(text: str) -> Number:
    plain = text.replace(",", "")
    return float(plain) if "." in plain else int(plain)


_MONEY = lazy(
    r"\b(?:USD|EUR|GBP|JPY|CHF|CAD|AUD|NZD|CNY|HKD|SGD|INR|BRL|MXN|SEK|NOK|DKK|PLN|CZK|HUF|ZAR|KRW|ILS|AED)\b"
    r"|[€£¥₹₩₽₺₪₫₴₦]|US\$|\$\s?\d|\d\s?\$(?!\w)"
    r"|\b(?i:dollars?|euros?|cents|pence|pennies|pounds sterling|yen|francs?|rupees?|currency|currencies|monetary"
    r"|prices?|minor units)\b"
)
_NOT_MONEY = lazy(
    r"\b(?:percent|percentage|ratio|rate|multiplier|factor|fraction|share|weight|score|probability|exchange)s?\b|%",
    re.I,
)


def money_word(name: str, text: str) -> str | None:
    """The word that makes ``text`` about money (``"euros"``, ``"USD"``, ``"€"``), unless it is about a ratio."""
    if not text or _NOT_MONEY.search(name.replace("_", " ")):
        return None
    return _money_in(text)


@functools.lru_cache(maxsize=8192)
def _money_in(text: str) -> str | None:
    found = _MONEY.search(text)
    if found is None or _NOT_MONEY.search(text):
        return None
    return found.group(0).strip()
