"""JSON Schema ``pattern`` engines side by side: compile time, search time, ECMA-262 fidelity, worst case.

    .venv/bin/python benchmarks/bench_patterns.py            # all of it (a few minutes: old engines hang)
    .venv/bin/python benchmarks/bench_patterns.py --quick    # 3 s budget per search instead of 10 s
    .venv/bin/pip install -e '.[bench]'                      # regress and regex, to measure them too

Engines (columns): ``toolkit`` (``toolkit._validation._pattern``: the ECMA engine, with an RE2 twin for strings from
``LINEAR_FROM`` characters on), ``corvus`` (corvus-regex-ecma262 alone), ``re2`` (google-re2 alone, on
``toolkit._validation._pattern``'s translation; patterns it cannot express are refused), ``regress`` (the Rust regress
crate jsonschema-rs uses), ``re (old)`` (Python's ``re`` behind the old translation: ``$`` as ``\\Z``,
``re.ASCII``; what the validator did before) and ``regex`` (the same translation on the ``regex`` package).
Each compiles with the u flag, falling back to no flags, where it can.

Rows: compile time per corpus pattern (uncached; ``toolkit`` compiles its RE2 twin on the first long string,
``re2`` includes the ECMA engine's check that the pattern is valid) and the patterns each refuses; search
time over typical patterns and values; wrong answers against Node.js (``new RegExp(p, 'u')`` and ``.test``;
a refused pattern or a search past 1 s counts as wrong) over every corpus pattern with strings near it and
300 random small patterns; the slowest search of a corpus pattern over 10,000-character strings that make
backtracking engines work (each search in a child process that is killed at the budget, best of two); the
SendGrid URL pattern on two 1,601-character strings, one of which takes Python's ``re`` half a minute.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import resource
import select
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from pattern_support import NODE, corpus_patterns, javascript_verdicts, near_strings, pumped_strings, random_patterns

from toolkit._validation._pattern import MATCH_TIME_LIMIT, PatternLimitError, _compile, _escape_surrogates, _linear_twin

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus" / "openapi"
URL = r"^((http[s]?|ftp):\/)?\/?([^:\/\s]+)((\/\w+)*\/)([\w\-\.]+[^#?\s]+)(.*)?(#[\w\-]+)?$"
# 1,601 characters each: the first takes Python's re 38 s, the second takes corvus alone 0.1 s (3 s at 10,000).
URL_STRINGS = ("a/" + "a" * 1_598 + "\n", "/0éZ/" + "." * 1_584 + "Z-aa\n\n#-9--\n")
UUID = r"[a-fA-F0-9]{8}-[a-fA-F0-9]{4}-[a-fA-F0-9]{4}-[a-fA-F0-9]{4}-[a-fA-F0-9]{12}"  # SendGrid
TYPICAL = [
    (r"^[a-zA-Z0-9_-]+$", "search_issues"),
    (r"^AC[0-9a-fA-F]{32}$", "AC" + "0123456789abcdef" * 2),
    (UUID, "0c6f3d2e-1b4a-4f7e-9a8b-2c3d4e5f6a7b"),
    (r"^[A-Za-z0-9\._%\+-]+@[A-Za-z0-9\.-]+\.[A-Za-z]{2,6}$", "ada.lovelace@example.com"),
    (r"^(\d{4}-\d{2}-\d{2}) ((\d{2}):(\d{2}):(\d{2}))$", "2026-08-07 14:02:00"),
    (r"^-?(?:0|[1-9][0-9]{0,11})(?:\.[0-9]{1,9})?s$", "3.5s"),
    (r"^[UW][A-Z0-9]{8,}$|^$", "U012AB3CDE"),
    (URL, "https://example.com/docs/api/index.html#top"),
    (r"^\S+$", "a-value-of-forty-characters-without-gaps"),
]
Engine = Callable[[str], Callable[[str], bool]]


def _ecma_or_annex_b(build: Callable[[str, str], Any], pattern: str) -> Any:
    try:
        return build(pattern, "u")
    except Exception:
        return build(pattern, "")


def _old_translation(pattern: str) -> str:
    out, escaped, in_class = [], False, False
    for char in pattern:
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif char in "[]":
            in_class = char == "["
        elif char == "$" and not in_class:
            out.append(r"\Z")
            continue
        out.append(char)
    return "".join(out)


def engines() -> dict[str, Engine | str]:
    """Engine name -> (pattern -> search function), or why it is missing."""
    out: dict[str, Engine | str] = {"toolkit": lambda p: _compile.__wrapped__(p, MATCH_TIME_LIMIT).search}
    try:
        import corvus_regex_ecma262 as corvus

        def build(p: str) -> Callable[[str], bool]:
            return _ecma_or_annex_b(lambda q, f: corvus.compile(_escape_surrogates(q)[0], f), p).test

        out["corvus"] = build
    except ImportError:
        out["corvus"] = "not installed"

    def re2_alone(p: str) -> Callable[[str], bool]:
        u_grammar = _compile.__wrapped__(p, MATCH_TIME_LIMIT).flags == "u"
        twin = _linear_twin.__wrapped__(_escape_surrogates(p)[0]) if u_grammar else None
        if twin is None:
            raise ValueError("RE2 cannot express it")
        return lambda text: twin.search(text) is not None

    out["re2"] = re2_alone
    try:
        import regress

        out["regress"] = lambda p: _ecma_or_annex_b(lambda q, f: regress.Regex(q, f or None), p).find
    except ImportError:
        out["regress"] = "not installed: pip install regress"
    out["re (old)"] = lambda p: re.compile(_old_translation(p), re.ASCII).search
    try:
        import regex

        out["regex"] = lambda p: regex.compile(_old_translation(p), regex.ASCII | regex.V0).search
    except ImportError:
        out["regex"] = "not installed: pip install regex"
    return out


def _answer(search: Callable[[str], Any], text: str) -> bool | str:
    try:
        return search(text) not in (None, False)
    except PatternLimitError:
        return "time limit"
    except Exception as exc:
        return type(exc).__name__


def compile_row(engine: Engine, patterns: list[str]) -> tuple[float, int]:
    """Mean µs per pattern over one pass, after a warm-up and with the caches of ``re`` and ``regex`` emptied
    (they would answer a second pass from memory), and the patterns refused."""
    engine("warm-up")
    re.purge()
    if "regex" in sys.modules:
        sys.modules["regex"].purge()
    start, refused = time.perf_counter(), 0
    for pattern in patterns:
        try:
            engine(pattern)
        except Exception:
            refused += 1
    return (time.perf_counter() - start) / len(patterns) * 1e6, refused


def search_row(engine: Engine, rounds: int = 5, number: int = 2000) -> float:
    best = []
    for pattern, text in TYPICAL:
        search = engine(pattern)
        best.append(min(_timed(search, text, number) for _ in range(rounds)))
    return sum(best) / len(best) * 1e6


def _timed(search: Callable[[str], Any], text: str, number: int) -> float:
    start = time.perf_counter()
    for _ in range(number):
        search(text)
    return (time.perf_counter() - start) / number


def fidelity_row(name: str, cases: list[tuple[str, list[str]]], verdicts: list[Any]) -> tuple[int, int]:
    """Wrong answers (a refused valid pattern and a search past 1 s count as wrong) and answers asked."""
    asked = [(p, t, want) for (p, texts), v in zip(cases, verdicts, strict=True) if v.flags is not None
             for t, want in zip(texts, v.matches, strict=True)]  # fmt: skip
    answers = run_cases(name, [(p, t) for p, t, _ in asked], budget=1.0, skip_after_kill=False)
    return sum(answer is not want for (_, _, want), (_, answer) in zip(asked, answers, strict=True)), len(asked)


def worst_case(name: str, cases: list[tuple[str, str]], budget: float, repeat: int = 1) -> tuple[float, str, int]:
    """The slowest search (seconds, pattern) over ``cases`` (each the best of ``repeat``, unless the first takes
    over a second) and how many searches were killed at ``budget``."""
    results = run_cases(name, cases, budget, repeat=repeat)
    worst = max(range(len(results)), key=lambda i: results[i][0])
    return results[worst][0], cases[worst][0], sum(answer == "killed" for _, answer in results)


def run_cases(
    name: str, cases: list[tuple[str, str]], budget: float, repeat: int = 1, skip_after_kill: bool = True
) -> list[tuple[float, Any]]:
    """(seconds, answer) per case, searched in a child process (4 GiB of memory at most) that is killed at
    ``budget`` and started anew; after a kill, the pattern's other strings are skipped unless told otherwise."""
    out: list[tuple[float, Any]] = []
    child, skip = _child(name), None
    for pattern, text in cases:
        if pattern == skip:
            out.append((0.0, "skipped"))
            continue
        assert child.stdin is not None
        assert child.stdout is not None
        child.stdin.write(json.dumps([pattern, text, repeat]) + "\n")
        child.stdin.flush()
        ready, _, _ = select.select([child.stdout], [], [], budget)
        line = child.stdout.readline() if ready else ""
        if line:
            elapsed, answer = json.loads(line)
            out.append((elapsed, answer))
            continue
        out.append((budget, "killed"))
        child.kill()
        child.wait()
        child, skip = _child(name), pattern if skip_after_kill else None
    child.kill()
    child.wait()
    return out


