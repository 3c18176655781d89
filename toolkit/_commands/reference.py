"""``toolkit reference``: the stable vocabularies (field codes, notice actions, exception and refusal slugs).

    toolkit reference                      # print the tables as Markdown
    toolkit reference --write README.md    # replace the README's reference section (never written by hand)

The tables live where their vocabularies are defined: field codes and notice actions in ``toolkit._envelope_codes``,
exception slugs in ``toolkit._exceptions``, refusal slugs in ``toolkit._openapi._refusal``, dialect refusal
slugs in ``toolkit._lowering._dialect``, declaration reductions in ``toolkit._lowering._budget``.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolkit._commands import plain_text
from toolkit._envelope_codes import FIELD_CODES, NOTICE_ACTIONS
from toolkit._exceptions import ERROR_SLUGS
from toolkit._lowering._budget import REDUCTIONS
from toolkit._lowering._dialect import DIALECT_SLUGS
from toolkit._openapi._refusal import SLUGS

if TYPE_CHECKING:
    from rich.console import Console

__all__ = [
    "COMMAND",
    "HEADING",
    "add_parser",
    "markdown_table",
    "reference_markdown",
    "replace_section",
    "run",
    "section",
]

HEADING = "## Reference"
COMMAND = "toolkit reference --write README.md"
"""The command that regenerates the README's section (tests name it when the section is stale)."""

_INTRO = (
    "The stable vocabularies: tools, tests and models match on these, never on messages. Generated from the tables "
    "in\n`toolkit/_envelope_codes.py`, `toolkit/_exceptions.py`, `toolkit/_openapi/_refusal.py`, "
    "`toolkit/_lowering/_dialect.py` and\n`toolkit/_lowering/_budget.py` by "
    f"`{COMMAND}`; a test keeps this section equal to them."
)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def markdown_table(headers: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    """A GitHub-flavoured Markdown table; ``|`` inside a cell is escaped."""
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def _meanings(table: Mapping[str, str]) -> list[tuple[str, str]]:
    return [(f"`{key}`", table[key]) for key in sorted(table)]


def reference_markdown() -> str:
    """The whole ``## Reference`` section, ending in one newline."""
    slugs = [(f"`{slug}`", entry.raised_by.__name__, entry.meaning) for slug, entry in sorted(ERROR_SLUGS.items())]
    parts = [
        HEADING,
        _INTRO,
        "### Field codes\n\n`FieldError.code`, what the model reads in `errors` (a tool's own domain checks may add "
        "codes;\n`<status>` stands for the HTTP status number).",
        markdown_table(("code", "meaning"), _meanings(FIELD_CODES)),
        "### Notice actions\n\n`Notice.action`, what the boundary did on the model's behalf (in `notices`).",
        markdown_table(("action", "meaning"), _meanings(NOTICE_ACTIONS)),
        "### Exception slugs\n\n`ToolkitError.slug`, for programmer misuse (the CLI prints it as `[slug]`).",
        markdown_table(("slug", "raised by", "meaning"), slugs),
        "### Refusal slugs\n\n`Rejection.slug`, why an opted-in OpenAPI operation did not become a tool.",
        markdown_table(("slug", "meaning"), _meanings(SLUGS)),
        "### Dialect refusal slugs\n\n`Payload.refusal.slug`, why a tool cannot be sent in one provider's dialect.",
        markdown_table(("slug", "meaning"), _meanings(DIALECT_SLUGS)),
        "### Declaration reductions\n\n`Tool.budget_fit.reductions`, how a declaration over its size budget was "
        "made to fit,\nin the order they are tried (each recorded as losses).",
        markdown_table(("reduction", "what it does"), [(f"`{key}`", text) for key, text in REDUCTIONS.items()]),
    ]
    return "\n\n".join(parts) + "\n"


def _bounds(text: str) -> tuple[int, int] | None:
    start = text.find(f"\n{HEADING}\n")
    if start < 0:
        return None
    start += 1
    end = text.find("\n## ", start + len(HEADING))
    return start, len(text) if end < 0 else end + 1


def section(text: str) -> str | None:
    """The ``## Reference`` section of a README's text (up to the next level-2 heading), if it has one."""
    found = _bounds(text)
    return None if found is None else text[found[0] : found[1]].rstrip("\n") + "\n"


def replace_section(text: str) -> str:
    """``text`` with its reference section replaced by the generated one (appended when it has none)."""
    found = _bounds(text)
    fresh = reference_markdown()
    if found is None:
        return text.rstrip("\n") + "\n\n" + fresh
    start, end = found
    return text[:start] + fresh + ("\n" if end < len(text) else "") + text[end:]


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "reference",
        help="print the field codes, notice actions and slugs with their meanings",
        description=plain_text(__doc__),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--write", metavar="FILE", help="replace the reference section of this Markdown file")


def run(args: argparse.Namespace, console: Console) -> int:
    if args.write is None:
        console.file.write(reference_markdown())
        return 0
    path = Path(args.write)
    text = path.read_text(encoding="utf-8")
    updated = replace_section(text)
    if updated != text:
        path.write_text(updated, encoding="utf-8")
    console.print(f"{path}: reference section {'rewritten' if updated != text else 'already current'}")
    return 0
