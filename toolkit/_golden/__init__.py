"""Golden declaration files: the exact JSON each tool sends to the model, committed and checked.

    report = tk.golden.check(toolset, "golden")     # GoldenReport: missing, stale, orphaned, ok
    tk.golden.update(toolset, "golden")             # write what is missing or stale, atomically

``golden/<tool_name>.json`` holds :func:`toolkit._canonical.pretty` of ``tool.declaration``: sorted keys,
two-space indent, UTF-8, a trailing newline, no timestamps — the same bytes on every machine. Tools may pin
more dialects (``pins={name: ("openai", "mcp")}``, from ``golden.toml``'s ``dialects = [...]``):
``golden/<dialect>/<tool_name>.json`` holds the tool's ``payload(dialect).body`` the same way, reported as
``<dialect>/<tool_name>``; a pinned tool the dialect refuses fails the check (``refused``). A check fails
on any drift (a stale file carries the classified :class:`~toolkit._diff.DeclarationDiff` for review), on a
tool without a file (missing) and on a file without a tool (orphaned). Writes go to a temporary file in the
same folder and are renamed over the old one, so a crash leaves the old file or the new one, never half.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolkit._canonical import pretty
from toolkit._diff import DeclarationDiff, diff_declarations, worst
from toolkit._display import Displayable, displayed_by
from toolkit._display._reports import GOLDEN_REPORT_RENDERER
from toolkit._exceptions import GoldenError
from toolkit._golden._manifest import MANIFEST, Manifest, load_manifest, manifest_tools
from toolkit._lowering import DIALECTS
from toolkit._tool import Tool

__all__ = [
    "MANIFEST",
    "GoldenReport",
    "Manifest",
    "Stale",
    "UpdateResult",
    "check",
    "declarations",
    "golden_path",
    "load",
    "load_all",
    "load_dialects",
    "load_manifest",
    "manifest_tools",
    "update",
    "write_atomic",
]

SUFFIX = ".json"


@dataclass(frozen=True, slots=True)
class Stale:
    """A golden file that differs from the tool's declaration, with the classified diff (golden → now).

    ``diff`` is ``None`` when the file is not valid JSON; an empty diff means only the bytes differ
    (formatting), which still fails the check because golden files are compared byte for byte.
    """

    name: str
    diff: DeclarationDiff | None
    reason: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "reason": self.reason, "diff": None if self.diff is None else self.diff.to_dict()}


@displayed_by(GOLDEN_REPORT_RENDERER)
@dataclass(frozen=True, slots=True)
class GoldenReport(Displayable):
    """What :func:`check` found. ``passed`` is true only when nothing is missing, stale or orphaned."""

    missing: tuple[str, ...]
    stale: tuple[Stale, ...]
    orphaned: tuple[str, ...]
    ok: tuple[str, ...]
    directory: str = ""
    refused: tuple[str, ...] = ()
    """``<dialect>/<tool> [slug]: message`` for each pinned payload the dialect refuses."""

    @property
    def passed(self) -> bool:
        return not (self.missing or self.stale or self.orphaned or self.refused)

    @property
    def verdict(self) -> str:
        """The worst kind of change among the stale files (``"none"`` when there are none)."""

        return worst(s.diff.verdict if s.diff is not None else "breaking" for s in self.stale)

    def to_dict(self) -> dict[str, Any]:
        return {
            "directory": self.directory,
            "passed": self.passed,
            "missing": list(self.missing),
            "stale": [s.to_dict() for s in self.stale],
            "orphaned": list(self.orphaned),
            "refused": list(self.refused),
            "ok": list(self.ok),
        }

    def to_text(self, update_command: str = "toolkit golden update") -> str:
        """Plain text; a failed check ends with the command that accepts the changes (``update_command``, plus
        ``--prune`` when golden files are orphaned, since only a pruning update removes them)."""
        lines = [
            f"golden {'passed' if self.passed else 'FAILED'} ({self.directory}): {len(self.ok)} ok, "
            f"{len(self.missing)} missing, {len(self.stale)} stale, {len(self.orphaned)} orphaned"
        ]
        lines += [f"  missing   {name}  (no golden file yet)" for name in self.missing]
        for entry in self.stale:
            verdict = entry.diff.verdict if entry.diff is not None else "unreadable"
            lines.append(f"  stale     {entry.name}  ({verdict}{': ' + entry.reason if entry.reason else ''})")
            if entry.diff is not None:
                lines += [f"    {line}" for line in entry.diff.to_text().splitlines()[1:]]
        lines += [f"  orphaned  {name}  (golden file with no tool)" for name in self.orphaned]
        lines += [f"  refused   {entry}  (pinned, but the dialect cannot send it)" for entry in self.refused]
        if not self.passed:
            command = update_command + (" --prune" if self.orphaned else "")
            lines.append(f"review the changes, then run `{command}` to accept them")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return (
            f"<GoldenReport passed={self.passed} ok={len(self.ok)} missing={len(self.missing)} "
            f"stale={len(self.stale)} orphaned={len(self.orphaned)}>"
        )


@dataclass(frozen=True, slots=True)
class UpdateResult:
    """What :func:`update` wrote and removed (names), and what it left untouched."""

    written: tuple[str, ...]
    removed: tuple[str, ...]
    unchanged: tuple[str, ...]

    def to_dict(self) -> dict[str, list[str]]:
        return {"written": list(self.written), "removed": list(self.removed), "unchanged": list(self.unchanged)}


# -- reading -----------------------------------------------------------------------------------------------


def declarations(tools: Any) -> dict[str, dict[str, Any]]:
    """``{name: declaration}`` for a Tool, a declaration dict, a Toolset, or any iterable of those."""
    if _is_single(tools):
        tools = [tools]
    elif isinstance(tools, Mapping):
        tools = list(tools.values())  # {name: declaration}, as load() returns
    out: dict[str, dict[str, Any]] = {}
    for item in tools:
        if _is_single(item):
            declaration = dict(item.declaration if hasattr(item, "declaration") else item)
            out[str(declaration["name"])] = declaration
        else:
            out.update(declarations(item))  # a Toolset inside a list
    return out


def _is_single(item: Any) -> bool:
    return hasattr(item, "declaration") or (isinstance(item, Mapping) and isinstance(item.get("name"), str))


def golden_path(directory: str | os.PathLike[str], name: str) -> Path:
    """Where the golden file of tool ``name`` lives."""
    if not name or "/" in name or "\\" in name or name.startswith("."):
        raise GoldenError(f"tool name {name!r} cannot be a golden file name; rename the tool", slug="golden_name")
    return Path(directory) / f"{name}{SUFFIX}"


def load(directory: str | os.PathLike[str]) -> dict[str, dict[str, Any]]:
    """Every golden declaration in ``directory``, keyed by file stem (raises GoldenError on bad JSON)."""
    folder = Path(directory)
    if not folder.is_dir():
        raise GoldenError(f"golden folder {str(folder)!r} does not exist; run `toolkit golden update` first")
    out: dict[str, dict[str, Any]] = {}
    for path in sorted(folder.glob(f"*{SUFFIX}")):
        try:
            out[path.stem] = json.loads(path.read_text(encoding="utf-8"))
        except (ValueError, OSError) as error:
            raise GoldenError(f"{path} is not a readable JSON file ({error}); fix or delete it") from error
    return out


def load_dialects(directory: str | os.PathLike[str]) -> dict[str, dict[str, dict[str, Any]]]:
    """``{dialect: {tool: payload}}`` for every dialect folder in ``directory`` (``{}`` when none)."""
    folder = Path(directory)
    return {dialect: load(folder / dialect) for dialect in DIALECTS if (folder / dialect).is_dir()}


def load_all(directory: str | os.PathLike[str]) -> dict[str, dict[str, dict[str, Any]]]:
    """Every golden file of ``directory`` by dialect: ``gemini`` (the top level) and each dialect folder."""
    return {"gemini": load(directory), **load_dialects(directory)}


def _compare(name: str, declaration: Mapping[str, Any], path: Path, dialect: str) -> Stale | None:
    text = path.read_text(encoding="utf-8")
    if text == pretty(declaration):
        return None
    try:
        stored = json.loads(text)
    except ValueError as error:
        return Stale(name, None, f"not valid JSON: {error}")
    diff = diff_declarations(stored, declaration, dialect=dialect)
    return Stale(name, diff, "" if diff else "same declaration, different bytes (formatting)")


@dataclass(frozen=True, slots=True)
class _Expected:
    """What one golden file should hold: its path, the declaration, and its dialect."""

    path: Path
    declaration: Mapping[str, Any]
    dialect: str


def _expected(
    tools: Any, folder: Path, pins: Mapping[str, Sequence[str]] | None
) -> tuple[dict[str, _Expected], list[str]]:
    """Every golden file the tools should have, by report name, and the refused pins."""
    expected = {name: _Expected(golden_path(folder, name), d, "gemini") for name, d in declarations(tools).items()}
    refused: list[str] = []
    if not pins:
        return expected, refused
    found = {tool.name: tool for tool in _tools(tools)}
    for name, dialects in pins.items():
        if name not in found:
            raise GoldenError(f"dialects are pinned for {name!r}, but no tool of that name is under golden control")
        for dialect in dialects:
            item = found[name].payload(dialect)
            if item.refusal is not None:
                refused.append(f"{dialect}/{name} [{item.refusal.slug}]: {item.refusal.message}")
            elif item.body is not None:
                expected[f"{dialect}/{name}"] = _Expected(golden_path(folder / dialect, name), item.body, dialect)
    return expected, refused


def _tools(tools: Any) -> list[Tool]:
    if isinstance(tools, Tool):
        return [tools]
    if isinstance(tools, Mapping) or not isinstance(tools, Iterable):
        return []
    return [tool for item in tools for tool in _tools(item)]


def _present(folder: Path) -> dict[str, Path]:
    """Every golden file in ``folder`` and its dialect folders, by report name."""
    if not folder.is_dir():
        return {}
    found = {path.stem: path for path in sorted(folder.glob(f"*{SUFFIX}"))}
    for dialect in DIALECTS:
        found.update({f"{dialect}/{path.stem}": path for path in sorted((folder / dialect).glob(f"*{SUFFIX}"))})
    return found


def check(
    tools: Any, directory: str | os.PathLike[str], *, pins: Mapping[str, Sequence[str]] | None = None
) -> GoldenReport:
    """Compare each tool's declaration with ``directory/<name>.json`` (and each pinned dialect's payload with
    ``directory/<dialect>/<name>.json``), byte for byte."""
    folder = Path(directory)
    expected, refused = _expected(tools, folder, pins)
    missing: list[str] = []
    stale: list[Stale] = []
    ok: list[str] = []
    for name in sorted(expected):
        entry = expected[name]
        if not entry.path.is_file():
            missing.append(name)
        elif (found := _compare(name, entry.declaration, entry.path, entry.dialect)) is not None:
            stale.append(found)
        else:
            ok.append(name)
    orphaned = tuple(name for name in _present(folder) if name not in expected)
    return GoldenReport(tuple(missing), tuple(stale), orphaned, tuple(ok), str(folder), tuple(refused))


# -- writing -----------------------------------------------------------------------------------------------


def write_atomic(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` so that readers see the old file or the new one, never half.

    The bytes go to a temporary file in the same folder (same filesystem), are flushed to disk, and the
    temporary file is renamed over ``path`` with :func:`os.replace`; on any failure it is removed.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    mode = target.stat().st_mode & 0o777 if target.exists() else 0o644  # mkstemp would leave 0600
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        os.chmod(temporary, mode)
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, target)
    except BaseException as error:
        Path(temporary).unlink(missing_ok=True)
        if isinstance(error, OSError | ValueError):
            raise GoldenError(f"could not write {target}: {error}", slug="golden_write") from error
        raise


def update(
    tools: Any,
    directory: str | os.PathLike[str],
    *,
    prune: bool = False,
    pins: Mapping[str, Sequence[str]] | None = None,
) -> UpdateResult:
    """Write the golden file of every tool (and pinned dialect) that is missing or stale; with ``prune``,
    delete orphans. A pinned payload the dialect refuses is not written (``check`` keeps failing on it)."""
    folder = Path(directory)
    report = check(tools, folder, pins=pins)
    expected, _ = _expected(tools, folder, pins)
    written = tuple(sorted([*report.missing, *(s.name for s in report.stale)]))
    for name in written:
        write_atomic(expected[name].path, pretty(expected[name].declaration))
    removed = report.orphaned if prune else ()
    present = _present(folder)
    for name in removed:
        present[name].unlink()
    return UpdateResult(written=written, removed=removed, unchanged=report.ok)
