"""``toolkit generate SPEC --out DIR``: write the generated tool package for a spec's opted-in operations.

    toolkit generate specs/orders.yaml --out golden/generated            # -> golden/generated/orders_tools/
    toolkit generate api.yaml --out build --namespace shop --package shop_tools
    toolkit generate specs/orders.yaml --out golden/generated --check    # exit 1 if the package is stale
    toolkit generate specs/orders.yaml --out build --trim trim.yaml      # keep_fields / max_items / max_bytes

One module per tool plus its declaration and contract as JSON resources; the output is byte-identical on
regeneration, so the package can be committed and reviewed like code. The spec path it records is relative to
the working folder (the file name alone for a spec outside it), so the output is the same on every machine.
"""

from __future__ import annotations

import argparse
import contextlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolkit._codegen import generate, load_trim, stale_files, write_package
from toolkit._commands import plain_text, stale_pin_notices
from toolkit._diff._text import plural
from toolkit._exceptions import UsageError
from toolkit._targets import default_namespace, is_spec, load_spec

if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["add_parser", "run"]


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "generate",
        help="write generated tool modules for a spec",
        description=plain_text(__doc__),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("spec", help="OpenAPI spec file (.yaml/.json) with x-agent-tool opt-ins")
    parser.add_argument("--out", required=True, help="folder that receives the package folder")
    parser.add_argument("--namespace", help="tool-name prefix (default: from the file name)")
    parser.add_argument("--package", help="Python package name (default: <namespace>_tools)")
    parser.add_argument("--overrides", metavar="FILE", help="side file of per-operation overrides (YAML)")
    parser.add_argument(
        "--trim", metavar="FILE", help="YAML: tool name -> {keep_fields: [...], max_items: N, max_bytes: N}"
    )
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if the package is stale")


def _display_path(spec: str) -> str:
    """The spec path recorded in the header: relative to the working folder when inside it (POSIX slashes);
    an absolute path outside it is reduced to the file name by :func:`toolkit.generate`."""
    path = Path(spec)
    if path.is_absolute():
        with contextlib.suppress(ValueError):
            return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    return path.as_posix()


def run(args: argparse.Namespace, console: Console) -> int:
    if not is_spec(args.spec):
        raise UsageError(
            f"generate reads an OpenAPI spec (.yaml, .yml or .json), not {args.spec!r}: generated modules call "
            "HTTP operations; for a Python function, import the function itself"
        )
    trim = load_trim(args.trim) if args.trim else None
    stale_pin_notices(args.spec)
    toolset = load_spec(args.spec, args.namespace or default_namespace(args.spec), overrides=args.overrides)
    files = generate(toolset, package=args.package, source_path=_display_path(args.spec), trim=trim)
    out = Path(args.out)
    package = next(iter(files)).split("/", 1)[0]
    modules = sorted(rel for rel in files if rel.endswith(".py") and not rel.endswith("__init__.py"))
    if args.check:
        stale = stale_files(out, files)
        for rel in stale:
            console.print(f"[red]stale[/red] {rel}")
        console.print(f"{out / package}: {'up to date' if not stale else plural(len(stale), 'file') + ' stale'}")
        return 1 if stale else 0
    changed = write_package(out, files)
    console.print(
        f"[bold]{out / package}[/bold]: {plural(len(modules), 'tool module')}, {plural(len(changed), 'file')} changed"
    )
    for rel in modules:
        console.print(f"  {rel}")
    return 0
