"""Survey: lint findings per code per source, over the function catalogue, the product tools and the corpus.

Sources: every case of ``tests/function_catalogue.py``, every tool of ``golden/golden.toml``, and every tool of
every spec in the shared corpus (``select="all"``). Prints one line per lint code with its total and the count
per source; ``--show CODE`` also prints each distinct finding of that code (source, path, fix, description),
which is how the word lints were read for precision.

``--sample`` scores the prose lints (TK801–TK810) on the labelled sample ``tests/lints/prose_sample.json``
(descriptions with their schemas, from the corpus and the notebooks, each with the codes a careful reader says
should fire): per code, true and false positives, misses, precision and recall, and every item where the lints
and the labels differ. ``tests/lints/test_prose_sample.py`` holds the lints to the labels.

    .venv/bin/python benchmarks/lint_survey.py [--show TK802] [--limit 40] [--sample]
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
CORPUS = ROOT.parent.parent / "shared" / "corpus" / "openapi"
SAMPLE = ROOT / "tests" / "lints" / "prose_sample.json"
PROSE_CODES = frozenset(f"TK8{n:02d}" for n in range(1, 11))
"""The rules that read a description against its schema: the codes the sample is labelled with."""


def sources() -> Iterator[tuple[str, list[Any]]]:
    import toolkit as tk
    from toolkit._golden._manifest import manifest_tools

    sys.path.insert(0, str(ROOT / "tests"))
    from function_catalogue import CASES  # the catalogue lives beside the tests

    yield "catalogue", [tk.from_function(case.fn, **case.options) for case in CASES]
    yield "product", manifest_tools(ROOT / "golden" / "golden.toml")
    for spec in sorted(CORPUS.glob("*")) if CORPUS.is_dir() else ():
        if spec.suffix in (".json", ".yaml"):
            yield spec.name, list(tk.from_openapi(spec, namespace="survey", select="all").tools)


def descriptions(tool: Any) -> dict[str, str]:
    from toolkit._lints._subject import walk
    from toolkit._schema import Refs

    schema = tool.contract.args_schema
    return {field.path: field.description for field in walk(Refs(schema), schema, "", 1)}


def sample_findings(path: Path = SAMPLE) -> list[tuple[dict[str, Any], set[str]]]:
    """Each labelled item of the sample with the prose codes the lints find on it (its field alone in a tool)."""
    from toolkit import ToolContract
    from toolkit._tool import build_tool  # a tool from a hand-written JSON Schema

    found = []
    for item in json.loads(path.read_text(encoding="utf-8"))["items"]:
        schema = {"type": "object", "properties": {item["name"]: item["schema"]}, "additionalProperties": False}
        tool = build_tool(ToolContract(name="sample", description="Run the sampled operation.", args_schema=schema))
        found.append((item, {lint.code for lint in tool.lints if lint.code in PROSE_CODES}))
    return found


def score(found: list[tuple[dict[str, Any], set[str]]]) -> dict[str, collections.Counter[str]]:
    """Per code: ``tp`` (found and labelled), ``fp`` (found, not labelled), ``fn`` (labelled, not found)."""
    counts: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for item, codes in found:
        expected = set(item["expected"])
        for code in codes | expected:
            counts[code]["tp" if code in codes and code in expected else "fp" if code in codes else "fn"] += 1
    return counts


def print_sample() -> None:
    found = sample_findings()
    counts = score(found)
    print(f"labelled sample: {len(found)} items, {sum(1 for item, _ in found if not item['expected'])} with no lint")
    total: collections.Counter[str] = collections.Counter()
    for code in sorted(counts):
        total.update(counts[code])
        print(f"{code}  {_rates(counts[code])}")
    print(f"all    {_rates(total)}")
    for item, codes in found:
        if codes != set(item["expected"]):
            print(f"- {item['id']}: found {sorted(codes)}, labelled {item['expected']} ({item['source']})")


def _rates(c: collections.Counter[str]) -> str:
    precision = c["tp"] / (c["tp"] + c["fp"]) if c["tp"] + c["fp"] else 1.0
    recall = c["tp"] / (c["tp"] + c["fn"]) if c["tp"] + c["fn"] else 1.0
    return f"tp {c['tp']:3}  fp {c['fp']:3}  fn {c['fn']:3}  precision {precision:.3f}  recall {recall:.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--show", action="append", default=[], help="print the distinct findings of this code")
    parser.add_argument("--limit", type=int, default=10_000, help="at most this many findings per shown code")
    parser.add_argument("--sample", action="store_true", help="score the prose lints on the labelled sample only")
    args = parser.parse_args()
    if args.sample:
        print_sample()
        return
    counts: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    shown: dict[str, dict[tuple[str, str, str], str]] = collections.defaultdict(dict)
    for name, tools in sources():
        for tool in tools:
            texts = descriptions(tool) if any(item.code in args.show for item in tool.lints) else {}
            for item in tool.lints:
                counts[item.code][name] += 1
                if item.code in args.show:
                    text = texts.get(item.path, "")
                    shown[item.code].setdefault((name, text, item.fix), item.path)
    for code in sorted(counts):
        per_source = ", ".join(f"{source} {n}" for source, n in sorted(counts[code].items()))
        print(f"{code}  {sum(counts[code].values()):5}  {per_source}")
    for code in args.show:
        print(f"\n{code}: {len(shown[code])} distinct findings")
        for (source, text, fix), path in list(shown[code].items())[: args.limit]:
            print(f"- {source} {path}: {fix}\n    {' '.join(text.split())[:300]!r}")


if __name__ == "__main__":
    main()
