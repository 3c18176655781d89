"""JSON Schema ``pattern`` keywords and ``patternProperties`` keys, read as ECMA-262 regular expressions.

JSON Schema says a pattern is an ECMA-262 (JavaScript) regular expression, searched anywhere in the string.
Python's ``re`` reads another dialect: it cannot compile ``\\p{L}``, ``(?<n>x)``, ``\\cJ`` or ``[^]``, and it
gives ``\\s``, ``\\S``, ``.`` and ``$`` other meanings. So patterns are compiled by
`corvus-regex-ecma262 <https://pypi.org/project/corvus-regex-ecma262/>`_, a Rust engine with the grammar and
the answers of JavaScript's ``RegExp``, and never by ``re``.

Decisions worth knowing:

* **The u flag.** A pattern is compiled as ``new RegExp(pattern, "u")``, as jsonschema-rs and ajv (with its
  default ``unicodeRegExp``) compile it: ``\\p{...}`` properties, code-point matching (``.`` takes all of
  U+1F600), strict escapes. A pattern that the u grammar refuses but the Annex B grammar (a regular expression
  without flags, as browsers read it) accepts, such as ``[\\w\\-\\_]`` from real specs, is compiled without
  flags rather than refused: it means there what the spec's author saw in a browser. :attr:`Pattern.flags`
  says which grammar read it.
* **Refused patterns.** A pattern that neither grammar accepts raises :class:`~toolkit.SchemaError` with slug
  ``bad_pattern``, naming the pattern and the engine's reason.
* **Bounded time.** The engine matches in time proportional to the text for most patterns (every pattern of
  the OpenAPI corpus); patterns with backreferences or nested counted repetitions (``(?:a{1,30}){1,30}b``)
  backtrack, exponentially in the worst case, and no cap on the input length bounds that (40 characters are
  enough). Each search therefore has a time limit (:data:`MATCH_TIME_LIMIT`, which also caps the engine's
  backtracking memory); a search that reaches it raises :class:`PatternLimitError` (slug
  ``pattern_too_slow``) instead of hanging.

Every difference from ``new RegExp(pattern, "u")`` with the Annex B fallback is in :data:`DIFFERENCES`; the
tests compare this module with Node.js over every pattern of the corpus.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from typing import Final

import corvus_regex_ecma262 as _engine

from toolkit._exceptions import SchemaError

__all__ = ["DIFFERENCES", "MATCH_TIME_LIMIT", "Pattern", "PatternLimitError", "compile_pattern"]

MATCH_TIME_LIMIT: Final = 1.0
"""Seconds one search may take. The slowest corpus pattern needs milliseconds on 10,000 characters."""

DIFFERENCES: Final = (
    (
        "a pattern the u grammar refuses that holds a \\p or \\P escape is refused (bad_pattern)",
        "the Annex B grammar would read a misspelt property such as \\p{Lettr}, or \\pL as other dialects "
        "write it, as the literal text 'p{Lettr}' or 'pL': a silent change of meaning nobody intends",
    ),
    (
        f"a search that runs longer than {MATCH_TIME_LIMIT:g} s raises PatternLimitError",
        "JavaScript backtracks for as long as it takes; a validator must answer",
    ),
    (
        f"a pattern longer than {_engine.MAX_PATTERN_LENGTH:,} characters or nested deeper than "
        f"{_engine.MAX_NESTING} groups is refused (bad_pattern)",
        "the engine's size limits; JavaScript engines have limits of their own",
    ),
)
"""Where this module answers differently from JavaScript on purpose: (what, why) pairs."""

_UNICODE_PROPERTY = re.compile(r"(?<!\\)(?:\\\\)*\\[pP]")
_SURROGATE = re.compile("[\ud800-\udfff]")
# A surrogate written into the pattern as a character, after an even number of backslashes (so not escaped).
_BARE_SURROGATE = re.compile(r"(?<!\\)((?:\\\\)*)([\ud800-\udfff])")
_ESCAPED_SURROGATE = re.compile(r"(?<!\\)((?:\\\\)*)\\([\ud800-\udfff])")


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
    _regex: _engine.Regex = field(repr=False, compare=False)

    def search(self, text: str) -> bool:
        """True when the pattern matches anywhere in ``text`` (JSON Schema searches, it does not anchor).

        Raises :class:`PatternLimitError` when the search reaches :attr:`time_limit`.
        """
        try:
            return self._regex.test(text)
        except _engine.MatchLimitError:
            raise PatternLimitError(
                f"the pattern {_shown(self.source)} did not finish on a {len(text):,}-character string within "
                f"{self.time_limit:g} s: it backtracks (a backreference or a nested counted repetition); rewrite "
                "it so that each character can be matched only one way, or cap the string with maxLength"
            ) from None


def compile_pattern(pattern: str, *, time_limit: float = MATCH_TIME_LIMIT) -> Pattern:
    """Compile a JSON Schema ``pattern`` (cached); raises :class:`~toolkit.SchemaError` ``bad_pattern``."""
    if not isinstance(pattern, str):
        raise SchemaError(
            f"a pattern must be a string, got {type(pattern).__name__} {pattern!r}: write the regular "
            "expression as a JSON string",
            slug="bad_pattern",
        )
    return _compile(pattern, time_limit)


@functools.lru_cache(maxsize=4096)
def _compile(pattern: str, time_limit: float) -> Pattern:
    source, annex_b_only = _escape_surrogates(pattern)
    reason: str | None = None
    if not annex_b_only:
        try:
            return Pattern(pattern, "u", time_limit, _engine.compile(source, "u", timeout=time_limit))
        except _engine.error as exc:
            if exc.kind != "pattern" or _UNICODE_PROPERTY.search(pattern):
                raise _refused(pattern, exc) from None
            reason = _reason(exc)
    try:
        return Pattern(pattern, "", time_limit, _engine.compile(source, "", timeout=time_limit))
    except _engine.error as exc:
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


def _reason(exc: _engine.error) -> str:
    reason = str(exc).removeprefix("ecmaregex: ")
    return reason if len(reason) <= 200 else reason[:200] + "…"


def _shown(pattern: str) -> str:
    return repr(pattern) if len(pattern) <= 120 else f"{pattern[:120]!r}… ({len(pattern):,} characters)"


def _refused(pattern: str, exc: _engine.error, u_reason: str | None = None) -> SchemaError:
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
