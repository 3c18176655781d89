"""JSON Schema patterns answer as ECMA-262 says, checked against JavaScript's own RegExp (Node.js).

The oracle compiles each pattern with the u flag, and without flags (the Annex B grammar) when the u grammar
refuses it, as ``toolkit._validation._pattern`` does; every place where the module answers otherwise on purpose
is a key of ``DIFFERENCES``, and each test names the key it relies on.

Internals: ``_validation._pattern`` (``compile_pattern``, ``Pattern``, the linear twin, its limits), the pattern
engine under test.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from conftest import CORPUS
from pattern_support import (
    NO_NODE,
    NODE,
    Verdict,
    corpus_patterns,
    javascript_verdicts,
    near_strings,
    pumped_strings,
    random_patterns,
)

from toolkit import SchemaError
from toolkit._validation._pattern import (
    DIFFERENCES,
    LINEAR_FROM,
    Pattern,
    PatternLimitError,
    _linear_twin,
    compile_pattern,
)

needs_node = pytest.mark.skipif(NODE is None, reason=NO_NODE)
LONG = 10_000

# (pattern, text, what ECMA-262 answers): each row is a place where Python's re or another dialect answers
# otherwise, or a feature only JavaScript's grammar has. The oracle test below checks the answers themselves.
ANSWERS = [
    (r"^\p{L}+$", "123", False),
    (r"^\p{L}+$", "été", True),
    (r"^\P{L}+$", "123", True),
    (r"^\p{Lu}", "Été", True),
    (r"^\p{Script=Greek}+$", "αβγ", True),
    (r"^(?<n>x)\k<n>$", "xx", True),
    (r"^(?<n>x)\k<n>$", "xy", False),
    (r"^\cJ$", "\n", True),
    (r"^[^]$", "\n", True),
    (r"^[^]$", "", False),
    (r"^\S+$", "a\u00a0b", False),
    (r"^\S+$", "a\ufeffb", False),
    (r"^\s$", "\u3000", True),
    (r"^\s$", "\u00a0", True),
    (r"^\s$", "\ufeff", True),
    (r"^\s$", "\u2028", True),
    (r"^.$", "\u2028", False),
    (r"^.$", "\u2029", False),
    (r"^.$", "\n", False),
    (r"^.$", "\r", False),
    (r"^.$", "\t", True),
    (r"^[a-z]+$", "abc\n", False),
    (r"^[a-z]+$", "abc", True),
    (r"^\d+$", "\u0663\u0664", False),
    (r"^\d+$", "34", True),
    (r"^\w+$", "é", False),
    (r"^\w+$", "a_9", True),
    (r"\bfoo\b", "a foo.", True),
    (r"\bfoo\b", "éfooé", True),
    (r"\bfoo\b", "_foo", False),
    (r"^abc$", "ABC", False),
    (r"(?<=\$)\d+", "$42", True),
    (r"(?<!\$)\b\d+", "$42", False),
    (r"^(a+)\1$", "aaaa", True),
    (r"^(a+)\1$", "aaa", False),
    (r"^.$", "\U0001f600", True),
    (r"^..$", "\U0001f600", False),
    (r"^[😀]$", "\U0001f600", True),
    (r"^\u{1F600}$", "\U0001f600", True),
    (r"^\uD83D\uDE00$", "\U0001f600", True),
    (r"^\uD83D", "\U0001f600", False),
    (r"^[\_]?.$", "\U0001f600", False),  # \_ is Annex B only: code units, so . is half of U+1F600
    (r"^[\_]?\uD83D", "\U0001f600", True),
    (r"^[a-z\-\_]+$", "a-b_c", True),
    (r"^\S$", "\ud83d", True),
    ("^\ud83d$", "\ud83d", True),  # a lone surrogate written into the pattern (JSON "\ud83d")
    ("^\\\ud83d$", "\ud83d", True),  # the same, escaped: Annex B only
    ("^\ud83d\ude00$", "\U0001f600", True),  # a pair written as two halves
    (r"b", "abc", True),
    (r"^$", "", True),
    (r"^a|b$", "xb", True),
    (r"\B", "a😀_", False),  # V8 finds one between the halves of U+1F600; ECMA-262 never looks there
    (r"\B", "😀", True),
    # Strings from LINEAR_FROM characters on, which RE2 answers when the pattern translates:
    (r"^\S+$", "a" * 300 + "\u00a0", False),
    (r"^\S+$", "a" * 300 + "\ud83d", True),  # a lone surrogate: RE2 cannot hold it, the ECMA engine answers
    (r"^\s+$", "\u3000\ufeff\u2028\u00a0\u1680\u202f\u205f\u000b" * 40, True),
    (r"^.+$", "a" * 300 + "\u2028", False),
    (r"^[a-z]+$", "a" * 300 + "\n", False),
    (r"^\d+$", "1" * 300 + "\u0663", False),
    (r"^\w+$", "a" * 300 + "é", False),
    (r"\bfoo\b", "é" * 300 + "foo", True),
    (r"^[^]+$", "\n" * 300, True),
    (r"^.{300}$", "😀" * 300, True),
    (r"^\u{1F600}+$", "😀" * 300, True),
    (r"^\cJ+\x41\0$", "\n" * 300 + "A\x00", True),
    (r"^[\b\-\/]+$", "\x08-/" * 100, True),
    (r"^(?<word>[a-z]+)(?:-[a-z]+)*$", "ab-" * 100 + "c", True),
]
REFUSED = ["(", "[z-a]", "a{2,1}", "a**", "(?<=a", "(?<n>a)(?<n>b)", r"\k<x>(?<y>a)", "x{2}{3}", r"\p{L}(", "(?P<n>a)"]
# Refused here, read by JavaScript's Annex B grammar as literal text: DIFFERENCES["property_escape"].
PROPERTY_TYPOS = [r"\p{Lettr}", r"^\pL+$", r"\P{Foo}", r"[\p{L}\_]", r"\p{L"]
# ECMAScript 2025 syntax, which Node 20 (the oracle here) predates: DIFFERENCES["es2025"].
ES2025 = [(r"^(?i:ab)c$", "ABc", True), (r"^(?i:ab)c$", "ABC", False), (r"^(?:(?<y>a)|(?<y>b))\k<y>$", "bb", True)]


def _corpus() -> dict[str, tuple[str, ...]]:
    if not (CORPUS / "MANIFEST.tsv").is_file():
        pytest.skip(f"OpenAPI corpus not found at {CORPUS} (it sits beside the repo in ../shared)")
    return _patterns_of(CORPUS)


_CACHE: dict[Path, dict[str, tuple[str, ...]]] = {}


def _patterns_of(folder: Path) -> dict[str, tuple[str, ...]]:
    if folder not in _CACHE:
        _CACHE[folder] = corpus_patterns(folder)
    return _CACHE[folder]


@pytest.mark.parametrize(("pattern", "text", "expected"), ANSWERS, ids=[f"{p!a}~{t[:12]!a}" for p, t, _ in ANSWERS])
def test_pattern_answers_as_ecma_262_says(pattern: str, text: str, expected: bool) -> None:
    assert compile_pattern(pattern).search(text) is expected


@needs_node
def test_the_answers_are_javascripts() -> None:
    rows = [*ANSWERS, *((p, "", False) for p in REFUSED + PROPERTY_TYPOS), *ES2025]
    verdicts = javascript_verdicts([(p, [t]) for p, t, _ in rows])
    answers = {(p, t): v for (p, t, _), v in zip(rows, verdicts, strict=True)}
    assert [(p, t) for p, t, want in ANSWERS if answers[p, t].matches != (want,)] == []
    assert [p for p in REFUSED if answers[p, ""].flags is not None] == []
    assert [p for p in PROPERTY_TYPOS if answers[p, ""].flags != ""] == [], "JavaScript reads these as literal text"
    # Node 20 refuses ES2025 syntax (DIFFERENCES["es2025"]); a newer Node must then give the same answers.
    assert [p for p, t, want in ES2025 if answers[p, t].flags is not None and answers[p, t].matches != (want,)] == []


@pytest.mark.parametrize("pattern", REFUSED + PROPERTY_TYPOS)
def test_invalid_pattern_is_refused_with_bad_pattern(pattern: str) -> None:
    with pytest.raises(SchemaError) as caught:
        compile_pattern(pattern)
    assert caught.value.slug == "bad_pattern"
    assert repr(pattern) in caught.value.message
    assert "not an ECMA-262 regular expression" in caught.value.message


def test_property_typo_message_shows_how_properties_are_written() -> None:
    assert "property_escape" in DIFFERENCES
    with pytest.raises(SchemaError, match=r"written \\p\{Name\}"):
        compile_pattern(r"^\p{Lettr}+$")


@pytest.mark.parametrize(("pattern", "text", "expected"), ES2025, ids=[p for p, _, _ in ES2025])
def test_es2025_syntax_compiles(pattern: str, text: str, expected: bool) -> None:
    assert "es2025" in DIFFERENCES
    assert compile_pattern(pattern).search(text) is expected


@pytest.mark.slow
@needs_node
def test_random_patterns_agree_with_javascript_in_both_engines() -> None:
    """Small patterns over the constructs where dialects part ways: the ECMA engine (strings shorter than
    LINEAR_FROM) and, for the patterns that translate, the RE2 twin answer each string as JavaScript does."""
    cases = random_patterns(random.Random(2026), 1000)
    verdicts = javascript_verdicts(cases)
    wrong, linear = [], 0
    for (pattern, texts), verdict in zip(cases, verdicts, strict=True):
        assert compile_pattern(pattern).flags == verdict.flags == "u", pattern
        twin = _linear_twin(pattern)
        linear += twin is not None
        for text, want in zip(texts, verdict.matches, strict=True):
            assert len(text) < LINEAR_FROM
            if compile_pattern(pattern).search(text) is not want:
                wrong.append(("ecma", pattern, text, want))
            if twin is not None and (twin.search(text) is not None) is not want:
                wrong.append(("re2", pattern, text, want))
    assert wrong == []
    assert len(cases) // 5 < linear < len(cases)


URL = r"^((http[s]?|ftp):\/)?\/?([^:\/\s]+)((\/\w+)*\/)([\w\-\.]+[^#?\s]+)(.*)?(#[\w\-]+)?$"  # SendGrid


@pytest.mark.parametrize(
    ("pattern", "linear"),
    [
        (URL, True),
        (r"^[\s\S]{2,}\b[^\d]\u{1F600}$", True),
        (r"^\p{L}+$", False),
        (r"(?<=\$)\d+", False),
        (r"^(a+)\1$", False),
        (r"a\B", False),
        (r"^[\w\-\_]+$", False),
        ("^\ud83d$", False),
        (r"^a{1001}$", False),
    ],
    ids=["url", "plain", "property", "lookbehind", "backreference", "not-boundary", "annex-b", "surrogate", "count"],
)
def test_which_patterns_get_a_linear_time_twin(pattern: str, linear: bool) -> None:
    assert compile_pattern(pattern).linear is linear


def test_the_sendgrid_url_pattern_answers_on_long_strings() -> None:
    """Python's re needs 38 s on 1,601 characters of this; see benchmarks/bench_patterns.py for the timing."""
    compiled = compile_pattern(URL)
    assert compiled.search("a/" + "a" * 9_997 + "\n") is False
    assert compiled.search("/0éZ/" + "." * 9_990 + "Z-aa\n\n#-9--\n") is False
    assert compiled.search("https://example.com/a/" + "b" * 9_990) is True


