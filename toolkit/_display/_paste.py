"""Renderers for the paste box's drafts: what the pasted text became, what is wrong with it, and what changed.

Pure functions over :class:`toolkit._paste.Draft` (imported for type checking only). The paste box's widget
draws its panes from the same pieces (:func:`problem_html`, :func:`tools_rows`, :func:`diff_html`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from toolkit._display import Renderer
from toolkit._display._core import declaration_html, lints_html, losses_html, refusals_html
from toolkit._display._markup import badge, esc, html_table, plural, section, text_table, wrap
from toolkit._display._reports import changes_html

if TYPE_CHECKING:
    from toolkit._diff import DeclarationDiff
    from toolkit._fixtures import FixtureReport
    from toolkit._paste import Draft, Problem
    from toolkit._tool import Tool

__all__ = [
    "DRAFT_RENDERER",
    "diff_html",
    "diff_text",
    "draft_headline",
    "draft_text",
    "fixture_summary",
    "problem_html",
    "tools_html",
    "tools_rows",
]

_TOOL_HEADERS = ("tool", "parameters", "losses", "lints", "fixtures")


def fixture_summary(report: FixtureReport) -> str:
    """``34 fired, 34 passed`` or ``27 fired, 25 passed, 2 failed``."""
    failed = len(report.failures)
    return f"{len(report.rows)} fired, {len(report.rows) - failed} passed" + (f", {failed} failed" if failed else "")


def tools_rows(draft: Draft) -> list[tuple[str, ...]]:
    def row(tool: Tool, report: FixtureReport) -> tuple[str, ...]:
        count = len((tool.parameters or {}).get("properties", {}))
        return (tool.name, str(count), str(len(tool.losses)), str(len(tool.lints)), fixture_summary(report))

    return [row(tool, report) for tool, report in zip(draft.tools, draft.reports, strict=True)]


def draft_headline(draft: Draft) -> str:
    source = "Python" if draft.kind == "python" else "OpenAPI fragment"
    if draft.problem is not None:
        return f"Paste ({source}): not built — {draft.problem.slug}"
    refused = f", {len(draft.rejected)} refused" if draft.rejected else ""
    return f"Paste ({source}): {plural(len(draft.tools), 'tool')}{refused}"


def diff_text(diff: DeclarationDiff | None, since: str = "the previous version") -> str:
    """One line: the verdict against the version named by ``since`` and the changes by kind."""
    if diff is None:
        return "diff: no previous version to compare with"
    if not diff.changes:
        return f"diff against {since}: no changes"
    tally = {kind: sum(1 for c in diff.changes if c.kind == kind) for kind in ("breaking", "behavioural", "additive")}
    counts = ", ".join(f"{n} {kind}" for kind, n in tally.items() if n)
    return f"diff against {since}: {diff.verdict} ({plural(len(diff.changes), 'change')}: {counts})"


def draft_text(draft: Draft) -> str:
    """The draft in a few deterministic lines: headline, tools, refusals, the diff and its changes."""
    lines = [draft_headline(draft)]
    if draft.problem is not None:
        return "\n".join([*lines, f"problem: {draft.problem.message}"])
    lines += text_table(_TOOL_HEADERS, tools_rows(draft))
    lines += [
        f"  refused {r.operation_id or r.method.upper() + ' ' + r.path}: {r.slug}: {r.message}" for r in draft.rejected
    ]
    lines.append(diff_text(draft.diff))
    if draft.diff is not None:
        lines += [f"  {c.kind} {c.rule} at {c.path or '(tool)'}" for c in draft.diff.changes]
    return "\n".join(lines)


def problem_html(problem: Problem | None, text: str = "") -> str:
    """The author's mistake, with the line it is on quoted from ``text`` when there is one."""
    if problem is None:
        return ""
    quoted = ""
    lines = text.splitlines()
    shown = problem.line is not None and 0 < problem.line <= len(lines)
    if shown and problem.line is not None and lines[problem.line - 1].strip() not in problem.message:
        quoted = f"<pre class='tk-problem-line'>{problem.line:>4} | {esc(lines[problem.line - 1])}</pre>"
    return (
        f"<div class='tk-problem' style='border-left:4px solid #cf222e;background:#ffebe9;padding:0.3em 0.6em'>"
        f"{badge(problem.slug, 'error')} <span class='tk-problem-message' style='white-space:pre-wrap'>"
        f"{esc(problem.message)}</span>{quoted}</div>"
    )


def tools_html(draft: Draft) -> str:
    if not draft.tools:
        return ""
    kinds = ["fail" if report.failures else "pass" for report in draft.reports]
    return html_table(_TOOL_HEADERS, tools_rows(draft), row_kinds=kinds)


def diff_html(diff: DeclarationDiff | None, since: str = "the previous version") -> str:
    head = f"<div class='tk-headline'>{badge(diff.verdict) if diff else ''} {esc(diff_text(diff, since))}</div>"
    return head + (changes_html(diff.changes) if diff is not None and diff.changes else "")


def _draft_html(draft: Draft) -> str:
    parts = [f"<div class='tk-headline'><b>{esc(draft_headline(draft))}</b></div>"]
    if draft.problem is not None:
        return wrap("draft", parts[0] + problem_html(draft.problem))
    parts.append(tools_html(draft))
    parts.append(refusals_html(draft.rejected))
    for tool in draft.tools:
        parts.append(section(f"Declaration of {tool.name}", declaration_html(tool)))
        parts.append(section("Lints", lints_html(tool.lints)) + section("Losses", losses_html(tool.losses)))
    parts.append(section("Diff", diff_html(draft.diff)))
    return wrap("draft", "".join(parts))


DRAFT_RENDERER = Renderer(draft_text, _draft_html)
