"""Patterns of the OpenAPI corpus, strings near a pattern, and JavaScript's own RegExp as the oracle.

Shared by ``test_pattern.py`` and ``benchmarks/bench_patterns.py``. The oracle is Node.js: one process per
batch reads ``{"cases": [{"p": pattern, "s": [text, ...]}], "timeout": ms}`` on stdin and answers, per case,
which grammar compiled the pattern (``"u"``; ``""`` when only the Annex B grammar, a regular expression without
flags, reads it; ``None`` when neither does) and ``RegExp.prototype.test`` for each text (``None`` when a
search ran past ``timeout``: V8 backtracks, so some patterns never finish on long texts). One repair: with the
u flag V8 also tries a match from the middle of a surrogate pair, which ECMA-262's AdvanceStringIndex never
reaches, so for a text holding an astral character the oracle walks the code-point positions itself.
"""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
from collections.abc import Iterator, Sequence
from pathlib import Path
from re import _constants as sre  # type: ignore[attr-defined]
from re import _parser as sre_parse  # type: ignore[attr-defined]
from typing import Any, NamedTuple

import yaml

NODE = shutil.which("node")
NO_NODE = "node (Node.js) is not installed: the ECMA-262 oracle is JavaScript's own RegExp"

_ORACLE_JS = r"""
const vm = require('vm');
const input = JSON.parse(require('fs').readFileSync(0, 'utf8'));
// RegExpBuiltinExec tries the positions that AdvanceStringIndex reaches: with the u flag, never the middle of
// a surrogate pair. V8 does try them (/\B/u finds one in 'a\u{1F600}_'), so for a text with a pair the
// positions are walked here, each with a sticky copy of the expression.
function test(re, sticky, s) {
  if (sticky === null || !/[\uD800-\uDBFF][\uDC00-\uDFFF]/.test(s)) return re.test(s);
  for (let i = 0; i <= s.length; i += (s.codePointAt(i) > 0xFFFF ? 2 : 1)) {
    sticky.lastIndex = i;
    if (sticky.test(s)) return true;
  }
  return false;
}
const context = vm.createContext({test});
const script = new vm.Script('test(re, sticky, s)');
const answers = input.cases.map(({p, s}) => {
  let re, sticky = null, flags;
  try { re = new RegExp(p, 'u'); sticky = new RegExp(p, 'uy'); flags = 'u'; } catch (u) {
    try { re = new RegExp(p); flags = ''; } catch (annexB) { return {flags: null, m: [], error: u.message}; }
  }
  const m = s.map((text) => {
    if (!input.timeout) return test(re, sticky, text);
    Object.assign(context, {re, sticky, s: text});
    try { return script.runInContext(context, {timeout: input.timeout}); } catch (e) { return null; }
  });
  return {flags, m, error: ''};
});
process.stdout.write(JSON.stringify(answers));
"""

# Characters where ECMA-262 and other dialects part ways: line terminators, Unicode spaces, a BOM, an Arabic
# digit, a non-ASCII letter, an astral character and a lone half of one, the Kelvin sign and a long s.
ODD = ("\n", "\r", "\u2028", "\u2029", "\u00a0", "\u3000", "\ufeff", "\u0663", "é", "\U0001f600", "\ud83d", "\t")
ODD += (" ", "_", "-", "/", "#", "?", ".", "@", ":", "\\", "K", "\u212a", "\u017f", "")
_CATEGORIES = {
    sre.CATEGORY_DIGIT: "0123456789",
    sre.CATEGORY_NOT_DIGIT: "a_ -",
    sre.CATEGORY_SPACE: " \t\n\u00a0\u3000\ufeff",
    sre.CATEGORY_NOT_SPACE: "ax9-",
    sre.CATEGORY_WORD: "aZ_9",
    sre.CATEGORY_NOT_WORD: " -é\n",
}


class Verdict(NamedTuple):
    flags: str | None
    matches: tuple[bool | None, ...]
    error: str


def javascript_verdicts(cases: Sequence[tuple[str, Sequence[str]]], timeout_ms: int = 0) -> list[Verdict]:
    """``new RegExp(p, 'u')`` (else ``new RegExp(p)``) and ``.test`` over each text, in one Node.js process."""
    assert NODE is not None, NO_NODE
    payload = json.dumps({"cases": [{"p": p, "s": list(s)} for p, s in cases], "timeout": timeout_ms})
    out = subprocess.run([NODE, "-e", _ORACLE_JS], input=payload, capture_output=True, text=True, check=True)
    return [Verdict(a["flags"], tuple(a["m"]), a["error"]) for a in json.loads(out.stdout)]


def corpus_patterns(folder: Path) -> dict[str, tuple[str, ...]]:
    """Every ``pattern`` keyword and ``patternProperties`` key in every spec, with the specs that hold it."""
    found: dict[str, set[str]] = {}
    for path in sorted(folder.iterdir()):
        if path.suffix == ".json":
            document = json.loads(path.read_text(encoding="utf-8"))
        elif path.suffix in (".yaml", ".yml"):
            document = yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
        else:
            continue
        for pattern in _patterns_in(document):
            found.setdefault(pattern, set()).add(path.name)
    return {p: tuple(sorted(specs)) for p, specs in found.items()}


def _patterns_in(document: Any) -> Iterator[str]:
    stack = [document]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if isinstance(node.get("pattern"), str):
                yield node["pattern"]
            if isinstance(node.get("patternProperties"), dict):
                yield from (k for k in node["patternProperties"] if isinstance(k, str))
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)