def test_u_flag_first_then_annex_b() -> None:
    assert compile_pattern(r"^\p{L}$").flags == "u"
    assert compile_pattern(r"^[\w\-\_]+$").flags == ""
    assert compile_pattern("^\\\ud83d$").flags == ""


@pytest.mark.parametrize("value", [5, None, ["^a$"], {"pattern": "a"}], ids=repr)
def test_pattern_that_is_not_a_string_is_refused(value: object) -> None:
    with pytest.raises(SchemaError) as caught:
        compile_pattern(value)  # type: ignore[arg-type]
    assert caught.value.slug == "bad_pattern"


def test_oversized_pattern_is_refused_with_the_engines_limit() -> None:
    assert "engine_limits" in DIFFERENCES
    with pytest.raises(SchemaError, match="limit of the engine") as caught:
        compile_pattern("(" * 1001 + ")" * 1001)
    assert caught.value.slug == "bad_pattern"
    assert "2,002 characters" in caught.value.message


def test_compiled_patterns_are_cached_and_frozen() -> None:
    first = compile_pattern(r"^ord_[a-z0-9]{12}$")
    assert compile_pattern(r"^ord_[a-z0-9]{12}$") is first
    assert isinstance(first, Pattern)
    with pytest.raises(AttributeError):
        first.flags = ""  # type: ignore[misc]


