"""The lint catalogue: known traps in a tool contract, one small rule per trap.

Lints read ``tool.contract.args_schema`` (the full JSON Schema), so they work the same for function tools
and OpenAPI tools. Each rule has a stable ``code`` and ``slug`` (tests, docs and suppressions use them),
a severity, and yields :class:`~toolkit.Lint` records at the dotted parameter path (``""`` = the tool).
References are read by :mod:`toolkit._schema`, so a bad one raises the :class:`~toolkit.SchemaError` slug
every other stage gives (a tool built by ``build_tool`` has been lowered first, which reads them all).

The rules live by what they read: :mod:`._rules` the name, descriptions and types (TK101–TK601),
:mod:`._frameworks` a framework's own schema of the tool against toolkit's (TK701–TK705), :mod:`._promises`
the constraints a description promises and the schema does not enforce (TK801–TK805, TK809), and
:mod:`._contradictions` the constraints the description and the schema both state, differently (TK806–TK808,
TK810); the words are read by :mod:`._words`, :mod:`._shapes` and :mod:`._values`. :data:`CATALOGUE` lists every
rule, in code order; :func:`lint` runs them all.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from toolkit._contract import CONVERTED, FrameworkSource, Lint, Loss, Severity, ToolContract
from toolkit._exceptions import ToolkitError
from toolkit._lints import _contradictions as contradictions
from toolkit._lints import _frameworks as framework
from toolkit._lints import _promises as promises
from toolkit._lints import _rules as rules
from toolkit._lints._promises import Finding
from toolkit._lints._shared import FieldRules, LintMemo
from toolkit._lints._subject import MAX_NESTING, Field, Subject, walk
from toolkit._schema import SHAREABLE_ROOT, Refs, unescape

if TYPE_CHECKING:
    from toolkit._tool import Tool

__all__ = ["CATALOGUE", "FIELD_RULES", "Field", "Finding", "LintMemo", "Rule", "Subject", "lint"]


class Rule(NamedTuple):
    """One catalogue entry: stable code and slug, severity, a one-line summary, and the check."""

    code: str
    slug: str
    severity: Severity
    summary: str
    check: Callable[[Subject], Iterator[Finding]]
    """Yields ``(path, message, fix)`` for each finding, or ``(path, message, fix, severity)`` when a rule's
    severity depends on how bad the finding is."""


def lint(tool: Tool, memo: LintMemo | None = None) -> tuple[Lint, ...]:
    """Run every rule of :data:`CATALOGUE` over ``tool``; findings in catalogue order, then parameter order.

    ``memo`` (one :class:`LintMemo` for the tools of one document) judges each shared property schema once.
    """
    contract, fit = tool.contract, tool.budget_fit
    declaration_bytes = _declaration_bytes(tool)
    over_budget = fit.budget if fit is not None and fit.over else None  # even with every reduction
    schema = contract.args_schema
    converted = _converted(contract.source_losses)
    if memo is not None and not converted and _shareable(contract):
        return _lint_shared(contract, declaration_bytes, memo, over_budget)
    refs = Refs(schema)
    fields = tuple(walk(refs, schema, "", 1))
    subject = Subject(
        contract.name,
        contract.description or "",
        schema,
        fields,
        refs,
        declaration_bytes,
        over_budget,
        framework=contract.framework,
        injected=contract.injected,
        converted=converted,
        **_framework_view(contract.framework),
    )
    found: dict[tuple[str, str], Lint] = {}
    for rule in CATALOGUE:
        for path, message, fix, *severity in rule.check(subject):
            # union members can share a field name: one finding per rule and path
            level = severity[0] if severity else rule.severity
            found.setdefault((rule.code, path), Lint(rule.code, rule.slug, level, path, message, fix))
    return tuple(found.values())


def _converted(losses: tuple[Loss, ...]) -> dict[str, frozenset[str]]:
    """By property name, the bounds a Python ``Decimal`` property checks on conversion (its recorded losses)."""
    found: dict[str, set[str]] = {}
    for loss in losses:
        parent, _, name = loss.path.rpartition("/")
        if loss.reason == CONVERTED and parent.endswith("/properties") and name:
            found.setdefault(unescape(name), set()).add(loss.keyword)
    return {name: frozenset(keywords) for name, keywords in found.items()}


def _shareable(contract: ToolContract) -> bool:
    """A tool whose fields are its root properties' fields (an OpenAPI ``args_schema``), with no framework."""
    schema = contract.args_schema
    return (
        contract.framework is None
        and not contract.injected
        and isinstance(schema.get("properties"), dict)
        and schema.keys() <= SHAREABLE_ROOT
    )


