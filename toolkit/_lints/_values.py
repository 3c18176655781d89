"""What a description says about a value beyond its bounds: the values it lists, and its decimal places.

* A list of values (``one of `asc` or `desc```, ``Possible values: **active**, **closed**``, ``Either "draft"
  or "sent"``, ``Can be: `GET` or `POST```, ``one of: asc, desc``) is read after a word that introduces it;
  the values are quoted (backticks, quotes, bold) or, after a colon, plain words. A list needs two values or
  more, stops at the first word that is not a value or a separator, and is dropped when it holds only under a
  condition (``If set, one of `a` or `b` is required``) or is an example (``such as``, ``e.g.``, ``etc.``).
  ``one of``/``either``/``possible values``/… say the list is complete (:attr:`Listed.complete`); ``can be``
  does not (``Usually `active`, but can be `suspended` or `closed```).
* Decimal places (``at most two decimal places``, ``up to 2 decimals``, ``with 2 decimal places``) and minor
  units (``in cents``, ``in minor units``) become a step: ``0.01``, ``1``. ``rounded to 2 decimal places``
  says what the API does with more, not what it refuses: no promise.

Each pattern starts with a literal word and no quantifier nests another: reading stays linear on any text.
"""

from __future__ import annotations

import functools
import re
from decimal import Decimal
from typing import NamedTuple

from toolkit._regex import lazy

__all__ = ["Listed", "Places", "listed_values", "promised_places"]


class Listed(NamedTuple):
    """The values a description lists for its field, with the words that list them."""

    values: tuple[str, ...]
    quote: str
    complete: bool
    """Whether the words say the list is the whole set (``one of``), not some of it (``can be``)."""


class Places(NamedTuple):
    """At most ``digits`` decimal places (0: a whole number of minor units), with the words that say so."""

    digits: int
    quote: str

    @property
    def step(self) -> int | float:
        """The ``multipleOf`` that enforces it (``0.01`` for two places, ``1`` for none)."""
        return 1 if self.digits == 0 else float(Decimal(1).scaleb(-self.digits))


_COMPLETE = (
    r"(?:must|should|can|may)\s+be\s+one\s+of(?:\s+the\s+following)?|one\s+of(?:\s+the\s+following)?|either"
    r"|(?:the\s+)?(?:possible|valid|allowed|accepted|supported|available|permitted)\s+values?(?:\s+are|\s+is"
    r"|\s+include)?|(?:the\s+)?options\s+are"
)
_PARTIAL = r"can\s+be|may\s+be|must\s+be|should\s+be"
_QUOTED = (
    r"`(?P<{n}b>[^`\n]{{1,40}})`|\*\*(?P<{n}k>[^*\n]{{1,40}})\*\*|\"(?P<{n}d>[^\"\n]{{1,40}})\""
    r"|'(?P<{n}s>[^'\s]{{1,40}})'"
)
_HEAD = lazy(
    rf"(?=[acefmoprstv])\b(?:(?P<complete>{_COMPLETE})|(?P<partial>{_PARTIAL}))(?P<colon>\s*:)?\s*",
    re.I,
)
_ITEM = lazy(_QUOTED.format(n="v"))
_WORD_ITEM = lazy(r"(?P<vw>[A-Za-z][\w.-]{0,39})(?<![.-])")
_SEPARATOR = lazy(r"\s*,\s*(?:(?:or|and)\s+)?|\s+(?:or|and)\s+|\s*/\s*")
_EXAMPLE = lazy(r"\b(?:such as|e\.g\.|for example|for instance|including|like)\s*$|etc\b", re.I)
_LIST_END = lazy(r"\s*(?:$|[.;:)\n]|,?\s+(?:and|or|but|with|where|which|defaults?|default|the|to|for|if)\b)", re.I)
_CONTINUES = lazy(r",?\s+(?:or|and)\s+(?!the\s+default|defaults?\b)", re.I)
"""``… `bank-account-number`, or their `-matcher` variants``: the list goes on in words, so it is not all."""
_CONDITION = lazy(r"\b(?:if|when|unless|whenever|only)\b", re.I)
_REQUIRED_AFTER = lazy(r"\s+(?:is|are|must|should)\s+(?:required|set|provided|given|specified)\b", re.I)
_MAX_VALUES = 40
_SENTENCE = 300
"""How far back a list's sentence is searched for a condition (bounded, so reading stays linear)."""
_COLON = lazy(r":\s*(?=[`\"'*])")
"""``Issue state to match: "open", "closed" or "all"``: a bare colon heads a quoted list joined by ``or``."""
_NOT_VALUES = frozenset({"and", "or", "the", "a", "an", "default", "defaults", "etc", "see", "more"})


