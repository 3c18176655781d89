"""A digest of everything ``from_openapi`` makes of every corpus spec: the oracle for a change that must not
change any output (a speed-up, a refactor).

For each spec of the shared corpus, built twice (``select="all"``, and every operation described through the
overrides), the SHA-256 of: every tool's declaration, ``args_schema``, losses (lowering and source), lints,
budget fit, effect, confirmation, binding, credentials, security, servers, form encoding and domain rules, and
every refusal (operation, slug, message), in the toolset's order. Two checkouts agree when every line agrees::

    .venv/bin/python benchmarks/corpus_digest.py > after.txt
    .venv/bin/python benchmarks/corpus_digest.py --pythonpath ../old-checkout > before.txt
    diff before.txt after.txt

``--show SPEC`` prints the canonical JSON a digest is taken of (per tool), to find what changed.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from profile_openapi import described  # every operation described, as the benchmarks build them

import toolkit as tk  # with --pythonpath, the run that builds has that checkout first on PYTHONPATH

HERE = Path(__file__).resolve().parent
CORPUS = HERE.parent.parent / "shared" / "corpus" / "openapi"


def _plain(value: Any) -> Any:
    """JSON-ready: dataclasses as dicts, tuples as lists, anything else as its repr."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return repr(value)


def records(toolset: Any) -> Iterator[dict[str, Any]]:
    """One record per tool, then one per refusal, in the toolset's order."""
    for tool in toolset.tools:
        contract = tool.contract
        yield {
            "name": tool.name,
            "declaration": tool.declaration,
            "args_schema": tool.args_schema,
            "losses": _plain(tool.losses),
            "source_losses": _plain(contract.source_losses),
            "lints": _plain(tool.lints),
            "budget_fit": _plain(tool.budget_fit),
            "bytes": tool.declaration_bytes,
            "effect": contract.effect,
            "confirm": contract.confirm,
            "binding": dict(contract.binding),
            "credentials": _plain(contract.credentials),
            "security": _plain(contract.security),
            "servers": list(contract.servers),
            "form": _plain(contract.form),
            "domain_rules": _plain(contract.domain_rules),
            "idempotency_key": contract.idempotency_key,
        }
    for rejection in toolset.rejected:
        yield {"rejected": rejection.to_dict()}


def digest(path: Path, overrides: Any) -> tuple[str, int, int]:
    try:
        toolset = tk.from_openapi(path, "digest", select="all", overrides=overrides)
    except tk.ToolkitError as error:  # a whole document refused is an outcome too
        return f"error:{error.slug}", 0, 0
    sha = hashlib.sha256()
    for record in records(toolset):
        sha.update(json.dumps(record, sort_keys=False, default=repr, ensure_ascii=False).encode())
        sha.update(b"\n")
    return sha.hexdigest()[:16], len(toolset.tools), len(toolset.rejected)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pythonpath", help="a checkout whose toolkit to digest (default: this one)")
    parser.add_argument("--only", nargs="*", default=None, help="spec names (file stems) to digest")
    parser.add_argument("--show", help="print the records of this spec (select='all') instead")
    args = parser.parse_args()
    if not CORPUS.is_dir():
        sys.exit(f"no corpus at {CORPUS}: the shared corpus is needed")
    checkout = str(Path(args.pythonpath).resolve()) if args.pythonpath else None
    if checkout is not None and os.environ.get("PYTHONPATH") != checkout:  # again, that checkout's toolkit first
        env = {**os.environ, "PYTHONPATH": checkout}
        sys.exit(subprocess.run([sys.executable, __file__, *sys.argv[1:]], env=env).returncode)
    if args.show:
        for record in records(tk.from_openapi(CORPUS / args.show, "digest", select="all")):
            print(json.dumps(record, default=repr, ensure_ascii=False))
        return
    for path in sorted(CORPUS.iterdir()):
        if path.suffix not in (".json", ".yaml", ".yml") or (args.only and path.stem not in args.only):
            continue
        for label, overrides in (("all", None), ("described", described(path))):
            sha, tools, rejected = digest(path, overrides)
            print(f"{path.stem:34} {label:9} {sha}  tools={tools} rejected={rejected}", flush=True)


if __name__ == "__main__":
    main()
