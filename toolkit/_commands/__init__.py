"""Shared parts of the CLI commands: the target options, JSON output, and progress on a terminal.

A *target* names where tools come from (see :mod:`toolkit._targets`): a spec file, ``file.py:function``,
``module:function`` or a module.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolkit._openapi._pin import stale_pin
from toolkit._targets import is_spec

if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["add_target_arguments", "plain_text", "progress", "stale_pin_notices", "write_json"]

_ROLE = re.compile(r":[a-z]+:`~?([^`]+)`")
_LITERAL = re.compile(r"``([^`]+)``")


def plain_text(doc: str | None) -> str:
    """A command's docstring as help text: reST roles, double backquotes and ``::`` markers removed."""
    text = _LITERAL.sub(r"\1", _ROLE.sub(r"\1", doc or ""))
    lines = []
    for line in text.splitlines():
        if line.strip() == "::":
            continue
        lines.append(re.sub(r"\s*::$", ":", line))
    return "\n".join(lines).strip() + "\n"


def add_target_arguments(parser: argparse.ArgumentParser) -> None:
    """The options every command that reads a target shares."""
    parser.add_argument("target", help="spec.yaml | file.py:function | module:function | module")
    parser.add_argument("--namespace", help="tool-name prefix (specs: default from the file name)")
    parser.add_argument("--op", metavar="ID", help="only this operationId, tool name or 'METHOD /path'")
    parser.add_argument("--overrides", metavar="FILE", help="side file of per-operation overrides (YAML)")
    parser.add_argument("--json", action="store_true", help="machine-readable JSON on stdout")


def write_json(console: Console, value: Any) -> None:
    """JSON on stdout, sorted and indented, never wrapped or highlighted."""
    console.file.write(json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False, default=str) + "\n")


@contextlib.contextmanager
def progress(console: Console, description: str, total: int | None) -> Iterator[Any]:
    """A rich progress bar on a terminal; a silent stand-in otherwise. Yields ``advance(n=1)``."""
    if not console.is_terminal:
        yield lambda n=1: None
        return
    # rich's progress machinery loads only on a terminal.
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn

    with Progress(
        SpinnerColumn(), TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), console=console,
        transient=True,
    ) as bar:  # fmt: skip
        task = bar.add_task(description, total=total)
        yield lambda n=1: bar.advance(task, n)


def stale_pin_notices(*targets: str) -> None:
    """A notice on stderr for each target that is a pinned spec changed since its pin (it is still read)."""
    for target in targets:
        if is_spec(target) and Path(target).is_file():
            stale = stale_pin(Path(target))
            if stale is not None:
                sys.stderr.write(f"notice: {stale.message}\n")
