"""``toolkit reference``: the stable vocabularies (field codes, notice actions, exception and refusal slugs,
declaration reductions, lint codes) as one Markdown page.

    toolkit reference                      # print the page (the repository keeps it as docs/reference.md)

The tables live where their vocabularies are defined: field codes and notice actions in ``toolkit._envelope_codes``,
exception slugs in ``toolkit._exceptions``, refusal slugs in ``toolkit._openapi._refusal``, dialect refusal
slugs in ``toolkit._lowering._dialect``, declaration reductions in ``toolkit._lowering._budget``, lint codes in
``toolkit._lints``.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from toolkit._commands import plain_text
from toolkit._envelope_codes import FIELD_CODES, NOTICE_ACTIONS
from toolkit._exceptions import ERROR_SLUGS
from toolkit._lints import CATALOGUE
from toolkit._lowering._budget import REDUCTIONS
from toolkit._lowering._dialect import DIALECT_SLUGS
from toolkit._openapi._refusal import SLUGS

if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["TITLE", "add_parser", "markdown_table", "reference_markdown", "run"]

TITLE = "# Reference"

_INTRO = (
    "The stable vocabularies: tools, tests and models match on these, never on messages. Each table is rendered "
    "from\nthe one in the code: `toolkit/_envelope_codes.py`, `toolkit/_exceptions.py`, "
    "`toolkit/_openapi/_refusal.py`,\n`toolkit/_lowering/_dialect.py`, `toolkit/_lowering/_budget.py` and "
    "`toolkit/_lints/__init__.py` (`toolkit reference` prints it)."
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
    """The whole reference page, ending in one newline."""
    slugs = [(f"`{slug}`", entry.raised_by.__name__, entry.meaning) for slug, entry in sorted(ERROR_SLUGS.items())]
    parts = [
        TITLE,
        _INTRO,
        "## Field codes\n\n`FieldError.code`, what the model reads in `errors` (a tool's own domain checks may add "
        "codes;\n`<status>` stands for the HTTP status number).",
        markdown_table(("code", "meaning"), _meanings(FIELD_CODES)),
        "## Notice actions\n\n`Notice.action`, what the boundary did on the model's behalf (in `notices`).",
        markdown_table(("action", "meaning"), _meanings(NOTICE_ACTIONS)),
        "## Exception slugs\n\n`ToolkitError.slug`, for programmer misuse (the CLI prints it as `[slug]`).",
        markdown_table(("slug", "raised by", "meaning"), slugs),
        "## Refusal slugs\n\n`Rejection.slug`, why an opted-in OpenAPI operation did not become a tool.",
        markdown_table(("slug", "meaning"), _meanings(SLUGS)),
        "## Dialect refusal slugs\n\n`Payload.refusal.slug`, why a tool cannot be sent in one provider's dialect.",
        markdown_table(("slug", "meaning"), _meanings(DIALECT_SLUGS)),
        "## Declaration reductions\n\n`Tool.budget_fit.reductions`, how a declaration over its size budget was "
        "made to fit,\nin the order they are tried (each recorded as losses).",
        markdown_table(("reduction", "what it does"), [(f"`{key}`", text) for key, text in REDUCTIONS.items()]),
        "## Lint codes\n\n`Lint.code` and `Lint.slug`, the traps `tool.lints` reports, in catalogue order (codes "
        "are never\nrenumbered; a rule may report a finding at another severity when it is worse or milder).",
        markdown_table(
            ("code", "slug", "severity", "what it finds"),
            [(f"`{rule.code}`", f"`{rule.slug}`", rule.severity, rule.summary) for rule in CATALOGUE],
        ),
    ]
    return "\n\n".join(parts) + "\n"


def add_parser(subparsers: Any) -> None:
    subparsers.add_parser(
        "reference",
        help="print the field codes, notice actions, slugs and lint codes with their meanings",
        description=plain_text(__doc__),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )


def run(args: argparse.Namespace, console: Console) -> int:
    console.file.write(reference_markdown())
    return 0
