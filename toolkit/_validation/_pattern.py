"""JSON Schema ``pattern`` keywords and ``patternProperties`` keys, read as ECMA-262 regular expressions.

JSON Schema says a pattern is an ECMA-262 (JavaScript) regular expression, searched anywhere in the string.
Python's ``re`` reads another dialect: it cannot compile ``\\p{L}``, ``(?<n>x)``, ``\\cJ`` or ``[^]``, and it
gives ``\\s``, ``\\S``, ``.`` and ``$`` other meanings, so it never reads a pattern here. Two engines do:

* `corvus-regex-ecma262 <https://pypi.org/project/corvus-regex-ecma262/>`_, a Rust engine with the grammar and
  the answers of JavaScript's ``RegExp``, compiles every pattern (so it decides what is valid) and answers
  searches on strings shorter than :data:`LINEAR_FROM` characters;
* RE2 (``google-re2``), which matches in time linear in the string, answers longer strings (and shorter ones
  the ECMA engine has not answered within :data:`QUICK_LIMIT`), for a pattern whose every construct RE2 has:
  its twin is a translation that spells out what ECMA-262 means (``\\s`` as ECMA-262's spaces, ``.`` without
  line terminators, ``$`` as the end of the string, ``\\w`` and ``\\d`` as ASCII). The ECMA engine alone, though
  fast, backtracks on some patterns: a real URL pattern needs seconds on 10,000 characters there and
  microseconds in RE2 (``benchmarks/bench_patterns.py``).

Decisions worth knowing:

* **The u flag.** A pattern is compiled as ``new RegExp(pattern, "u")``, as jsonschema-rs and ajv (with its
  default ``unicodeRegExp``) compile it: ``\\p{...}`` properties, code-point matching (``.`` takes all of
  U+1F600), strict escapes. A pattern that the u grammar refuses but the Annex B grammar (a regular expression
  without flags, as browsers read it) accepts, such as ``[\\w\\-\\_]`` from real specs, is compiled without
  flags rather than refused: it means there what the spec's author saw in a browser. :attr:`Pattern.flags`
  says which grammar read it.
* **Refused patterns.** A pattern that neither grammar accepts raises :class:`~toolkit.SchemaError` with slug
  ``bad_pattern``, naming the pattern and the engine's reason.
* **Bounded time.** Patterns with lookarounds, backreferences, ``\\B``, ``\\p{...}``, surrogate escapes or
  repetition counts over 1,000, and patterns only Annex B reads, have no twin and stay with the ECMA engine,
  which backtracks on some of them, exponentially in the worst case (``^(a*)*\\1$`` on 40 characters), so
  that no cap on the length of the string would bound them. Each search there has a time limit
  (:data:`MATCH_TIME_LIMIT`, which also caps the engine's backtracking memory); a search that reaches it
  raises :class:`PatternLimitError` (slug ``pattern_too_slow``) instead of hanging.

Every difference from ``new RegExp(pattern, "u")`` with the Annex B fallback is in :data:`DIFFERENCES`; the
tests compare this module, and the RE2 translation on its own, with Node.js over every pattern of the OpenAPI
corpus and the cases where dialects part ways.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from types import ModuleType
from typing import TYPE_CHECKING, Final

from toolkit._exceptions import SchemaError
from toolkit._regex import lazy

if TYPE_CHECKING:
    import corvus_regex_ecma262 as _ecma
    import re2 as _re2

__all__ = [
    "DIFFERENCES",
    "LINEAR_FROM",
    "MATCH_TIME_LIMIT",
    "QUICK_LIMIT",
    "Pattern",
    "PatternLimitError",
    "compile_pattern",
]

MATCH_TIME_LIMIT: Final = 1.0
"""Seconds one search in the ECMA engine may take; the slowest corpus pattern needs milliseconds there."""
LINEAR_FROM: Final = 256
"""Strings this long go to RE2 when the pattern translates (a search in the ECMA engine costs less below)."""
QUICK_LIMIT: Final = 0.01
"""Seconds the ECMA engine has for a shorter string before the RE2 twin, when there is one, answers it."""

DIFFERENCES: Final = {
    "property_escape": "a pattern the u grammar refuses that holds a \\p or \\P escape is refused (bad_pattern), "
    "where JavaScript falls back to the Annex B grammar and reads a misspelt property such as \\p{Lettr}, or "
    "\\pL as other dialects write it, as the literal text 'p{Lettr}' or 'pL': a change of meaning nobody intends",
    "time_limit": f"a search in the ECMA engine that runs longer than {MATCH_TIME_LIMIT:g} s raises "
    "PatternLimitError (pattern_too_slow), where JavaScript backtracks for as long as it takes: a validator "
    "must answer",
    "engine_limits": "a pattern over one of the engine's size limits (its length, or groups nested too deep) is "
    "refused (bad_pattern), the message naming the limit (JavaScript engines have limits of their own)",
    "es2025": "ECMAScript 2025 syntax compiles: modifier groups such as (?i:ab) and a group name repeated in "
    "alternatives; older JavaScript engines, such as Node.js 20's, refuse it",
}
"""Where this module answers differently from JavaScript (Node.js 20) on purpose, and why."""

_UNICODE_PROPERTY = lazy(r"(?<!\\)(?:\\\\)*\\[pP]")
_SURROGATE = lazy("[\ud800-\udfff]")
# A surrogate written into the pattern as a character, after an even number of backslashes (so not escaped).
_BARE_SURROGATE = lazy(r"(?<!\\)((?:\\\\)*)([\ud800-\udfff])")
_ESCAPED_SURROGATE = lazy(r"(?<!\\)((?:\\\\)*)\\([\ud800-\udfff])")


class PatternLimitError(SchemaError):
    """A search reached :data:`MATCH_TIME_LIMIT`: the pattern backtracks too much to be checked."""

    slug = "pattern_too_slow"


@dataclass(frozen=True, slots=True)
class Pattern:
    """A compiled JSON Schema pattern; :meth:`search` answers as ``RegExp.prototype.test`` does."""

    source: str
    flags: str
    """``"u"``, or ``""`` for a pattern that only the Annex B grammar reads."""
    time_limit: float
    _regex: _ecma.Regex = field(repr=False, compare=False)
    _u_source: str | None = field(repr=False, compare=False)
    """What the ECMA engine compiled with the u flag, which the RE2 twin translates (on first use)."""

    @property
    def linear(self) -> bool:
        """Whether the pattern has an RE2 twin, which answers in time linear in the string."""
        return self._twin() is not None

    def search(self, text: str) -> bool:
        """True when the pattern matches anywhere in ``text`` (JSON Schema searches, it does not anchor).

        Strings from :data:`LINEAR_FROM` characters on go to the RE2 twin when there is one, and so does a
        shorter string that the ECMA engine has not answered within :data:`QUICK_LIMIT` (the two give the same
        answers). Without a twin the ECMA engine has :attr:`time_limit`; then :class:`PatternLimitError`.
        """
        if len(text) >= LINEAR_FROM and (answer := self._linear_search(text)) is not None:
            return answer
        try:
            return self._regex.test(text)  # within QUICK_LIMIT for a pattern that may have a twin
        except _engine().MatchLimitError:
            pass
        if self._regex.timeout is not None and self._regex.timeout < self.time_limit:
            if (answer := self._linear_search(text)) is not None:
                return answer
            try:
                return self._regex.test(text, timeout=self.time_limit)
            except _engine().MatchLimitError:
                pass
        raise self._limit_error(text)

    def _twin(self) -> _re2._Regexp | None:
        return None if self._u_source is None else _linear_twin(self._u_source)

    def _linear_search(self, text: str) -> bool | None:
        """The twin's answer, or None without a twin or for a lone surrogate (which RE2's UTF-8 cannot hold)."""
        twin = self._twin()
        try:
            return None if twin is None else twin.search(text) is not None
        except UnicodeEncodeError:
            return None

    def _limit_error(self, text: str) -> PatternLimitError:
        return PatternLimitError(
            f"the pattern {_shown(self.source)} did not finish on a {len(text):,}-character string within "
            f"{self.time_limit:g} s: it backtracks (a backreference or a nested counted repetition); rewrite "
            "it so that each character can be matched only one way, or cap the string with maxLength"
        )


def compile_pattern(pattern: str, *, time_limit: float = MATCH_TIME_LIMIT) -> Pattern:
    """Compile a JSON Schema ``pattern`` (cached); raises :class:`~toolkit.SchemaError` ``bad_pattern``."""
    if not isinstance(pattern, str):
        raise SchemaError(
            f"a pattern must be a string, got {type(pattern).__name__} {pattern!r}: write the regular "
            "expression as a JSON string",
            slug="bad_pattern",
        )
    return _compile(pattern, time_limit)


@functools.cache
def _engine() -> ModuleType:
    """The ECMA-262 engine, loaded for the first pattern compiled."""
    import corvus_regex_ecma262  # most tools have no pattern: a first one loads no engine

    return corvus_regex_ecma262


@functools.lru_cache(maxsize=4096)
def _compile(pattern: str, time_limit: float) -> Pattern:
    source, annex_b_only = _escape_surrogates(pattern)
    reason: str | None = None
    engine = _engine()
    if not annex_b_only:
        try:
            regex = engine.compile(source, "u", timeout=min(QUICK_LIMIT, time_limit))
        except engine.error as exc:
            if exc.kind != "pattern" or _UNICODE_PROPERTY.search(pattern):
                raise _refused(pattern, exc) from None
            reason = _reason(exc)
        else:
            return Pattern(pattern, "u", time_limit, regex, source)
    try:
        return Pattern(pattern, "", time_limit, engine.compile(source, "", timeout=time_limit), None)
    except engine.error as exc:
        raise _refused(pattern, exc, reason) from None


def _escape_surrogates(pattern: str) -> tuple[str, bool]:
    """Write surrogate characters as ``\\uXXXX`` escapes, which the engine reads as JavaScript does.

    JSON lets a string hold a lone surrogate (``"\\ud83d"``); the engine would read it as U+FFFD. A surrogate
    escaped with a backslash is an identity escape, which only the Annex B grammar allows (the bool).
    """
    if _SURROGATE.search(pattern) is None:
        return pattern, False
    escaped = _ESCAPED_SURROGATE.search(pattern) is not None
    source = _ESCAPED_SURROGATE.sub(lambda m: f"{m[1]}\\u{ord(m[2]):04X}", pattern)
    return _BARE_SURROGATE.sub(lambda m: f"{m[1]}\\u{ord(m[2]):04X}", source), escaped


def _reason(exc: _ecma.error) -> str:
    reason = str(exc).removeprefix("ecmaregex: ")
    return reason if len(reason) <= 200 else reason[:200] + "…"


def _shown(pattern: str) -> str:
    return repr(pattern) if len(pattern) <= 120 else f"{pattern[:120]!r}… ({len(pattern):,} characters)"


def _refused(pattern: str, exc: _ecma.error, u_reason: str | None = None) -> SchemaError:
    reason = u_reason if u_reason is not None else _reason(exc)
    if exc.kind == "too_large":
        reason = f"{_reason(exc)} (a limit of the engine, not of ECMA-262)"
    elif _UNICODE_PROPERTY.search(pattern):
        reason += " (a Unicode property is written \\p{Name}, such as \\p{L}, \\p{Lu}, \\p{Nd} or \\p{Script=Greek})"
    return SchemaError(
        f"the pattern {_shown(pattern)} is not an ECMA-262 regular expression: {reason}. JSON Schema reads a pattern "
        "as JavaScript's new RegExp(pattern, 'u') does; fix the pattern or remove it",
        slug="bad_pattern",
    )


# --- The RE2 twin: a u-mode pattern (already valid) spelt so that RE2 gives ECMA-262's answers ---------------

_Ranges = list[tuple[int, int]]
_TOP = 0x10FFFF
_DIGIT: _Ranges = [(0x30, 0x39)]
_WORD: _Ranges = [(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)]
# WhiteSpace (TAB, VT, FF, ZWNBSP and the Zs category) and LineTerminator, as \s reads them.
_SPACE: _Ranges = [(0x09, 0x0D), (0x20, 0x20), (0xA0, 0xA0), (0x1680, 0x1680), (0x2000, 0x200A)]
_SPACE += [(0x2028, 0x2029), (0x202F, 0x202F), (0x205F, 0x205F), (0x3000, 0x3000), (0xFEFF, 0xFEFF)]
_LINE_TERMINATORS: _Ranges = [(0x0A, 0x0A), (0x0D, 0x0D), (0x2028, 0x2029)]
_CONTROL = {"f": 0x0C, "n": 0x0A, "r": 0x0D, "t": 0x09, "v": 0x0B}


class _Untranslatable(Exception):
    """A construct RE2 does not have (lookaround, backreference, property, surrogate, count over 1,000)."""


@functools.lru_cache(maxsize=4096)
def _linear_twin(source: str) -> _re2._Regexp | None:
    # RE2 loads with the first twin (a long string, a slow search): most tools never need one
    import re2

    options = re2.Options()
    options.log_errors = False
    options.never_capture = True
    try:
        return re2.compile(_to_re2(source), options)
    except (_Untranslatable, re2.error):
        return None


def _to_re2(source: str) -> str:
    """RE2 syntax with ECMA-262's meaning for a pattern the u grammar accepts; raises :class:`_Untranslatable`."""
    out: list[str] = []
    i = 0
    while i < len(source):
        char = source[i]
        if char == "\\":
            piece, i = _atom_escape(source, i + 1)
        elif char == "[":
            ranges, i = _class(source, i + 1)
            piece = _set(ranges)
        elif char == "(":
            piece, i = _group(source, i)
        elif char == "{":
            end = source.index("}", i)
            if any(int(n) > 1000 for n in source[i + 1 : end].split(",") if n):
                raise _Untranslatable("a repetition count over 1,000")
            piece, i = source[i : end + 1], end + 1
        else:
            piece, i = _plain(char), i + 1
        out.append(piece)
    return "".join(out)