@pytest.mark.parametrize(
    "pattern",
    [r"^(a*)*\1$", r"(a|aa){1,10000}b", r"^(?:\p{L}{1,30}){1,30}b$"],
    ids=["backreference", "count-over-1000", "property"],
)
def test_a_search_that_backtracks_too_long_raises_pattern_too_slow(pattern: str) -> None:
    """Exponential in the text and without an RE2 twin: 40 characters already take seconds, so 100 reach
    any limit."""
    assert "time_limit" in DIFFERENCES
    compiled = compile_pattern(pattern, time_limit=0.05)
    assert not compiled.linear
    with pytest.raises(PatternLimitError) as caught:
        compiled.search("a" * 100 + "!")
    assert caught.value.slug == "pattern_too_slow"
    assert isinstance(caught.value, SchemaError)
    assert repr(pattern) in caught.value.message
    assert "101-character string within 0.05 s" in caught.value.message


def test_a_short_string_the_ecma_engine_backtracks_on_is_answered_by_the_twin() -> None:
    """Nested counted repetitions backtrack exponentially in the ECMA engine even on 100 characters; RE2,
    which gives the same answers, takes over after QUICK_LIMIT."""
    compiled = compile_pattern(r"^(?:a{1,30}){1,30}b$", time_limit=0.05)
    assert compiled.linear
    assert compiled.search("a" * 100 + "!") is False
    assert compiled.search("a" * 100 + "b") is True


