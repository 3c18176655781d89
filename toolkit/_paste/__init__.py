"""Pasted source → tools, rebuilt on every edit: the paste box's stage.

    draft = paste(text)                                # a Python function's source or an OpenAPI fragment
    draft.kind, draft.tools, draft.problem             # detected kind, the tools built, the author's mistake
    draft.reports                                      # the fixtures fired at each tool
    later = paste(edited, baseline=draft.tools)        # ... and later.diff, classified against that version

Everything an author can get wrong in the text (a syntax error, an exception while the code runs, a signature
that cannot be a tool, YAML that does not parse, a fragment that opts no operation in) is a :class:`Problem` on
the draft, with its slug, its message and its line in the pasted text: :func:`paste` never raises for the text.
Python runs as the author's own code in their own kernel (:mod:`._python`); fragments go through
:func:`toolkit.from_openapi` (:mod:`._fragment`). Fixture reports are kept in ``fired`` (a mapping the caller
owns) under the contract they depend on, so an edit that leaves a tool's contract alone fires nothing again; a
YAML fragment is read a block at a time through ``blocks`` (:mod:`._chunks`), so an edit parses only its block.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, MutableMapping
from dataclasses import dataclass
from typing import Any

from toolkit._contract import Effect
from toolkit._diff import DeclarationDiff, diff_declarations
from toolkit._display import Displayable, displayed_by
from toolkit._display._paste import DRAFT_RENDERER
from toolkit._exceptions import SpecError
from toolkit._fixtures import FixtureReport, fire
from toolkit._paste._detect import KINDS, Kind, detect
from toolkit._paste._fragment import cut, openapi_toolset
from toolkit._paste._problem import Problem
from toolkit._paste._python import function_tools, run_source
from toolkit._paste._source import Source, source_of
from toolkit._tool import Rejection, Tool

__all__ = ["KINDS", "Draft", "Kind", "Problem", "Source", "cut", "detect", "paste", "source_of"]

FIRED_LIMIT = 512
"""How many fixture reports a ``fired`` cache keeps (the oldest go first)."""


@displayed_by(DRAFT_RENDERER)
@dataclass(frozen=True, slots=True, eq=False)
class Draft(Displayable):
    """One version of pasted text, built: its tools (with a fixture report each, in the same order), the
    operations a fragment refused, the author's mistake if any, and the classified diff against ``baseline``.

    With a ``problem`` there are no tools and no diff: the text as it stands cannot be built.
    """

    kind: Kind
    tools: tuple[Tool, ...] = ()
    reports: tuple[FixtureReport, ...] = ()
    rejected: tuple[Rejection, ...] = ()
    problem: Problem | None = None
    diff: DeclarationDiff | None = None

    @property
    def ok(self) -> bool:
        return self.problem is None and bool(self.tools)

    def report(self, name: str) -> FixtureReport:
        """The fixture report of the tool called ``name``."""
        for tool, report in zip(self.tools, self.reports, strict=True):
            if tool.name == name:
                return report
        raise KeyError(f"no tool named {name!r} in this draft; have: {', '.join(t.name for t in self.tools)}")

    def __repr__(self) -> str:
        state = f"problem={self.problem.slug}" if self.problem else f"tools={len(self.tools)}"
        return f"<Draft {self.kind} {state}>"


def _fired_key(tool: Tool) -> str:
    contract = tool.contract
    parts = [tool.name, contract.args_schema, contract.effect, list(contract.domain_rules), repr(tool.policy)]
    return json.dumps(parts, sort_keys=True, default=repr)


def _report(tool: Tool, fired: MutableMapping[str, FixtureReport] | None) -> FixtureReport:
    if tool.domain_checks and len(tool.domain_checks) != len(tool.contract.domain_rules):
        return fire(tool)  # code-level domain checks: their behaviour is not in any key
    key = _fired_key(tool)
    found = fired.get(key) if fired is not None else None
    if found is None:
        found = fire(tool)
        if fired is not None:
            while len(fired) >= FIRED_LIMIT:
                fired.pop(next(iter(fired)))
            fired[key] = found
    return found


def _build(
    text: str,
    kind: Kind,
    namespace: str | None,
    effect: Effect,
    select: str,
    seed: Mapping[str, Any] | None,
    time_limit: float,
    blocks: MutableMapping[str, Any] | None,
) -> tuple[list[Tool], tuple[Rejection, ...]] | Problem:
    if kind == "openapi":
        toolset = openapi_toolset(text, namespace or "api", select, blocks)
        return toolset if isinstance(toolset, Problem) else (list(toolset.tools), toolset.rejected)
    module = run_source(text, seed, time_limit)
    if isinstance(module, Problem):
        return module
    tools = function_tools(module, seed=seed, namespace=namespace, effect=effect)
    return tools if isinstance(tools, Problem) else (tools, ())


def paste(
    text: str,
    kind: Kind | None = None,
    *,
    namespace: str | None = None,
    effect: Effect = "write",
    select: str = "extension",
    baseline: Any = None,
    seed: Mapping[str, Any] | None = None,
    fired: MutableMapping[str, FixtureReport] | None = None,
    blocks: MutableMapping[str, Any] | None = None,
    time_limit: float = 2.0,
) -> Draft:
    """Build pasted ``text`` (``kind`` ``"python"`` or ``"openapi"``; detected when ``None``).

    ``namespace`` prefixes tool names (fragments default to ``"api"``); ``effect`` is the effect of function
    tools; ``select`` is :func:`toolkit.from_openapi`'s (``"all"`` opts in every operation). ``baseline`` (tools,
    declarations, or a collection of either) is the version the diff compares against. ``seed`` gives the pasted
    Python the names of an existing module (editing a tool whose code uses them); ``fired`` caches fixture reports
    and ``blocks`` the parsed blocks of YAML fragments (both caches the caller keeps across edits); pasted Python
    still running after ``time_limit`` seconds is interrupted (on the main thread, POSIX).
    """
    chosen: Kind = kind if kind is not None else detect(text)
    if chosen not in KINDS:
        raise SpecError(
            f"kind={chosen!r} is not one of {', '.join(KINDS)}; pass one, or None to detect it", slug="bad_source"
        )
    if not text.strip():
        what = "a Python function's source" if chosen == "python" else "an OpenAPI fragment"
        return Draft(chosen, problem=Problem("no_tools", f"nothing pasted yet: paste or type {what}"))
    built = _build(text, chosen, namespace, effect, select, seed, time_limit, blocks)
    if isinstance(built, Problem):
        return Draft(chosen, problem=built)
    tools, rejected = built
    if not tools:
        return Draft(chosen, rejected=rejected, problem=Problem("no_tools", _refused_all(rejected)))
    reports = tuple(_report(tool, fired) for tool in tools)
    diff = None if baseline is None else diff_declarations(baseline, tools)
    return Draft(chosen, tuple(tools), reports, rejected, None, diff)


def _refused_all(rejected: tuple[Rejection, ...]) -> str:
    first = rejected[0]
    more = f" (and {len(rejected) - 1} more)" if len(rejected) > 1 else ""
    return f"every operation was refused: {first.method.upper()} {first.path}: {first.slug}: {first.message}{more}"
