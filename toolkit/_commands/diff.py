"""``toolkit diff OLD NEW``: every declaration change between two versions, classified for review.

Each side is a golden folder, an OpenAPI spec file, or one declaration ``.json`` file; ``--git REV`` makes
the OLD side the golden folder (or, given a spec file as NEW, that spec) at a git revision:

    toolkit diff old/openapi.yaml new/openapi.yaml --namespace orders
    toolkit diff --git main                      # golden/ at revision main vs golden/ in the working tree
    toolkit diff --git main --format markdown    # a pull-request comment
    toolkit diff --git main specs/orders.yaml    # the spec at revision main vs the working tree

Tools are matched by name (a removed + added tool with identical parameters is a rename). Every change has
a stable rule slug and a kind: breaking, behavioural or additive; the verdict is the worst kind.
Exit code 1 when the verdict is breaking (the change needs a versioning decision), 0 otherwise.
"""

from __future__ import annotations

import argparse
import json
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolkit import _golden
from toolkit._commands import progress, write_json
from toolkit._diff import VERDICT_ADVICE, SpecDiff, diff_declarations, spec_diff_of
from toolkit._exceptions import GoldenError, ToolkitError
from toolkit._openapi import from_openapi
from toolkit._targets import default_namespace, is_spec, load_spec
from toolkit._tool import Toolset

if TYPE_CHECKING:
    from rich.console import Console

    from toolkit._diff import DeclarationDiff, SpecDiff
    from toolkit._tool import Toolset

_STYLE = {"breaking": "bold red", "behavioural": "yellow", "additive": "green", "none": "green"}


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "diff",
        help="classify declaration changes between two versions",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("sides", nargs="*", metavar="SIDE", help="OLD NEW (with --git: at most NEW)")
    parser.add_argument("--git", metavar="REV", help="OLD is the golden folder (or the NEW spec) at this revision")
    parser.add_argument("--dir", default="golden", help="golden folder for --git (default: golden)")
    parser.add_argument("--namespace", help="tool-name prefix for spec sides (default: from the OLD file name)")
    parser.add_argument("--all", action="store_true", help="spec sides: every operation, not only opted-in ones")
    parser.add_argument("--format", choices=("text", "markdown", "json"), default="text")
    parser.add_argument("--json", action="store_true", help="same as --format json")


# -- sides -------------------------------------------------------------------------------------------------


def _git_folder(revision: str, folder: str) -> dict[str, dict[str, Any]]:
    """The golden declarations in ``folder`` at ``revision`` (read with ``git show``; nothing is checked out).

    A folder that did not exist at ``revision`` is empty (every tool is then new); a bad revision is an error.
    """
    _git("rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}")
    prefix = folder.rstrip("/") + "/"
    listing = _git("ls-tree", "--name-only", revision, "--", prefix)
    out: dict[str, dict[str, Any]] = {}
    for path in sorted(listing.splitlines()):
        name = path.rsplit("/", 1)[-1]
        if name.endswith(".json"):
            out[name[: -len(".json")]] = json.loads(_git("show", f"{revision}:./{prefix}{name}"))
    return out


def _git_spec(revision: str, path: str, namespace: str, select: str) -> Toolset:
    """The toolset of spec file ``path`` as it was at ``revision``."""

    _git("rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}")
    text = _git("show", f"{revision}:./{Path(path).as_posix()}")
    return from_openapi(text, namespace, select=select)


def _git(*arguments: str) -> str:
    try:
        done = subprocess.run(["git", *arguments], capture_output=True, text=True, check=False)
    except OSError as error:
        raise ToolkitError(f"cannot run git ({error}); install git or compare two folders instead") from error
    if done.returncode != 0:
        reason = done.stderr.strip() or "no such revision"
        raise ToolkitError(f"git {' '.join(arguments)} failed: {reason}; check the revision name", slug="git_failed")
    return done.stdout


def _json_declaration(path: Path) -> dict[str, Any] | None:
    """A single declaration file (``{"name": ..., ...}``), or None when the JSON is something else (a spec)."""
    if path.suffix.lower() != ".json" or path.stat().st_size > 1_000_000:
        return None
    value = json.loads(path.read_text(encoding="utf-8"))
    is_declaration = isinstance(value, dict) and "name" in value and not {"openapi", "swagger", "paths"} & set(value)
    return value if is_declaration else None


