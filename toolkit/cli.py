"""The ``toolkit`` command line: thin edges over the public functions.

Each command lives in ``toolkit/_commands/<name>.py`` with ``add_parser(subparsers)`` and
``run(args, console) -> int``; rich and the demo's web stack load inside ``run``, so ``toolkit --help`` stays fast.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import Any, NoReturn

from toolkit import __version__
from toolkit._commands import demo, diff, fixtures, generate, golden, lower, pin, reference, serve
from toolkit._commands import eval as evaluation
from toolkit._exceptions import ToolkitError

__all__ = ["COMMANDS", "EXIT_CODES", "build_parser", "main"]

COMMANDS: dict[str, ModuleType] = {
    "lower": lower,
    "fixtures": fixtures,
    "golden": golden,
    "diff": diff,
    "eval": evaluation,
    "generate": generate,
    "pin": pin,
    "demo": demo,
    "serve": serve,
    "reference": reference,
}

EXIT_CODES = """exit codes:
  0  ok: nothing to report
  1  findings: a breaking diff, golden drift, fixtures that did not behave as expected,
     an eval regression or a stale eval case
  2  a mistake in the command or its input: bad options, a target that cannot be read or imported
     (one message naming the file and line, and how to fix it; no traceback)
  3  a bug in toolkit itself (the traceback is printed so it can be reported)"""


class _Parser(argparse.ArgumentParser):
    """argparse with one message per mistake: the command's usage, what is wrong, and where to read more."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error [usage]: {message} (see `{self.prog} --help`)\n")


def build_parser() -> argparse.ArgumentParser:
    """The full parser, one sub-command per module in :data:`COMMANDS`."""
    parser = _Parser(
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

    console = Console(highlight=False, soft_wrap=True)
    console.on_broken_pipe = _reader_gone  # type: ignore[method-assign]  # rich's own exits with 1, which means "findings"
    return console, Console(stderr=True, highlight=False, soft_wrap=True)


def _reader_gone() -> None:
    """The reader of stdout stopped early (``toolkit lower ... | head``): write nowhere from now on."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())  # so the flush at exit does not fail again
    raise BrokenPipeError


def _parse(argv: Sequence[str] | None) -> argparse.Namespace:
    """Parse ``argv``; an unknown option is reported by the command it was given to, with its usage."""
    parser = build_parser()
    args, extras = parser.parse_known_args(argv)
    if extras:
        commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        commands.choices[args.command].error(f"unrecognized arguments: {' '.join(extras)}")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; returns the exit code (see :data:`EXIT_CODES`)."""

    try:
        args = _parse(argv)
    except SystemExit as exit_:  # --help, --version, or a usage error (the parser already said why)
        return exit_.code if isinstance(exit_.code, int) else 2
    console, errors = _consoles()
    here = os.getcwd()  # module:function targets resolve from the working folder, as under `python -m`
    added = here not in sys.path
    if added:
        sys.path.insert(0, here)
    try:
        code = int(COMMANDS[args.command].run(args, console))
        sys.stdout.flush()  # a reader that stopped early shows here, inside the try
        return code
    except ToolkitError as error:
        # rich loads when a command runs, so `toolkit --help` stays fast.
        from rich.markup import escape

        errors.print(f"[bold red]error[/] {escape(f'[{error.slug}]')}: {escape(error.message)}")
        return 2
    except KeyboardInterrupt:
        errors.print("interrupted")
        return 130
    except BrokenPipeError:  # the reader stopped early (`toolkit lower ... | head`): not a finding, not a bug
        with contextlib.suppress(BrokenPipeError):
            _reader_gone()
        return 0
    except Exception:  # a bug, not a mistake of the user's: show where, and keep 1 for findings
        errors.print_exception()
        errors.print(f"[bold red]internal error[/] in toolkit {__version__}: please report it with the traceback above")
        return 3
    finally:
        if added and here in sys.path:
            sys.path.remove(here)


if __name__ == "__main__":
    sys.exit(main())