def _child(name: str) -> subprocess.Popen[str]:
    command = [sys.executable, __file__, "--child", name]
    return subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1, preexec_fn=_memory_cap
    )


def _memory_cap() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))


def child_loop(name: str) -> None:
    engine = engines()[name]
    assert callable(engine)
    compiled: dict[str, Callable[[str], Any] | None] = {}
    for line in sys.stdin:
        pattern, text, repeat = json.loads(line)
        if pattern not in compiled:
            try:
                compiled[pattern] = engine(pattern)
            except Exception:
                compiled[pattern] = None
        search, best, answer = compiled[pattern], float("inf"), "refused"
        for _ in range(repeat if search is not None else 0):
            start = time.perf_counter()
            answer = _answer(search, text)  # type: ignore[arg-type]
            best = min(best, time.perf_counter() - start)
            if best > 1.0:  # slow enough to need no second look
                break
        print(json.dumps([best if search is not None else 0.0, answer]), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="3 s budget per search in the worst-case rows")
    parser.add_argument("--corpus", type=Path, default=CORPUS, help="folder of OpenAPI specs")
    parser.add_argument("--engines", help="comma-separated engine names (default: all)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return child_loop(args.child)
    budget = 3.0 if args.quick else 10.0
    patterns = sorted(corpus_patterns(args.corpus))
    rnd = random.Random(7)
    pumped = [(p, t) for p in patterns for t in pumped_strings(p, rnd, 10_000)]
    fidelity = [(p, near_strings(p, rnd, 20)) for p in patterns] + random_patterns(rnd, 300)
    verdicts = javascript_verdicts(fidelity) if NODE else None
    print(f"{len(patterns)} corpus patterns; {len(pumped)} strings of 10,000 characters; budget {budget:g} s\n")
    rows: dict[str, dict[str, str]] = {}
    base: dict[str, float] = {}
    chosen = args.engines.split(",") if args.engines else list(engines())
    for name, engine in engines().items():
        if name not in chosen:
            continue
        print(f"measuring {name} ...", file=sys.stderr, flush=True)
        column = rows.setdefault(name, {})
        if isinstance(engine, str):
            column["compile, µs/pattern"] = engine
            continue
        per, refused = compile_row(engine, patterns)
        typical = search_row(engine)
        worst, worst_pattern, killed = worst_case(name, pumped, budget, repeat=2)
        url_time, _, url_killed = worst_case(name, [(URL, text) for text in URL_STRINGS], 60.0, repeat=3)
        base = base or {"compile": per, "search": typical, "worst": worst, "url": url_time}
        column["compile, µs/pattern"] = f"{per:.1f} {_ratio(per, base['compile'])}"
        column["corpus patterns refused"] = str(refused)
        column["search, µs (typical)"] = f"{typical:.2f} {_ratio(typical, base['search'])}"
        if verdicts is not None:
            wrong, asked = fidelity_row(name, fidelity, verdicts)
            column["wrong vs Node.js"] = f"{wrong} / {asked}"
        shown = f">{budget:g} s" if killed else _ms(worst)  # after a kill, the slowest is a kill
        column["worst @10,000 chars"] = f"{shown} {_ratio(worst, base['worst'])}"
        column["  searches killed"] = str(killed)
        column["  slowest pattern"] = worst_pattern[:14]
        url = f"{_ms(url_time)} {_ratio(url_time, base['url'])}"
        column["SendGrid URL @1,601"] = ">60 s" if url_killed else url
    _print(rows)


def _ms(seconds: float) -> str:
    ms = seconds * 1e3
    return f"{ms:,.0f} ms" if ms >= 100 else f"{ms:.1f} ms" if ms >= 1 else f"{ms:.3f} ms"


def _ratio(value: float, base: float) -> str:
    return f"({value / base:,.1f}×)" if value < 10 * base else f"({value / base:,.0f}×)"


def _print(rows: dict[str, dict[str, str]]) -> None:
    labels = list(dict.fromkeys(label for column in rows.values() for label in column))
    names = list(rows)
    print(f"{'':26}" + "".join(f"{n:>23}" for n in names))
    for label in labels:
        print(f"{label:26}" + "".join(f"{rows[n].get(label, '-'):>23}" for n in names))
    print("\n(×: ratio to the first column; >N s: a search was killed at that budget)")


if __name__ == "__main__":
    main()