def _lint_shared(
    contract: ToolContract, declaration_bytes: int | None, memo: LintMemo, over_budget: int | None
) -> tuple[Lint, ...]:
    """:func:`lint` with the field rules' findings of each top-level parameter taken from (or put in) ``memo``;
    the same findings in the same order."""
    schema = contract.args_schema
    refs = Refs(schema)
    groups = [memo.group(refs, name, sub, _FIELD_RULES) for name, sub in schema["properties"].items()]
    subject = Subject(  # for the tool-level rules, which read no field below the top level
        contract.name,
        contract.description or "",
        schema,
        tuple(field for group in groups if (field := group.field) is not None),
        refs,
        declaration_bytes,
        over_budget,
    )
    by_rule: dict[str, list[Lint]] = {}  # the field rules' findings, group by group (most groups have none)
    for group in groups:
        for code, lints in group.found:
            by_rule.setdefault(code, []).extend(lints)
    found: dict[tuple[str, str], Lint] = {}
    for rule in CATALOGUE:
        if rule.code in FIELD_RULES:
            for lint_ in by_rule.get(rule.code, ()):
                found.setdefault((rule.code, lint_.path), lint_)
            continue
        for path, message, fix, *severity in rule.check(subject):
            level = severity[0] if severity else rule.severity
            found.setdefault((rule.code, path), Lint(rule.code, rule.slug, level, path, message, fix))
    return tuple(found.values())


def _framework_view(source: FrameworkSource | None) -> dict[str, Any]:
    """The framework schema's fields and references, walked like toolkit's; nothing if it cannot be read."""
    schema = source.schema if source is not None else None
    if not isinstance(schema, Mapping):
        return {}
    try:
        refs = Refs(schema)
        return {"framework_fields": tuple(walk(refs, schema, "", 1)), "framework_refs": refs}
    except (ToolkitError, RecursionError):  # a framework schema toolkit cannot read is not compared
        return {}


def _declaration_bytes(tool: Tool) -> int | None:
    """The declaration's size as its budget counts it (:attr:`Tool.declaration_bytes`: measured once, when the
    tool was fitted to its budget), so TK503 and the budget never disagree."""
    try:
        return tool.declaration_bytes
    except (TypeError, ValueError, RecursionError):  # not JSON (a stray object): other checks say so
        return None


