"""``toolkit eval CASES TARGET``: does the model still pick the tool, with valid arguments, and correct itself
after an error envelope? The cases against TARGET's declarations (and, with ``--against``, another version of
them), side by side: selection, valid first call and recovered, each with counts and a 95 % interval.

    toolkit eval evals/issues.yaml toolkit.examples:search_issues --provider openai --samples 5
    toolkit eval evals/orders.yaml specs/orders.yaml --against golden --record evals/orders.cassette.json
    toolkit eval evals/orders.yaml specs/orders.yaml --against golden --replay evals/orders.cassette.json  # in CI
    toolkit eval evals/issues.yaml tools.py:search --against main --provider openai --base-url http://localhost:8000/v1

``--against golden`` sends the golden files' declarations (``--golden-dir``, per dialect) as the baseline
variant; ``--against REV`` builds the baseline from TARGET (a spec or a ``file.py`` target) as it was at git
revision REV. Keys come from the environment (``GEMINI_API_KEY``, ``OPENAI_API_KEY``, ``ANTHROPIC_API_KEY``);
a replay needs none and no network. Exit 1 on a regression against the baseline or a stale case (the cassette
does not hold a request: re-record), 0 otherwise. ``--forced`` makes every case a forced-choice contract test:
the provider's tool choice names the expected tool, and only its arguments are measured (deterministic enough
for CI on any provider).
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolkit._commands import add_target_arguments, plain_text, write_json
from toolkit._commands.diff import git_show
from toolkit._eval import Variant, evaluate, load_cases
from toolkit._exceptions import UsageError
from toolkit._golden import load_all
from toolkit._targets import is_spec, load_tools, pick, split_target
from toolkit._wire._live import PROVIDERS

if TYPE_CHECKING:
    from rich.console import Console

    from toolkit._tool import Tool


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "eval",
        help="selection eval: does the model pick the tool, validly, and recover after an envelope",
        description=plain_text(__doc__),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("cases", metavar="CASES", help="a YAML or JSON file of cases")
    add_target_arguments(parser)
    parser.add_argument("--provider", choices=list(PROVIDERS), default="gemini", help="default: gemini")
    parser.add_argument("--dialect", help="the provider's payload dialect (default: its first)")
    parser.add_argument("--model", help="the model (default: the provider's default)")
    parser.add_argument("--base-url", help="another endpoint: a proxy, or a local OpenAI-compatible server")
    parser.add_argument("--samples", type=int, default=1, help="conversations per case and variant (default: 1)")
    parser.add_argument("--against", metavar="golden|REV", help="the baseline: the golden files, or a git revision")
    parser.add_argument("--golden-dir", default="golden", help="golden folder for --against golden (default: golden)")
    parser.add_argument("--all", action="store_true", help="specs: every operation, not only the opted-in ones")
    parser.add_argument(
        "--forced", action="store_true", help="force each case's tool (tool_choice): a contract test of its arguments"
    )
    cassette = parser.add_mutually_exclusive_group()
    cassette.add_argument("--record", metavar="FILE", help="write every exchange to this cassette")
    cassette.add_argument("--replay", metavar="FILE", help="answer from this cassette: no key, no network")


def _tools(args: argparse.Namespace, target: str) -> list[Tool]:
    select = "all" if args.all else "extension"
    return pick(load_tools(target, namespace=args.namespace, select=select, overrides=args.overrides), args.op)


def _baseline(args: argparse.Namespace, working: list[Tool], dialect: str) -> Variant:
    if args.against == "golden":
        folders = load_all(args.golden_dir)
        bodies = folders.get(dialect)
        if bodies is None:
            raise UsageError(f"{args.golden_dir} has no golden files for {dialect}; pin them (`dialects = [...]`)")
        return Variant("golden", tuple(working), {t.name: bodies[t.name] for t in working if t.name in bodies})
    location = args.target if is_spec(args.target) else split_target(args.target)[0]
    if not (is_spec(args.target) or location.endswith(".py")):
        raise UsageError("--against REV reads a spec or a file.py target from git; a module target cannot be")
    text = git_show(args.against, location)
    with tempfile.TemporaryDirectory(prefix="toolkit-eval-") as folder:
        copy = Path(folder) / Path(location).name
        copy.write_text(text, encoding="utf-8")
        target = str(copy) if is_spec(args.target) else f"{copy}:{split_target(args.target)[1]}"
        return Variant(args.against, tuple(_tools(args, target)))


def run(args: argparse.Namespace, console: Console) -> int:
    if args.samples < 1:
        raise UsageError(f"--samples must be at least 1, not {args.samples}")
    cases = load_cases(args.cases)
    dialect = args.dialect or PROVIDERS[args.provider].dialects[0]
    working = _tools(args, args.target)
    variants = [Variant("working", tuple(working))]
    if args.against:
        variants.insert(0, _baseline(args, working, dialect))
    report = evaluate(
        cases,
        variants,
        args.provider,
        dialect=dialect,
        model=args.model,
        samples=args.samples,
        base_url=args.base_url,
        record=args.record,
        replay=args.replay,
        forced=args.forced,
    )
    if args.json:
        write_json(console, report.to_dict())
    else:
        console.file.write(report._repr_mimebundle_()["text/plain"] + "\n")
    return 1 if report.failed else 0
