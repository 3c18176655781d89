"""Survey: lint findings per code per source, over the function catalogue, the product tools and the corpus.

Sources: every case of ``tests/function_catalogue.py``, every tool of ``golden/golden.toml``, and every tool of
every spec in the shared corpus (``select="all"``). Prints one line per lint code with its total and the count
per source; ``--show CODE`` also prints each distinct finding of that code (source, path, fix, description),
which is how the word lints were read for precision.

    .venv/bin/python benchmarks/lint_survey.py [--show TK802] [--limit 40]
"""

from __future__ import annotations

import argparse
import collections
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
CORPUS = ROOT.parent.parent / "shared" / "corpus" / "openapi"


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--show", action="append", default=[], help="print the distinct findings of this code")
    parser.add_argument("--limit", type=int, default=10_000, help="at most this many findings per shown code")
    args = parser.parse_args()
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