def _plain(char: str) -> str:
    if char in ")|*+?":
        return char
    return {"^": r"\A", "$": r"\z", ".": _set(_complement(_LINE_TERMINATORS))}.get(char) or _literal(ord(char))


def _group(source: str, i: int) -> tuple[str, int]:
    if source.startswith("(?:", i):
        return "(?:", i + 3
    if source.startswith("(?<", i) and source[i + 3] not in "=!":
        return "(?:", source.index(">", i) + 1
    if source.startswith("(?", i):
        raise _Untranslatable("a lookaround or a modifier group")
    return "(?:", i + 1


def _atom_escape(source: str, i: int) -> tuple[str, int]:
    char = source[i]
    if char == "b":
        return r"\b", i + 1
    if char in "BpPk123456789":
        # RE2 finds \B between the bytes of one UTF-8 character too, where no ECMA-262 position is.
        raise _Untranslatable("\\B, a property escape or a backreference")
    ranges, i = _class_escape(source, i)
    return _set(ranges), i


def _class_escape(source: str, i: int) -> tuple[_Ranges, int]:
    """One escape after its backslash, as code point ranges: a class escape or one character."""
    char = source[i]
    sets = {"d": _DIGIT, "w": _WORD, "s": _SPACE}
    if char.lower() in sets:
        ranges = sets[char.lower()]
        return (_complement(ranges) if char.isupper() else ranges), i + 1
    if char in "pP":
        raise _Untranslatable("a property escape")
    code, i = _character_escape(source, i)
    return [(code, code)], i