@pytest.mark.slow
@pytest.mark.corpus
def test_corpus_patterns_all_compile() -> None:
    patterns = _corpus()
    assert len(patterns) > 100
    refused = {}
    for pattern in patterns:
        try:
            compile_pattern(pattern)
        except SchemaError as exc:
            refused[pattern] = exc.message
    assert refused == {}


@needs_node
@pytest.mark.corpus
@pytest.mark.timeout(120)
def test_corpus_patterns_agree_with_javascript_on_near_strings() -> None:
    rnd = random.Random(20260807)
    cases = [(p, near_strings(p, rnd, 20)) for p in sorted(_corpus())]
    _assert_agrees(cases, javascript_verdicts(cases))
    _assert_agrees(cases, javascript_verdicts(cases), twin=True)


@needs_node
@pytest.mark.corpus
@pytest.mark.timeout(120)
def test_corpus_patterns_agree_with_javascript_on_pumped_strings() -> None:
    rnd = random.Random(11)
    cases = [(p, pumped_strings(p, rnd, 200)) for p in sorted(_corpus())]
    verdicts = javascript_verdicts(cases, timeout_ms=5000)
    _assert_agrees(cases, verdicts)
    _assert_agrees(cases, verdicts, twin=True)


@pytest.mark.corpus
@pytest.mark.slow
@pytest.mark.timeout(300)
def test_every_corpus_pattern_answers_on_10000_characters() -> None:
    """Each search returns, under a generous guard (the engine's own limit, a few seconds); where Node.js
    answers within a second, the answer is the same (V8 backtracks for hours on some of these)."""
    rnd = random.Random(5)
    cases = [(p, pumped_strings(p, rnd, LONG)) for p in sorted(_corpus())]
    answers = [[compile_pattern(p, time_limit=5.0).search(t) for t in texts] for p, texts in cases]
    assert sum(map(len, answers)) > 2000
    if NODE is None:  # every search returned; without the oracle the answers are not compared
        return
    verdicts = javascript_verdicts(cases, timeout_ms=1000)
    wrong = [
        (p, t[:20], got, want)
        for (p, texts), verdict, got_all in zip(cases, verdicts, answers, strict=True)
        for t, want, got in zip(texts, verdict.matches, got_all, strict=True)
        if want is not None and got is not want
    ]
    assert wrong == []


def _assert_agrees(cases: list[tuple[str, list[str]]], verdicts: list[Verdict], twin: bool = False) -> None:
    """Every answer the oracle gave is the module's (``twin``: the RE2 twin's, where the pattern has one)."""
    wrong, asked = [], 0
    for (pattern, texts), verdict in zip(cases, verdicts, strict=True):
        compiled = compile_pattern(pattern)
        assert compiled.flags == verdict.flags, pattern
        linear = _linear_twin(pattern) if twin else None
        if twin and linear is None:
            continue
        for text, want in zip(texts, verdict.matches, strict=True):
            if want is None or (linear is not None and _has_surrogate(text)):
                continue
            asked += 1
            got = compiled.search(text) if linear is None else linear.search(text) is not None
            if got is not want:
                wrong.append((pattern, text, want))
    assert wrong == []
    assert asked > 1000


def _has_surrogate(text: str) -> bool:
    return any("\ud800" <= c <= "\udfff" for c in text)