@functools.lru_cache(maxsize=8192)
def listed_values(text: str) -> Listed | None:
    """The one list of values ``text`` gives (``None`` when it gives none, or two that disagree)."""
    found: list[Listed] = []
    heads = [(m.start(), m.end(), m["colon"] is not None, m["complete"] is not None) for m in _HEAD.finditer(text)]
    if ":" in text:
        heads += [(m.start(), m.end(), False, True) for m in _COLON.finditer(text)]
    for start, end, plain, complete in heads:
        listed = _list_at(text, start, end, plain=plain, complete=complete)
        if listed is not None and all(set(other.values) != set(listed.values) for other in found):
            found.append(listed)
            if len(found) > 1:
                return None  # two different lists: which one the field takes is not said
    if len(found) != 1:
        return None
    return found[0]


def _list_at(text: str, start: int, at: int, *, plain: bool, complete: bool) -> Listed | None:
    """The list that starts at ``at``, after its head (``one of``) at ``start``; ``plain``: words may be values."""
    values: list[str] = []
    separators: list[str] = []
    end = at
    while len(values) <= _MAX_VALUES:
        m = _ITEM.match(text, at) if not values or not plain else None
        if m is not None:
            plain = False  # a list that opens quoted stays quoted: `GET` or `POST` and the default …
        elif plain:
            m = _WORD_ITEM.match(text, at)
            if m is not None and m["vw"].lower() in _NOT_VALUES:
                m = None
        if m is None:
            break
        values.append(next(v for v in m.groupdict().values() if v is not None).strip())
        end = m.end()
        separator = _SEPARATOR.match(text, end)
        if separator is None:
            break
        separators.append(separator.group(0))
        at = separator.end()
    if len(values) < 2 or len(set(values)) != len(values) or not _LIST_END.match(text, end):
        return None
    if text[start] == ":" and "or" not in separators[len(values) - 2].lower():
        return None  # after a bare colon only `a`, `b` or `c` is a list of choices
    window = max(0, start - _SENTENCE)
    sentence = max(text.rfind(". ", window, start), text.rfind("\n", window, start))
    if _CONDITION.search(text, max(window, sentence + 1), start) or _REQUIRED_AFTER.match(text, end):
        return None  # "If set, one of `a` or `b` is required": about other fields, in a case
    if _EXAMPLE.search(text, max(0, start - 24), start) or _EXAMPLE.match(text, end):
        return None
    quote = " ".join(text[start + (text[start] == ":") : end].split())
    return Listed(tuple(values), quote, complete and not _CONTINUES.match(text, end))


_PLACES_WORD = {"zero": 0, "no": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_PLACES = lazy(
    r"(?=[amnuw])\b(?P<lead>at\s+most|up\s+to|no\s+more\s+than|a\s+maximum\s+of|max(?:imum)?|with)\s+"
    r"(?P<n>\d{1,2}|zero|no|one|two|three|four|five|six)\s+(?:decimal\s+(?:places?|digits?)|decimals)\b",
    re.I,
)
_MINOR = lazy(
    r"(?=[ai])\b(?:in|as)\s+(?:(?:integer|whole)\s+)?(?:cents|minor\s+units|pence|the\s+smallest\s+currency\s+unit)\b",
    re.I,
)
_ROUNDED = lazy(r"\bround", re.I)


@functools.lru_cache(maxsize=8192)
def promised_places(text: str) -> Places | None:
    """The decimal places ``text`` allows at most, if it says so once and plainly."""
    found = {(_digits(m["n"]), " ".join(m.group(0).split())) for m in _PLACES.finditer(text)}
    found |= {(0, " ".join(m.group(0).split())) for m in _MINOR.finditer(text)}
    if not found or len({digits for digits, _ in found}) != 1 or _ROUNDED.search(text):
        return None
    digits, quote = min(found)
    return Places(digits, quote)


def _digits(word: str) -> int:
    return int(word) if word.isdigit() else _PLACES_WORD[word.lower()]
