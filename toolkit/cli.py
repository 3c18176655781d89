"""The ``toolkit`` command line: thin edges over the public functions.

Each command lives in ``toolkit/_commands/<name>.py`` with ``add_parser(subparsers)`` and
``run(args, console) -> int``; rich and the demo's web stack load inside ``run``, so ``toolkit --help`` stays fast.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import Any

from toolkit import __version__
from toolkit._commands import demo, diff, fixtures, generate, golden, lower, reference
from toolkit._exceptions import ToolkitError

__all__ = ["COMMANDS", "EXIT_CODES", "build_parser", "main"]

COMMANDS: dict[str, ModuleType] = {
    "lower": lower,
    "fixtures": fixtures,
    "golden": golden,
    "diff": diff,
    "generate": generate,
    "demo": demo,
    "reference": reference,
}

EXIT_CODES = """exit codes:
  0  ok: nothing to report
  1  findings: a breaking diff, golden drift, fixtures that did not behave as expected
  2  usage error, or a toolkit error (the message says how to fix it; no traceback)"""


def build_parser() -> argparse.ArgumentParser:
    """The full parser, one sub-command per module in :data:`COMMANDS`."""
    parser = argparse.ArgumentParser(
        prog="toolkit",
        description="Author the tools LLM agents call: exact declarations, fixtures, golden files and diffs.",
        epilog=EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"toolkit {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for module in COMMANDS.values():
        module.add_parser(subparsers)
    return parser


def _consoles() -> tuple[Any, Any]:
    # rich loads when a command runs, so `toolkit --help` stays fast.
    from rich.console import Console

    return Console(highlight=False, soft_wrap=True), Console(stderr=True, highlight=False, soft_wrap=True)


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; returns the exit code (see :data:`EXIT_CODES`)."""

    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:  # --help, --version, or a usage error (argparse already said why)
        return exit_.code if isinstance(exit_.code, int) else 2
    console, errors = _consoles()
    try:
        return int(COMMANDS[args.command].run(args, console))
    except ToolkitError as error:
        # rich loads when a command runs, so `toolkit --help` stays fast.
        from rich.markup import escape

        errors.print(f"[bold red]error[/] {escape(f'[{error.slug}]')}: {escape(error.message)}")
        return 2
    except KeyboardInterrupt:
        errors.print("interrupted")
        return 130


if __name__ == "__main__":
    sys.exit(main())
