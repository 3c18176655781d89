"""Every corpus tool in every dialect: accepted by the provider SDK's types (and rules) or refused with a slug.

    .venv/bin/python benchmarks/corpus_dialects.py [--top 8] [--spec github-3.0.json]

For each spec of ``../shared/corpus/openapi`` (``select="all"``), each tool's ``tool.payload(dialect)`` in
every dialect, then per dialect: tools accepted, refused (by slug), payloads the SDK types or the documented
rules find fault with (must be 0; the first few are printed), OpenAI's strict / non-strict split, bytes, time,
and the most common losses (keyword and reason). The checks are ``tests/provider_rules.py``, the same oracles
the test suite runs on a bounded sample.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from provider_rules import problems

import toolkit as tk
from toolkit._lowering import DIALECTS

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus" / "openapi"


def _reason(reason: str) -> str:
    """A loss reason without the values it names, so equal reasons count together."""
    return reason.split(": null is a value here")[0].split(" format '")[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--top", type=int, default=8, help="losses to show per dialect")
    parser.add_argument("--spec", action="append", help="only these spec files (repeatable)")
    args = parser.parse_args()
    specs = [CORPUS / name for name in args.spec] if args.spec else sorted(CORPUS.glob("*"))
    tools = []
    for spec in specs:
        if spec.suffix in (".json", ".yaml"):
            tools += tk.from_openapi(spec, "corpus", select="all").tools
    print(f"{len(tools)} tools from {len(specs)} files")
    for dialect in DIALECTS:
        accepted = 0
        refused: Counter[str] = Counter()
        faults: list[str] = []
        losses: Counter[tuple[str, str]] = Counter()
        with_losses = strict = size = 0
        lowering = checking = 0.0
        for tool in tools:
            start = time.perf_counter()
            payload = tk.payloads(tool, dialect).payloads[0]
            lowering += time.perf_counter() - start
            if payload.refusal is not None:
                refused[payload.refusal.slug] += 1
                continue
            accepted += 1
            size += payload.size
            strict += bool(payload.strict)
            with_losses += bool(payload.losses)
            losses.update((loss.keyword, _reason(loss.reason)) for loss in payload.losses)
            start = time.perf_counter()
            found = problems(dialect, payload.body or {})
            checking += time.perf_counter() - start
            if found:
                faults.append(f"{tool.name}: {found[:3]}")
        print(f"\n== {dialect}: {accepted} accepted, {sum(refused.values())} refused {dict(refused) or ''}")
        print(f"   SDK types / documented rules: {len(faults)} payloads with faults")
        for fault in faults[:5]:
            print(f"     {fault}")
        if DIALECTS[dialect].provider == "openai":
            print(f"   strict: {strict} true, {accepted - strict} false")
        print(f"   {with_losses} tools with losses; {sum(losses.values())} losses; {size / 1e6:.1f} MB of payloads")
        print(f"   lowering {lowering:.1f}s, checking {checking:.1f}s")
        for (keyword, reason), count in losses.most_common(args.top):
            print(f"   {count:7}  {keyword:22} {reason}")


if __name__ == "__main__":
    main()