CATALOGUE: Sequence[Rule] = (
    Rule("TK101", "missing_tool_description", "warning", "the tool has no description", rules.missing_tool_description),
    Rule(
        "TK102",
        "missing_parameter_description",
        "warning",
        "a parameter has no description",
        rules.missing_parameter_description,
    ),
    Rule(
        "TK103",
        "vague_parameter_description",
        "warning",
        "a parameter description is under 3 words or only repeats the name",
        rules.vague_parameter_description,
    ),
    Rule("TK201", "untyped_value", "warning", "a parameter accepts any JSON value (Any, object)", rules.untyped_value),
    Rule(
        "TK202",
        "untyped_map",
        "warning",
        "a parameter is a map with untyped values (dict[str, Any])",
        rules.untyped_map,
    ),
    Rule("TK301", "enum_case", "warning", "enum values are not in one lowercase or camelCase style", rules.enum_case),
    Rule(
        "TK401", "date_as_string", "warning", "a date- or time-like parameter is a plain string", rules.date_as_string
    ),
    Rule(
        "TK402",
        "money_as_float",
        "warning",
        "a parameter named or described as money (price, euros, USD, €) is a float",
        rules.money_as_float,
    ),
    Rule("TK501", "deep_nesting", "info", f"objects nest deeper than {MAX_NESTING} levels", rules.deep_nesting),
    Rule(
        "TK502",
        "too_many_parameters",
        "info",
        f"the tool has more than {rules.MAX_PARAMETERS} parameters",
        rules.too_many_parameters,
    ),
    Rule(
        "TK503",
        "declaration_too_large",
        "warning",
        f"the declaration is over {rules.LARGE_DECLARATION // 1024} KiB of JSON "
        f"(error over {rules.HUGE_DECLARATION // 1024} KiB)",
        rules.declaration_too_large,
    ),
    Rule(
        "TK504",
        "declaration_over_budget",
        "error",
        "the declaration is over the default budget even with every reduction, so it is sent whole",
        rules.declaration_over_budget,
    ),
    Rule("TK601", "bad_tool_name", "error", "the tool name breaks the declaration name rule", rules.bad_tool_name),
    # a framework's own schema of the tool against toolkit's derivation (toolkit/_lints/_frameworks.py)
    Rule(
        "TK701",
        "framework_refused",
        "warning",
        "the framework the tool came from cannot declare it",
        framework.framework_refused,
    ),
    Rule(
        "TK702",
        "framework_parameters",
        "warning",
        "the framework's schema and toolkit's declare different parameters",
        framework.framework_parameters,
    ),
    Rule(
        "TK703",
        "framework_required",
        "warning",
        "the framework's schema and toolkit's disagree on whether a parameter is required",
        framework.framework_required,
    ),
    Rule(
        "TK704",
        "framework_types",
        "warning",
        "the framework's schema and toolkit's give a parameter different JSON types",
        framework.framework_types,
    ),
    Rule(
        "TK705",
        "framework_description",
        "info",
        "the framework's schema and toolkit's describe a parameter differently",
        framework.framework_description,
    ),
    # descriptions that promise what the schema does not enforce (toolkit/_lints/_promises.py)
    Rule(
        "TK801",
        "length_unenforced",
        "warning",
        "the description promises a string length (at most 80 characters) the schema does not enforce",
        promises.length_unenforced,
    ),
    Rule(
        "TK802",
        "range_unenforced",
        "warning",
        "the description promises a numeric range (between 1 and 100) the schema does not enforce",
        promises.range_unenforced,
    ),
    Rule(
        "TK803",
        "count_unenforced",
        "warning",
        "the description promises an item count (up to 20 items) the schema does not enforce",
        promises.count_unenforced,
    ),
    Rule(
        "TK804",
        "format_unenforced",
        "warning",
        "the description promises a date or time format (YYYY-MM-DD) the schema does not enforce",
        promises.format_unenforced,
    ),
    Rule(
        "TK805",
        "pattern_unenforced",
        "warning",
        "the description promises an identifier shape (ord_ followed by 12 …) the schema does not enforce",
        promises.pattern_unenforced,
    ),
    # descriptions and schemas that state a constraint differently (toolkit/_lints/_contradictions.py)
    Rule(
        "TK806",
        "range_contradicted",
        "error",
        "the description states a numeric range (between 1 and 100) the schema bounds differently (maximum: 50)",
        contradictions.range_contradicted,
    ),
    Rule(
        "TK807",
        "length_contradicted",
        "error",
        "the description states a string length (at most 80 characters) the schema bounds differently (maxLength: 10)",
        contradictions.length_contradicted,
    ),
    Rule(
        "TK808",
        "count_contradicted",
        "error",
        "the description states an item count (up to 20 items) the schema bounds differently (maxItems: 5)",
        contradictions.count_contradicted,
    ),
    Rule(
        "TK809",
        "precision_unenforced",
        "warning",
        "the description promises decimal places (at most two decimal places, in cents) the schema does not enforce",
        promises.precision_unenforced,
    ),
    Rule(
        "TK810",
        "enum_contradicted",
        "error",
        "the description lists values (one of `a`, `b`) the schema's enum refuses (error) or that leave out "
        "some of the enum (warning)",
        contradictions.enum_contradicted,
    ),
)
"""Every lint rule, in code order. Codes and slugs are stable: never renumber, only add."""

FIELD_RULES = frozenset(
    {"TK102", "TK103", "TK201", "TK202", "TK301", "TK401", "TK402", "TK501"}
    | {"TK801", "TK802", "TK803", "TK804", "TK805", "TK806", "TK807", "TK808", "TK809", "TK810"}
)
"""The rules that judge each field alone (from its schema, name, path, depth and words, references resolved):
what they find in a field is the same wherever its schema is reached at its depth, but for the path it names
(:mod:`._shared` judges each such field once per document and names each finding's path again). A Python
``Decimal``'s bounds checked on conversion (:attr:`Subject.converted`) are read from the tool's losses, so a
tool that has any is linted alone. The others judge the tool (name, description, size, the number of top-level
parameters, the framework's schema)."""
PROMISE_RULES = frozenset({"TK801", "TK802", "TK803", "TK804", "TK805", "TK806", "TK807", "TK808", "TK809", "TK810"})
"""The field rules that read only the fields whose description promises something (:attr:`Subject.promises`,
:attr:`Subject.promising`): a field whose description promises nothing gets no finding from them."""
_FIELD_RULES = FieldRules(
    tuple(rule for rule in CATALOGUE if rule.code in FIELD_RULES),
    tuple(rule for rule in CATALOGUE if rule.code in FIELD_RULES - PROMISE_RULES),
)
