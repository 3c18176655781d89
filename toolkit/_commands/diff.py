"""``toolkit diff OLD NEW``: every declaration change between two versions, classified for review.

Each side is a golden folder, an OpenAPI spec file, one declaration ``.json`` file, or a function
(``file.py:function`` or ``module:function``). Given one function alone, OLD is its golden file in ``--dir``;
``--git REV`` makes the OLD side the golden folder (or, given a spec file as NEW, that spec) at a git revision:

    toolkit diff old/openapi.yaml new/openapi.yaml --namespace orders
    toolkit diff v1/tools.py:search v2/tools.py:search    # two versions of one function
    toolkit diff tools.py:search                          # the function against golden/<its tool name>.json
    toolkit diff --git main                      # golden/ at revision main vs golden/ in the working tree
    toolkit diff --git main --format markdown    # a pull-request comment
    toolkit diff --git main specs/orders.yaml    # the spec at revision main vs the working tree
    toolkit diff old.yaml new.yaml --dialect openai   # spec sides: also compare OpenAI's payloads

Tools are matched by name (a removed + added tool with identical parameters is a rename). Every change has
a stable rule slug and a kind: breaking, behavioural or additive; the verdict is the worst kind. Golden
folders are compared dialect by dialect (their ``<dialect>/`` folders too); each change names its dialect.
Exit code 1 when the verdict is breaking (the change needs a versioning decision), 0 otherwise.
"""

from __future__ import annotations

import argparse
import json
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolkit import _golden
from toolkit._commands import plain_text, progress, stale_pin_notices, write_json
from toolkit._diff import VERDICT_ADVICE, SpecDiff, diff_declarations, diff_dialects, spec_diff_of
from toolkit._exceptions import GitError, GoldenError, UsageError
from toolkit._lowering import DIALECTS
from toolkit._openapi import from_openapi
from toolkit._targets import default_namespace, is_spec, is_tool_target, load_spec, load_tools
from toolkit._tool import Tool, Toolset

if TYPE_CHECKING:
    from rich.console import Console

    from toolkit._diff import DeclarationDiff, SpecDiff
    from toolkit._tool import Toolset

_STYLE = {"breaking": "bold red", "behavioural": "yellow", "additive": "green", "none": "green"}


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "diff",
        help="classify declaration changes between two versions",
        description=plain_text(__doc__),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("sides", nargs="*", metavar="SIDE", help="OLD NEW (with --git: at most NEW)")
    parser.add_argument("--git", metavar="REV", help="OLD is the golden folder (or the NEW spec) at this revision")
    parser.add_argument("--dir", default="golden", help="golden folder for --git (default: golden)")
    parser.add_argument("--namespace", help="tool-name prefix for spec sides (default: from the OLD file name)")
    parser.add_argument("--all", action="store_true", help="spec sides: every operation, not only opted-in ones")
    parser.add_argument(
        "--dialect", action="append", choices=list(DIALECTS), default=[], help="spec sides: also diff this dialect"
    )
    parser.add_argument(
        "--format",
        choices=("text", "markdown", "json"),
        default="text",
        help="text (default), markdown (a pull-request comment) or json",
    )
    parser.add_argument("--json", action="store_true", help="same as --format json")


# -- sides -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Folder:
    """A golden folder side: its files by dialect (``gemini``: the top level)."""

    by_dialect: dict[str, dict[str, dict[str, Any]]]


def _git_folders(revision: str, folder: str) -> _Folder:
    """The golden files in ``folder`` at ``revision``, by dialect."""
    found = {"gemini": _git_folder(revision, folder)}
    for dialect in DIALECTS:
        if dialect != "gemini" and (payloads := _git_folder(revision, f"{folder.rstrip('/')}/{dialect}")):
            found[dialect] = payloads
    return _Folder(found)


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
    return from_openapi(git_show(revision, path), namespace, select=select)


def git_show(revision: str, path: str) -> str:
    """The text of file ``path`` (relative to the working folder) at ``revision``; nothing is checked out."""
    _git("rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}")
    return _git("show", f"{revision}:./{Path(path).as_posix()}")


def _git(*arguments: str) -> str:
    try:
        done = subprocess.run(["git", *arguments], capture_output=True, text=True, check=False)
    except OSError as error:
        raise GitError(f"cannot run git ({error}); install git or compare two folders instead") from error
    if done.returncode != 0:
        reason = done.stderr.strip() or "no such revision"
        raise GitError(f"git {' '.join(arguments)} failed: {reason}; check the revision name")
    return done.stdout


def _json_declaration(path: Path) -> dict[str, Any] | None:
    """A single declaration file (``{"name": ..., ...}``), or None when the JSON is something else (a spec)."""
    if path.suffix.lower() != ".json" or path.stat().st_size > 1_000_000:
        return None
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError):
        return None  # the spec loader says where the JSON breaks
    named = isinstance(value, dict) and isinstance(value.get("name"), str)
    return value if named and not {"openapi", "swagger", "paths"} & set(value) else None


_Side = Toolset | Tool | list[Tool] | dict[str, Any] | _Folder
"""A spec's toolset, one tool or declaration, a collection (tools, or ``{name: declaration}``), or a golden
folder with its dialect folders."""


