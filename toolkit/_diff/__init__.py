"""Declaration and spec diffs, classified for review.

    diff = tk.diff_declarations(golden_decl, tool)      # each side: a declaration dict, a Tool, or a collection
    diff.verdict                                        # "breaking" | "behavioural" | "additive" | "none"
    diff.to_markdown()                                  # a pull-request comment
    tk.diff_declarations(old, new, dialect="openai")    # the same rules over another dialect's payloads

A declaration is the contract with the model, so a changed declaration is a review artefact: every
difference becomes a :class:`~toolkit._diff._rules.Change` with a stable rule slug and a kind (the catalogue
is :data:`toolkit._diff._rules.RULES`), and the verdict is the worst kind. A ``breaking`` verdict means the
change needs a versioning decision: callers, saved sessions and evals that were valid before may now fail.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from toolkit._diff._dialects import collection_of, declaration_of, many_of
from toolkit._diff._rules import KINDS, RULES, Change, change, contrast, diff_schema, key, same, show
from toolkit._diff._text import plural
from toolkit._display import Displayable, displayed_by
from toolkit._display._reports import DECLARATION_DIFF_RENDERER, SPEC_DIFF_RENDERER
from toolkit._exceptions import UsageError
from toolkit._openapi import from_openapi
from toolkit._tool import Toolset

if TYPE_CHECKING:
    from toolkit._tool import Rejection

__all__ = [
    "RULES",
    "Change",
    "DeclarationDiff",
    "SpecDiff",
    "Verdict",
    "diff_declarations",
    "diff_dialects",
    "diff_specs",
]

Verdict = Literal["breaking", "behavioural", "additive", "none"]
_RANK: dict[str, int] = {"none": 0, "additive": 1, "behavioural": 2, "breaking": 3}

VERDICT_ADVICE: dict[str, str] = {
    "breaking": "needs a versioning decision: arguments that were valid before may now be refused",
    "behavioural": "the model reads what changed: validity is the same, but routing and arguments may move",
    "additive": "additive only: every call that was valid before stays valid",
    "none": "no changes",
}


def worst(kinds: Iterable[str]) -> Verdict:
    """The worst kind among ``kinds`` (``"none"`` when there are none)."""
    verdict = max(kinds, key=_RANK.__getitem__, default="none")
    return verdict  # type: ignore[return-value]


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


@displayed_by(DECLARATION_DIFF_RENDERER)
@dataclass(frozen=True, slots=True)
class DeclarationDiff(Displayable):
    """The classified changes between two declarations (or two collections of them), and the verdict."""

    changes: tuple[Change, ...]
    verdict: Verdict

    @classmethod
    def of(cls, changes: Iterable[Change]) -> DeclarationDiff:
        """A diff whose verdict is the worst kind among ``changes``."""
        frozen = tuple(changes)
        return cls(changes=frozen, verdict=worst(c.kind for c in frozen))

    def __bool__(self) -> bool:
        return bool(self.changes)

    @property
    def needs_versioning(self) -> bool:
        """True for a breaking verdict: decide on a new tool name or version before shipping."""
        return self.verdict == "breaking"

    @property
    def tools(self) -> tuple[str, ...]:
        """The tools with changes, in the order they were found."""
        return tuple(dict.fromkeys(c.tool for c in self.changes))

    def by_tool(self) -> dict[str, DeclarationDiff]:
        """One diff per tool with changes."""
        return {name: DeclarationDiff.of(c for c in self.changes if c.tool == name) for name in self.tools}

    def by_dialect(self) -> dict[str, DeclarationDiff]:
        """One diff per dialect with changes (each dialect's payloads classified on their own)."""
        dialects = dict.fromkeys(c.dialect for c in self.changes)
        return {d: DeclarationDiff.of(c for c in self.changes if c.dialect == d) for d in dialects}

    def of_kind(self, kind: str) -> tuple[Change, ...]:
        return tuple(c for c in self.changes if c.kind == kind)

    def to_dict(self) -> dict[str, Any]:
        return {
            "verdict": self.verdict,
            "needs_versioning": self.needs_versioning,
            "counts": {kind: len(self.of_kind(kind)) for kind in KINDS},
            "changes": [c.to_dict() for c in self.changes],
        }

    def to_text(self) -> str:
        """Plain text: the verdict line, then one line per change (deterministic; notebooks compare it)."""
        lines = [f"verdict: {self.verdict} ({VERDICT_ADVICE[self.verdict]})"]
        for c in self.changes:
            where = f"{c.tool}:{c.path}" if c.tool and c.path else (c.tool or c.path)
            where = where if c.dialect == "gemini" else f"[{c.dialect}] {where}"
            lines.append(f"  {c.kind:<11} {c.rule:<26} {where}  {c.summary}")
        return "\n".join(lines)

    def to_markdown(self, title: str = "Declaration diff", notes: Iterable[str] = ()) -> str:
        """A pull-request comment: the verdict, then the changes (one table per tool when several changed)."""
        return _markdown(self, title, list(notes))

    def __repr__(self) -> str:
        return f"<DeclarationDiff verdict={self.verdict} changes={len(self.changes)}>"


# -- markdown ----------------------------------------------------------------------------------------------

MARKDOWN_LIMIT = 60_000
"""Characters a markdown diff may use: a GitHub comment holds 65,536; the rest is left off with a note."""
ROWS_PER_TOOL = 12
"""Rows of one tool's table in a multi-tool markdown diff, worst kinds first; the rest are counted."""


def _rows(changes: Iterable[Change]) -> list[str]:
    lines = ["| kind | tool | rule | path | change |", "|---|---|---|---|---|"]
    for c in changes:
        tool = f"`{c.tool}`" if c.dialect == "gemini" else f"`{c.tool}` ({c.dialect})"
        cells = (c.kind, tool, f"`{c.rule}`", f"`{c.path}`" if c.path else "", _cell(c.summary))
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def _overview(per_tool: Mapping[str, DeclarationDiff]) -> list[str]:
    lines = ["| tool | verdict | breaking | behavioural | additive |", "|---|---|---|---|---|"]
    for name, diff in per_tool.items():
        counts = " | ".join(str(len(diff.of_kind(kind))) for kind in KINDS)
        lines.append(f"| `{name}` | {diff.verdict} | {counts} |")
    return [*lines, ""]


def _markdown(diff: DeclarationDiff, title: str, notes: list[str]) -> str:
    lines = [f"### {title}: **{diff.verdict}**", "", f"> {VERDICT_ADVICE[diff.verdict]}", ""]
    lines += [f"- {note}" for note in notes] + ([""] if notes else [])
    if not diff.changes:
        return "\n".join(lines)
    counts = ", ".join(f"{len(diff.of_kind(k))} {k}" for k in KINDS if diff.of_kind(k))
    lines += [f"{plural(len(diff.changes), 'change')} ({counts}) in {plural(len(diff.tools), 'tool')}.", ""]
    if len(diff.tools) == 1:
        return "\n".join(lines + _rows(diff.changes)) + "\n"
    worst_first = dict(sorted(diff.by_tool().items(), key=lambda item: (-_RANK[item[1].verdict], item[0])))
    lines += _overview(worst_first)
    used = sum(len(line) + 1 for line in lines)
    for shown, (name, per_tool) in enumerate(worst_first.items()):
        opened = " open" if per_tool.verdict == "breaking" else ""
        summary = f"<code>{name}</code>: {per_tool.verdict} ({plural(len(per_tool.changes), 'change')})"
        ordered = sorted(per_tool.changes, key=lambda c: -_RANK[c.kind])
        rows = _rows(ordered[:ROWS_PER_TOOL])
        if len(ordered) > ROWS_PER_TOOL:
            rows.append(f"| … | | | | {plural(len(ordered) - ROWS_PER_TOOL, 'more change')} in this tool |")
        block = [f"<details{opened}><summary>{summary}</summary>", "", *rows, "", "</details>", ""]
        size = sum(len(line) + 1 for line in block)
        if used + size > MARKDOWN_LIMIT:
            left = len(worst_first) - shown
            lines.append(
                f"_{plural(left, 'more tool')} left off to fit a comment: use `--format json` for every change._"
            )
            break
        lines += block
        used += size
    return "\n".join(lines) + "\n"


# -- sides -------------------------------------------------------------------------------------------------


def _empty_parameters() -> dict[str, Any]:
    return {"type": "OBJECT", "properties": {}}


def _tool_changes(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[Change]:
    """Changes between two declarations of one tool (its name may have changed)."""
    out: list[Change] = []
    if old.get("name") != new.get("name"):
        out.append(change("tool_renamed", "", f"tool renamed from {show(old.get('name'))} to {show(new.get('name'))}"))
    if old.get("description") != new.get("description"):
        text = f"tool description changed {contrast(old.get('description'), new.get('description'))}"
        out.append(change("tool_description_changed", "", text))
    out += diff_schema(old.get("parameters") or _empty_parameters(), new.get("parameters") or _empty_parameters())
    for keyword in sorted((set(old) | set(new)) - {"name", "description", "parameters"}):
        if not same(old.get(keyword), new.get(keyword)):
            text = f"declaration field {keyword} changed from {show(old.get(keyword))} to {show(new.get(keyword))}"
            out.append(change("keyword_changed", "", text))
    return out


def _tagged(tool: str, changes: Iterable[Change], dialect: str = "gemini") -> list[Change]:
    return [Change(c.rule, c.path, c.summary, c.kind, tool, dialect) for c in changes]


def _tool_renames(
    removed: list[str], added: list[str], old: Mapping[str, Any], new: Mapping[str, Any]
) -> dict[str, str]:
    """A removed and an added tool with the same (non-empty) parameters, one-to-one, are one tool renamed."""
    shape = {name: key(old[name].get("parameters")) for name in removed if old[name].get("parameters")}
    candidates = {name: key(new[name].get("parameters")) for name in added if new[name].get("parameters")}
    pairs: dict[str, str] = {}
    for gone in shape:
        matches = [a for a in candidates if candidates[a] == shape[gone]]
        rivals = [r for r in shape if shape[r] == shape[gone]]
        if len(matches) == 1 and len(rivals) == 1:
            pairs[gone] = matches[0]
    return pairs


@dataclass(frozen=True, slots=True)
class _Matching:
    """How the tools of two collections pair up: by name, then renames by identical parameters."""

    common: tuple[str, ...]
    removed: tuple[str, ...]
    added: tuple[str, ...]
    renamed: tuple[tuple[str, str], ...]


def _match(old: Mapping[str, Any], new: Mapping[str, Any]) -> _Matching:
    removed = sorted(n for n in old if n not in new)
    added = sorted(n for n in new if n not in old)
    renames = _tool_renames(removed, added, old, new)
    return _Matching(
        common=tuple(sorted(set(old) & set(new))),
        removed=tuple(n for n in removed if n not in renames),
        added=tuple(n for n in added if n not in renames.values()),
        renamed=tuple(renames.items()),
    )


def _collection_changes(
    old: Mapping[str, Any], new: Mapping[str, Any], matching: _Matching, dialect: str = "gemini"
) -> list[Change]:
    out: list[Change] = []
    for name in matching.common:
        out += _tagged(name, _tool_changes(old[name], new[name]), dialect)
    for gone, name in matching.renamed:
        out += _tagged(name, _tool_changes(old[gone], new[name]), dialect)
    removed, added = RULES["tool_removed"], RULES["tool_added"]
    out += [Change("tool_removed", "", f"tool {show(n)} removed", removed, n, dialect) for n in matching.removed]
    out += [Change("tool_added", "", f"tool {show(n)} added", added, n, dialect) for n in matching.added]
    return out


def diff_declarations(old: Any, new: Any, *, dialect: str = "gemini") -> DeclarationDiff:
    """Classify every difference between ``old`` and ``new``, payloads of ``dialect`` (default ``gemini``).

    Each side is a declaration dict, a :class:`~toolkit.Tool`, or a collection of either (a list, a
    :class:`~toolkit.Toolset`, or a ``{name: declaration}`` mapping such as a golden folder); collections are
    matched by tool name, and a removed + added tool with identical parameters is reported as a rename. A
    tool's side is its ``payload(dialect)`` (a tool the dialect refuses counts as absent); a dict side is a
    payload of ``dialect`` (see :mod:`toolkit._diff._dialects` for how other dialects are read).
    """
    if collection_of(old, dialect) is None and collection_of(new, dialect) is None:
        before, after = declaration_of(old, dialect), declaration_of(new, dialect)
        if before is not None and after is not None:
            return DeclarationDiff.of(_tagged(str(after.get("name")), _tool_changes(before, after), dialect))
    old_many, new_many = many_of(old, dialect), many_of(new, dialect)
    return DeclarationDiff.of(_collection_changes(old_many, new_many, _match(old_many, new_many), dialect))


def diff_dialects(old: Mapping[str, Any], new: Mapping[str, Any]) -> DeclarationDiff:
    """Two golden folders, each ``{dialect: {name: payload}}`` (``gemini`` for the top level), compared
    dialect by dialect: one diff whose changes each name their dialect."""
    changes: list[Change] = []
    for dialect in dict.fromkeys([*old, *new]):
        changes += diff_declarations(old.get(dialect, {}), new.get(dialect, {}), dialect=dialect).changes
    return DeclarationDiff.of(changes)


# -- spec diffs --------------------------------------------------------------------------------------------


@displayed_by(SPEC_DIFF_RENDERER)
@dataclass(frozen=True, slots=True)
class SpecDiff(Displayable):
    """Two versions of one OpenAPI spec, compared tool by tool."""

    namespace: str
    diff: DeclarationDiff
    added: tuple[str, ...]
    removed: tuple[str, ...]
    renamed: tuple[tuple[str, str], ...]
    unchanged: tuple[str, ...]
    newly_rejected: tuple[Rejection, ...] = ()
    no_longer_rejected: tuple[Rejection, ...] = ()
    old_source: Mapping[str, Any] = field(default_factory=dict)
    new_source: Mapping[str, Any] = field(default_factory=dict)

    @property
    def verdict(self) -> Verdict:
        return self.diff.verdict

    @property
    def changes(self) -> tuple[Change, ...]:
        return self.diff.changes

    @property
    def needs_versioning(self) -> bool:
        return self.diff.needs_versioning

    def per_tool(self) -> dict[str, DeclarationDiff]:
        """One classified diff per tool that changed, was added, removed or renamed."""
        return self.diff.by_tool()

    def to_dict(self) -> dict[str, Any]:
        return {
            "namespace": self.namespace,
            **self.diff.to_dict(),
            "added": list(self.added),
            "removed": list(self.removed),
            "renamed": [list(pair) for pair in self.renamed],
            "unchanged": list(self.unchanged),
            "newly_rejected": [r.to_dict() for r in self.newly_rejected],
            "no_longer_rejected": [r.to_dict() for r in self.no_longer_rejected],
            "old_source": dict(self.old_source),
            "new_source": dict(self.new_source),
        }

    def _header(self) -> list[str]:
        return [
            f"tools: {len(self.per_tool())} changed of {len(self.per_tool()) + len(self.unchanged)}"
            f" ({len(self.added)} added, {len(self.removed)} removed, {len(self.renamed)} renamed,"
            f" {len(self.unchanged)} unchanged)",
            f"operations newly rejected: {len(self.newly_rejected)}; no longer rejected: "
            f"{len(self.no_longer_rejected)}",
        ]

    def to_text(self) -> str:
        return "\n".join([f"spec diff ({self.namespace})", *self._header(), self.diff.to_text()])

    def to_markdown(self) -> str:
        rejected = [f"newly rejected: `{r.operation_id}` ({r.slug}): {_cell(r.message)}" for r in self.newly_rejected]
        return self.diff.to_markdown(title=f"Spec diff `{self.namespace}`", notes=[*self._header(), *rejected])

    def __repr__(self) -> str:
        return f"<SpecDiff {self.namespace!r} verdict={self.verdict} tools_changed={len(self.diff.tools)}>"


def _toolset(side: Any, namespace: str, options: Mapping[str, Any]) -> Toolset:

    if isinstance(side, Toolset):
        return side

    return from_openapi(side, namespace, **options)


def _rejection_key(rejection: Rejection) -> tuple[str, str, str]:
    return (rejection.operation_id or "", rejection.method, rejection.path)


def spec_diff_of(old: Toolset, new: Toolset, dialects: Iterable[str] = ()) -> SpecDiff:
    """The :class:`SpecDiff` of two toolsets already built from the two spec versions; ``dialects`` adds the
    changes of those dialects' payloads to the ``gemini`` declarations' (each change names its dialect)."""
    before = {t.name: t.declaration for t in old.tools}
    after = {t.name: t.declaration for t in new.tools}
    matching = _match(before, after)
    changes = _collection_changes(before, after, matching)
    for dialect in dict.fromkeys(d for d in dialects if d != "gemini"):
        changes += diff_declarations(old.tools, new.tools, dialect=dialect).changes
    diff = DeclarationDiff.of(changes)
    changed = set(diff.tools)
    old_rejected = {_rejection_key(r): r for r in old.rejected}
    new_rejected = {_rejection_key(r): r for r in new.rejected}
    return SpecDiff(
        namespace=new.namespace,
        diff=diff,
        added=matching.added,
        removed=matching.removed,
        renamed=matching.renamed,
        unchanged=tuple(sorted(n for n in after if n not in changed)),
        newly_rejected=tuple(r for k, r in sorted(new_rejected.items()) if k not in old_rejected),
        no_longer_rejected=tuple(r for k, r in sorted(old_rejected.items()) if k not in new_rejected),
        old_source=dict(old.source),
        new_source=dict(new.source),
    )


def diff_specs(old: Any, new: Any, namespace: str, **from_openapi_kwargs: Any) -> SpecDiff:
    """Build both spec versions with :func:`toolkit.from_openapi` (same namespace and options) and compare.

    ``old`` and ``new`` are anything ``from_openapi`` reads (a path, text or a dict) or ready
    :class:`~toolkit.Toolset` objects. Tools are matched by name; operations that became rejected are listed.
    """
    if not isinstance(namespace, str) or not namespace:
        raise UsageError("diff_specs needs the namespace both spec versions are built with, e.g. 'orders'")
    return spec_diff_of(
        _toolset(old, namespace, from_openapi_kwargs),
        _toolset(new, namespace, from_openapi_kwargs),
    )