def _side(text: str, namespace: str, select: str) -> Toolset | dict[str, dict[str, Any]]:

    path = Path(text)
    if path.is_dir():
        return _golden.load(path)
    if not path.is_file():
        raise ToolkitError(f"{text!r} is neither a folder nor a file; pass a golden folder or a spec file")
    declaration = _json_declaration(path)
    if declaration is not None:
        return {declaration["name"]: declaration}
    if not is_spec(text):
        raise ToolkitError(f"{text!r} is not a spec (.yaml, .yml or .json) or a golden folder")
    return load_spec(text, namespace, select=select)


def _sides(args: argparse.Namespace) -> tuple[str, str]:
    """Labels of the two sides, checked against the usage rules."""
    if args.git:
        if len(args.sides) > 1:
            raise ToolkitError("with --git REV give at most one side (the NEW one; default: the golden folder)")
        return f"git:{args.git}", (args.sides[0] if args.sides else args.dir)
    if len(args.sides) != 2:
        raise ToolkitError("give two sides, OLD and NEW (golden folders or spec files), or use --git REV")
    return args.sides[0], args.sides[1]


def compare(args: argparse.Namespace, console: Console) -> DeclarationDiff | SpecDiff:
    """Build both sides and diff them (a SpecDiff when both are specs)."""

    old_label, new_label = _sides(args)
    namespace = args.namespace or default_namespace(args.sides[0] if args.sides else args.dir)
    select = "all" if args.all else "extension"
    with progress(console, "comparing", 3) as advance:
        if args.git and is_spec(new_label) and Path(new_label).is_file():
            old: Toolset | dict[str, dict[str, Any]] = _git_spec(args.git, new_label, namespace, select)
        else:
            old = _git_folder(args.git, args.dir) if args.git else _side(old_label, namespace, select)
        advance()
        new = _side(new_label, namespace, select)
        advance()
        if isinstance(old, Toolset) and isinstance(new, Toolset):
            result: DeclarationDiff | SpecDiff = spec_diff_of(old, new)
        else:
            result = diff_declarations(old, new)
        advance()
    return result


# -- output ------------------------------------------------------------------------------------------------


def _render(console: Console, result: DeclarationDiff | SpecDiff) -> None:
    # rich loads when a command runs, so `toolkit --help` stays fast.
    from rich.markup import escape

    diff = result.diff if isinstance(result, SpecDiff) else result
    console.print(f"verdict: {diff.verdict}", style=_STYLE[diff.verdict], markup=False)
    console.print(VERDICT_ADVICE[diff.verdict], markup=False)
    if isinstance(result, SpecDiff):
        for line in result._header():
            console.print(line, markup=False)
        for rejection in result.newly_rejected:
            text = (
                f"  newly rejected {rejection.operation_id or rejection.path} ({rejection.slug}): {rejection.message}"
            )
            console.print(text, markup=False)
    width = max((len(c.rule) for c in diff.changes), default=0)
    for name, per_tool in diff.by_tool().items():
        console.print()
        console.print(f"[bold]{escape(name)}[/]  [{_STYLE[per_tool.verdict]}]{per_tool.verdict}[/]")
        for c in per_tool.changes:
            kind = f"[{_STYLE[c.kind]}]{c.kind:<11}[/]"
            where = f" {escape(c.path)}:" if c.path else ""
            console.print(f"  {kind} {c.rule:<{width}}{where} {escape(c.summary)}")


def run(args: argparse.Namespace, console: Console) -> int:
    try:
        result = compare(args, console)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise GoldenError(f"a side is not readable JSON: {error}") from error
    output = "json" if args.json else args.format
    if output == "json":
        write_json(console, result.to_dict())
    elif output == "markdown":
        text = result.to_markdown()
        console.file.write(text if text.endswith("\n") else text + "\n")
    else:
        _render(console, result)
    return 1 if result.verdict == "breaking" else 0