def _tools_side(target: str, namespace: str | None) -> Tool | list[Tool]:
    tools = load_tools(target, namespace=namespace)
    return tools[0] if len(tools) == 1 else tools


def _side(text: str, args: argparse.Namespace, namespace: str, select: str) -> _Side:
    path = Path(text)
    if path.is_dir():
        return _Folder(_golden.load_all(path))
    if is_tool_target(text):
        return _tools_side(text, args.namespace)
    if is_spec(text):
        declaration = _json_declaration(path) if path.is_file() else None
        return declaration if declaration is not None else load_spec(text, namespace, select=select)
    what = "is neither a folder nor a file" if not path.exists() else "is not a spec (.yaml, .yml or .json)"
    raise UsageError(f"{text!r} {what}; pass a golden folder, a spec, a declaration .json or file.py:function")


def _golden_of(new: _Side, stored: dict[str, dict[str, Any]], where: str, target: str) -> _Side:
    """The golden declarations of ``new``'s tools among ``stored``: one declaration for one tool (a missing one
    is an error in a folder, and a new tool at a git revision). Other sides compare with the whole folder."""
    if not isinstance(new, Tool | list):
        return stored
    if isinstance(new, Tool):
        if new.name not in stored:
            raise GoldenError(
                f"{where} has no golden file for tool {new.name!r}; write it with "
                f"`toolkit golden update {target} --dir {where}`, or pass OLD explicitly"
            )
        return stored[new.name]
    return {tool.name: stored[tool.name] for tool in new if tool.name in stored}


def _sides(args: argparse.Namespace) -> tuple[str, str]:
    """Labels of the two sides, checked against the usage rules."""
    if args.git:
        if len(args.sides) > 1:
            raise UsageError("with --git REV give at most one side (the NEW one; default: the golden folder)")
        return f"git:{args.git}", (args.sides[0] if args.sides else args.dir)
    if len(args.sides) == 1 and is_tool_target(args.sides[0]):
        return f"golden:{args.dir}", args.sides[0]
    if len(args.sides) != 2:
        raise UsageError(
            "give two sides, OLD and NEW (golden folders, specs, declaration files or file.py:function), "
            "one function to compare with its golden file, or use --git REV"
        )
    return args.sides[0], args.sides[1]


def _old_side(args: argparse.Namespace, old_label: str, new_label: str, new: _Side, select: str) -> _Side:
    namespace = args.namespace or default_namespace(new_label if args.git or not args.sides else args.sides[0])
    if args.git and is_spec(new_label) and Path(new_label).is_file():
        return _git_spec(args.git, new_label, namespace, select)
    if args.git and isinstance(new, _Folder):
        return _git_folders(args.git, args.dir)
    if args.git:
        folder = _git_folder(args.git, args.dir)
        if isinstance(new, Tool) and new.name not in folder:
            return {}  # the tool is new since that revision
        return _golden_of(new, folder, f"{args.dir} at {args.git}", new_label)
    if old_label.startswith("golden:"):
        if not Path(args.dir).is_dir():
            raise GoldenError(
                f"golden folder {args.dir!r} does not exist; write it with "
                f"`toolkit golden update {new_label} --dir {args.dir}`, or pass OLD explicitly"
            )
        return _golden_of(new, _golden.load(args.dir), args.dir, new_label)
    return _side(old_label, args, namespace, select)


def compare(args: argparse.Namespace, console: Console) -> DeclarationDiff | SpecDiff:
    """Build both sides and diff them (a SpecDiff when both are specs). Two given sides are read OLD first;
    a golden or git OLD side is read after NEW, since it holds NEW's tools."""

    old_label, new_label = _sides(args)
    stale_pin_notices(*dict.fromkeys((old_label, new_label)))
    namespace = args.namespace or default_namespace(args.sides[0] if args.sides else args.dir)
    select = "all" if args.all else "extension"
    with progress(console, "comparing", 3) as advance:
        if len(args.sides) == 2:
            old = _side(old_label, args, namespace, select)
            new = _side(new_label, args, namespace, select)
        else:
            new = _side(new_label, args, namespace, select)
            old = _old_side(args, old_label, new_label, new, select)
        advance(2)
        if isinstance(old, Toolset) and isinstance(new, Toolset):
            result: DeclarationDiff | SpecDiff = spec_diff_of(old, new, args.dialect)
        elif isinstance(old, _Folder) and isinstance(new, _Folder):
            result = diff_dialects(old.by_dialect, new.by_dialect)
        else:
            result = diff_declarations(_gemini(old), _gemini(new))
        advance()
    return result


def _gemini(side: _Side) -> Any:
    """A side as ``gemini`` declarations (a golden folder's top level) for the single-dialect diff."""
    return side.by_dialect["gemini"] if isinstance(side, _Folder) else side


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
    grouped = [
        (name if dialect == "gemini" else f"{name} [{dialect}]", per_tool)
        for dialect, per_dialect in diff.by_dialect().items()
        for name, per_tool in per_dialect.by_tool().items()
    ]
    for name, per_tool in grouped:
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
