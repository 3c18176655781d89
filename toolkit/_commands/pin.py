"""``toolkit pin SPEC...``: record each spec's sha256 in its folder's lock file, after its change was reviewed.

    toolkit diff --git HEAD specs/orders.yaml    # review what the change does to the tools
    toolkit pin specs/orders.yaml                # accept it: specs/specs.lock.json records the new bytes
    toolkit golden update                        # and the golden files that follow from it

A pinned spec whose bytes changed is still read by ``lower``, ``diff`` and the other commands (with a notice),
but ``toolkit golden check`` fails until it is re-pinned. Pinning a spec the lock file does not list adds it.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolkit._commands import plain_text, write_json
from toolkit._exceptions import SpecError
from toolkit._openapi._pin import LOCK_NAME, pin, read_lock
from toolkit._targets import is_spec

if TYPE_CHECKING:
    from rich.console import Console


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "pin",
        help="re-pin reviewed spec files in their lock file",
        description=plain_text(__doc__),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("specs", nargs="+", metavar="SPEC", help="spec files (.yaml, .yml, .json) to pin")
    parser.add_argument("--json", action="store_true", help="machine-readable JSON on stdout")


def _checked(spec: str) -> Path:
    path = Path(spec)
    if not is_spec(spec) or not path.is_file():
        raise SpecError(f"no spec file at {spec!r}; pass the path of an OpenAPI .yaml/.json file", slug="not_found")
    return path


def run(args: argparse.Namespace, console: Console) -> int:
    folders: dict[Path, list[Path]] = {}
    for spec in dict.fromkeys(args.specs):
        path = _checked(spec)
        folders.setdefault(path.parent, []).append(path)
    records = []
    for folder, paths in folders.items():
        before = read_lock(folder)
        after = pin(*paths)
        for path in paths:
            was = before.get(path.name, {}).get("sha256") if isinstance(before.get(path.name), dict) else None
            now = after[path.name]["sha256"]
            state = "unchanged" if was == now else ("pinned" if was is None else "re-pinned")
            records.append(
                {"spec": str(path), "lock": str(folder / LOCK_NAME), "sha256": now, "was": was, "state": state}
            )
    if args.json:
        write_json(console, records)
        return 0
    for record in records:
        console.print(
            f"{record['state']:<9} {record['spec']}  sha256 {record['sha256']}  ({record['lock']})", markup=False
        )
    return 0
