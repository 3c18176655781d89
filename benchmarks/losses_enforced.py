"""Every loss of every tool, proved enforced: the function catalogue, the product's tools and the whole corpus.

    .venv/bin/python benchmarks/losses_enforced.py [--spec NAME ...] [--show 5]

For each :class:`~toolkit.Loss` (a loss inside a shared definition is proved once per spec),
``tests/loss_proofs.py`` looks for a value the oracle refuses with the keyword and accepts without it, and
checks the validator gives the same two answers. Prints, per source, how many losses were proved, named as
constraining nothing (annotation, vacuous, not a keyword) or left unproved (no witness found, or the validator
disagreeing), the time taken, and the unproved ones. Exits 1 when any loss is unproved.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from function_catalogue import CASES
from loss_proofs import Proof, prove

import toolkit as tk
from toolkit import Tool, _golden

HERE = Path(__file__).resolve().parent
CORPUS = HERE.parent.parent / "shared" / "corpus" / "openapi"
KINDS = ("proved", "annotation", "vacuous", "not_a_keyword", "no_witness", "disagrees")


def proofs(tools: Iterable[Tool]) -> list[Proof]:
    seen: set[tuple[str, ...]] = set()
    out: list[Proof] = []
    for tool in tools:
        for loss in tool.losses:
            key = (loss.path, loss.keyword) if loss.path.startswith("/$defs/") else (tool.name, loss.path, loss.keyword)
            if key not in seen:
                seen.add(key)
                out.append(prove(tool, loss))
    return out


def report(label: str, found: list[Proof], seconds: float, show: int) -> Counter[str]:
    counts = Counter(p.kind for p in found)
    print(f"{label:<36} {len(found):>6} " + " ".join(f"{counts[k]:>9}" for k in KINDS) + f" {seconds:>7.1f}")
    for proof in [p for p in found if p.kind in ("no_witness", "disagrees")][:show]:
        print(f"    {proof.kind}: {proof.tool} {proof.path} {proof.keyword} {proof.value!r:.60} {proof.detail}")
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spec", action="append", help="only these corpus specs (file names)")
    parser.add_argument("--show", type=int, default=5, help="unproved losses shown per source")
    args = parser.parse_args()
    print(f"{'source':<36} {'losses':>6} " + " ".join(f"{k:>9}" for k in KINDS) + f" {'seconds':>7}")
    total: Counter[str] = Counter()
    started = time.perf_counter()
    sources: list[tuple[str, object]] = []
    if not args.spec:
        sources.append(("function catalogue", lambda: [tk.from_function(c.fn, **c.options) for c in CASES]))
        sources.append(
            ("product tools (golden/)", lambda: _golden.manifest_tools(HERE.parent / "golden" / "golden.toml"))
        )
    names = args.spec or sorted(p.name for p in CORPUS.glob("*") if p.suffix in (".json", ".yaml"))
    for name in names:
        sources.append((name, lambda name=name: tk.from_openapi(CORPUS / name, "c", select="all").tools))
    for label, make in sources:
        start = time.perf_counter()
        found = proofs(make())  # type: ignore[operator]
        total += report(label, found, time.perf_counter() - start, args.show)
    print(f"{'all':<36} {sum(total.values()):>6} " + " ".join(f"{total[k]:>9}" for k in KINDS)
          + f" {time.perf_counter() - started:>7.1f}")  # fmt: skip
    sys.exit(1 if total["no_witness"] or total["disagrees"] else 0)


if __name__ == "__main__":
    main()