def _character_escape(source: str, i: int) -> tuple[int, int]:
    char = source[i]
    if char in _CONTROL:
        return _CONTROL[char], i + 1
    if char == "c":
        return ord(source[i + 1]) % 32, i + 2
    if char == "0":
        return 0, i + 1
    if char == "x":
        return int(source[i + 1 : i + 3], 16), i + 3
    if char == "u":
        if source[i + 1] == "{":
            end = source.index("}", i)
            code, i = int(source[i + 2 : end], 16), end + 1
        else:
            code, i = int(source[i + 1 : i + 5], 16), i + 5
        if 0xD800 <= code <= 0xDFFF:
            raise _Untranslatable("a surrogate escape")
        return code, i
    return ord(char), i + 1  # an identity escape: a syntax character, "/" or, in a class, "-"


def _class(source: str, i: int) -> tuple[_Ranges, int]:
    negated = source[i] == "^"
    i += negated
    ranges: _Ranges = []
    while source[i] != "]":
        low, i = _class_atom(source, i)
        if source[i] == "-" and source[i + 1] != "]" and len(low) == 1 and low[0][0] == low[0][1]:
            high, i = _class_atom(source, i + 1)
            ranges.append((low[0][0], high[0][1]))
        else:
            ranges += low
    return (_complement(ranges) if negated else ranges), i + 1


def _class_atom(source: str, i: int) -> tuple[_Ranges, int]:
    if source[i] != "\\":
        return [(ord(source[i]), ord(source[i]))], i + 1
    if source[i + 1] == "b":
        return [(0x08, 0x08)], i + 2
    return _class_escape(source, i + 1)


def _complement(ranges: _Ranges) -> _Ranges:
    out, start = [], 0
    for low, high in sorted(ranges):
        if low > start:
            out.append((start, low - 1))
        start = max(start, high + 1)
    return [*out, (start, _TOP)] if start <= _TOP else out


def _set(ranges: _Ranges) -> str:
    if not ranges:
        return rf"[^\x00-\x{{{_TOP:X}}}]"
    return "[" + "".join(_literal(lo) if lo == hi else f"{_literal(lo)}-{_literal(hi)}" for lo, hi in ranges) + "]"


def _literal(code: int) -> str:
    return chr(code) if chr(code).isascii() and chr(code).isalnum() else f"\\x{{{code:X}}}"