def near_strings(pattern: str, rnd: random.Random, count: int) -> list[str]:
    """``count`` strings the pattern (read as Python reads it) should match, each with a one-edit mutant."""
    samples = matching_samples(pattern, rnd, count)
    return [text for sample in samples for text in (sample, _mutant(sample, rnd))] + list(ODD)


def pumped_strings(pattern: str, rnd: random.Random, length: int) -> list[str]:
    """Long strings that make backtracking engines work: one accepted character (or a piece of a matching
    string) repeated to ``length``, then a character that makes the match fail."""
    samples = [s for s in matching_samples(pattern, rnd, 4) if s]
    chars = list(dict.fromkeys(c for s in samples for c in s))[:4] or ["a"]
    out = [c * length + end for c in chars for end in ("\n", "!")]
    for s in samples:
        for i in sorted({len(s) * k // 3 for k in range(3)}):
            out += [s[:i] + s[i] * (length - len(s)) + s[i + 1 :] + end for end in ("\n", "!")]
    return out


def matching_samples(pattern: str, rnd: random.Random, count: int) -> list[str]:
    """Strings built by walking Python's parse of the pattern (lookarounds and backreferences are skipped),
    or random strings of the pattern's own characters when Python cannot parse it."""
    try:
        tree = sre_parse.parse(pattern)
    except (re.error, OverflowError, RecursionError):
        letters = [c for c in pattern if c not in "\\^$()[]{}*+?|"] or ["a"]
        return ["".join(rnd.choice(letters) for _ in range(rnd.randint(0, 12))) for _ in range(count)]
    return ["".join(_walk(tree, rnd, [])) for _ in range(count)]


def _walk(tree: Any, rnd: random.Random, out: list[str]) -> list[str]:
    for op, av in tree:
        if op is sre.LITERAL:
            out.append(chr(av))
        elif op is sre.NOT_LITERAL:
            out.append(rnd.choice([c for c in "ab0 -" if ord(c) != av]))
        elif op is sre.ANY:
            out.append(rnd.choice("ab0 -.é"))
        elif op is sre.IN:
            out.append(_member(av, rnd))
        elif op is sre.BRANCH:
            _walk(rnd.choice(av[1]), rnd, out)
        elif op is sre.SUBPATTERN:
            _walk(av[3], rnd, out)
        elif op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT):
            low, high, body = av
            for _ in range(rnd.randint(low, min(high, low + 4))):
                _walk(body, rnd, out)
        elif op is sre.ATOMIC_GROUP:
            _walk(av, rnd, out)
    return out


def _member(items: Any, rnd: random.Random) -> str:
    if items and items[0][0] is sre.NEGATE:
        return rnd.choice("!~ \n\u00a0é0aZ")
    op, av = rnd.choice(items)
    if op is sre.LITERAL:
        return chr(av)
    if op is sre.RANGE:
        return chr(rnd.randint(av[0], min(av[1], av[0] + 300)))
    if op is sre.CATEGORY:
        return rnd.choice(_CATEGORIES.get(av, "a"))
    return "a"


def _mutant(text: str, rnd: random.Random) -> str:
    i, odd = rnd.randint(0, len(text)), rnd.choice(ODD)
    edits = (text[:i] + odd + text[i:], text[:i] + text[i + 1 :], text + "\n", text[: max(i - 1, 0)] + odd + text[i:])
    return rnd.choice(edits)


_ATOMS = ("a", "b", "-", "/", r"\.", r"\/", ".", r"\s", r"\S", r"\d", r"\D", r"\w", r"\W", "é", "😀", r"\u00e9")
_ATOMS += (r"\x41", r"\cJ", r"\u{1F600}", r"\n", r"\0", "[a-c]", r"[^a\s]", r"[\S]", r"[\w-]", "[^]", "[]", r"[\b]")
_ATOMS += (r"[\-a]", r"[^\d\u3000]", r"[\u2028-\u202f]", r"[😀-😂]", "[.$^]", r"\p{L}", r"\P{L}", r"\p{Lu}")
_ATOMS += (r"\p{Nd}", r"(a|é)\1", r"[\p{L}\d]")
_ASSERTIONS = ("^", "$", r"\b", r"\B", "(?=a)", "(?!b)", "(?<=a)", r"(?<!\s)")
_QUANTIFIERS = ("", "", "", "*", "+", "?", "{2}", "{1,3}", "*?", "{0,}", "+?")
_TEXT = "ab-/.\n \u00a0\u3000\u2028\u2029\ufeffé😀A_9\t\r\x08\x00"


def random_patterns(rnd: random.Random, count: int) -> list[tuple[str, list[str]]]:
    """Small patterns valid in the u grammar, built from the constructs where dialects part ways, each with
    random strings over the characters that tell them apart."""
    cases = []
    for _ in range(count):
        pattern = _alternatives(rnd, depth=0)
        texts = ["".join(rnd.choice(_TEXT) for _ in range(rnd.randint(0, 8))) for _ in range(20)]
        cases.append((pattern, texts))
    return cases


def _alternatives(rnd: random.Random, depth: int) -> str:
    return "|".join(_sequence(rnd, depth) for _ in range(rnd.choice((1, 1, 2, 3))))


def _sequence(rnd: random.Random, depth: int) -> str:
    items = []
    for _ in range(rnd.randint(1, 4)):
        roll = rnd.random()
        if roll < 0.15:
            items.append(rnd.choice(_ASSERTIONS))
        elif roll < 0.3 and depth < 2:
            opener = rnd.choice(("(", "(?:"))
            items.append(opener + _alternatives(rnd, depth + 1) + ")" + rnd.choice(_QUANTIFIERS))
        else:
            items.append(rnd.choice(_ATOMS) + rnd.choice(_QUANTIFIERS))
    return "".join(items)
