"""Ugly fixtures: the arguments a model really sends, generated from a tool's ``args_schema``.

:func:`fixtures` starts from a valid **baseline** call (every parameter with a valid example value) and
mutates one parameter at a time through the families in :mod:`toolkit._fixtures._families` (numeric strings,
wrong-case enums, free-text dates, values just past each bound, nulls, omissions, extra properties, ...).
Each :class:`Fixture` carries the verdict the contract predicts under the tool's policies — so the same
schema gives different expectations for a read tool (clamps) and a write tool (rejects). :func:`fire` runs
them through the validator and reports where the two disagree.

The families reach inside too (:mod:`toolkit._fixtures._nested`): nested object properties and array items
get the same mutations, one field at a time on the valid baseline, with ids and ``field`` paths in the
envelope's form (``address.postcode.numeric_as_string``, ``lines[0].qty.above_max``). A tool with many nested
fields gets a deterministic sample of at most ``nested_cap`` of them (default :data:`NESTED_CAP`) that covers
every depth and every family before repeating; :attr:`Fixtures.nested` and the report say how many were
generated out of how many were possible.

Ids are stable and readable: ``limit.above_max``, ``created_since.date_free_text.yesterday``,
``valid.baseline``, ``args.extra_property``. When no valid value can be made for a parameter (an
unsatisfiable or unreadable pattern, say), the fixtures that need one are skipped and
:attr:`Fixtures.skipped` says which and why.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from os import PathLike
from typing import TYPE_CHECKING, Any, cast

from toolkit._canonical import json_copy
from toolkit._contract import CONVERTED
from toolkit._fixtures._families import OMIT, Case, Param, Setting, param_cases
from toolkit._fixtures._fixture import EXPECTED, Fixture, Fixtures, load_fixtures
from toolkit._fixtures._nested import NESTED_CAP, nested_sites, place, sample
from toolkit._fixtures._report import FixtureReport, FixtureRow, verdict
from toolkit._fixtures._values import EXAMPLE, NO_VALUE, decimal_example, example
from toolkit._schema import Refs, Resolve, check_references, schema_types
from toolkit._validation._combinators import NO_DEFAULT, core, default_of
from toolkit._validation._compile import refuses_unlisted
from toolkit._validation._expected import format_path

if TYPE_CHECKING:
    from toolkit._tool import Tool

__all__ = ["EXPECTED", "NESTED_CAP", "Fixture", "FixtureReport", "FixtureRow", "Fixtures", "fire", "fixtures"]
__all__ += ["load_fixtures"]


def _params(schema: Mapping[str, Any], resolve: Resolve) -> list[Param]:
    required = set(schema.get("required") or ())
    out: list[Param] = []
    for name, raw in (schema.get("properties") or {}).items():
        inner, _ = core(raw, resolve)
        inner = inner if isinstance(inner, Mapping) else {}
        if inner.get("readOnly") is True:
            continue  # a request never carries it, and the validator never requires it
        types = schema_types(raw, resolve)
        default = default_of(raw, resolve)
        default = NO_VALUE if default is NO_DEFAULT else default
        valid = example(inner, resolve)
        nullable = types is None or "null" in types
        out.append(Param(name, inner, name in required, nullable, valid, default, resolve, types))
    return out


def _with_examples(tool: Tool) -> Mapping[str, Any]:
    """``args_schema``, with each node whose conversion checks bounds the schema cannot state (a ``Decimal``'s,
    recorded as losses) given the example that meets them (:data:`EXAMPLE`), wherever it is: a top-level
    parameter, an array's items, a model's field in ``$defs``. Without it the baseline call would be refused."""
    bounds: dict[str, dict[str, Any]] = {}
    for loss in tool.contract.source_losses:
        if loss.reason == CONVERTED:
            bounds.setdefault(loss.path, {})[loss.keyword] = loss.value
    schema = tool.contract.args_schema
    if not bounds:
        return schema
    view: Any = json_copy(schema)
    refs = Refs(view)
    for pointer, kept in bounds.items():
        node = refs.lookup("#" + pointer)
        if isinstance(node, dict):
            node[EXAMPLE] = decimal_example(kept)
    return cast("Mapping[str, Any]", view)


def _setting(tool: Tool) -> Setting:
    policy = tool.policy
    insensitive, null_absent = policy.enum_case == "insensitive", policy.null_optional == "absent"
    return Setting(policy.clamps(tool.effect), insensitive, null_absent, policy.unlisted_properties == "refuse")


def _noisy_default(p: Param) -> bool:
    return not p.required and p.default is not NO_VALUE and p.default is not None


def _root_cases(tool: Tool, baseline: dict[str, Any], params: list[Param]) -> Iterator[Fixture]:
    schema = tool.contract.args_schema
    closed = refuses_unlisted(schema, Refs(schema), tool.policy.unlisted_properties == "refuse")
    unknown = "unexpected_field" if all(p.name != "unexpected_field" for p in params) else "unexpected_field_2"
    yield Fixture("args.extra_property", "extra_property", {**baseline, unknown: "x"},
                  "reject" if closed else "accept", f"a property ({unknown}) the schema never declared")  # fmt: skip
    yield Fixture("args.invalid_json", "invalid_json", '{"' + (params[0].name if params else "a") + '": ',
                  "reject", "truncated JSON text")  # fmt: skip
    yield Fixture("args.not_an_object", "not_an_object", [baseline], "reject", "an array instead of an object")


def _baselines(params: list[Param]) -> Iterator[Fixture]:
    full = {p.name: p.valid for p in params if p.valid is not NO_VALUE}
    omitted = [p for p in params if p.valid is NO_VALUE]
    noisy = any(_noisy_default(p) for p in omitted)
    yield Fixture("valid.baseline", "valid", full, "accept_with_notice" if noisy else "accept",
                  "every parameter with a valid value")  # fmt: skip
    minimal = {p.name: p.valid for p in params if p.required}
    if len(minimal) < len(full):
        noisy = any(_noisy_default(p) for p in params)
        yield Fixture("valid.minimal", "valid", minimal, "accept_with_notice" if noisy else "accept",
                      "only the required parameters" + ("; defaults apply (reported)" if noisy else ""))  # fmt: skip


def _top_level(p: Param, case: Case, baseline: dict[str, Any]) -> dict[str, Any]:
    args = dict(baseline)
    if case.value is OMIT:
        args.pop(p.name, None)
    else:
        args[p.name] = case.value
    return args


def _case_fixture(p: Param, case: Case, args: dict[str, Any], noisy: frozenset[str], field: str) -> Fixture:
    """``noisy``: parameters left out of the baseline (no valid value) whose default will be reported;
    ``field``: the changed value's path as the envelope writes it."""
    suffix = f".{case.variant}" if case.variant else ""
    expected = case.expected
    if expected == "accept" and noisy - {p.name}:
        expected = "accept_with_notice"
    return Fixture(f"{p.name}.{case.family}{suffix}", case.family, args, expected, case.why, field)


def _inside(
    params: list[Param], baseline: dict[str, Any], resolve: Resolve, setting: Setting, cap: int | None
) -> tuple[list[Fixture], int]:
    """The nested-field fixtures (a sample of at most ``cap``) and how many were possible."""
    noisy = frozenset(p.name for p in params if p.valid is NO_VALUE and _noisy_default(p))
    sites = nested_sites(params, baseline, resolve)
    candidates = [(site, case) for site in sites for case in param_cases(site.param, setting)]
    chosen = sample(candidates, cap)
    found = [_case_fixture(site.param, case, place(baseline, site, case.value), noisy, site.param.name)
             for site, case in chosen]  # fmt: skip
    return found, len(candidates)


def _unique(found: Iterable[Fixture]) -> list[Fixture]:
    seen: dict[str, int] = {}
    out: list[Fixture] = []
    for fx in found:
        count = seen.get(fx.id, 0)
        seen[fx.id] = count + 1
        again = Fixture(f"{fx.id}.{count + 1}", fx.family, fx.args, fx.expected, fx.why, fx.field) if count else fx
        out.append(again)
    return out


def fixtures(
    tool: Tool, extra: Iterable[Fixture] | str | PathLike[str] | None = None, *, nested_cap: int | None = NESTED_CAP
) -> Fixtures:
    """The ugly fixtures for ``tool``, with verdicts under its policies; ``extra`` adds user fixtures.

    Every top-level parameter gets every family that applies; nested fields get a deterministic sample of
    at most ``nested_cap`` fixtures (``None``: all of them), counted in :attr:`Fixtures.nested`."""
    schema = _with_examples(tool)
    resolve = Refs(schema)
    check_references(schema, resolve)  # the validator's refusals, with its slugs (the view has the same $refs)
    params = _params(schema, resolve)
    setting = _setting(tool)
    missing = [p for p in params if p.required and p.valid is NO_VALUE]
    found: list[Fixture] = []
    skipped: list[str] = []
    nested = (0, 0)
    if missing:
        names = ", ".join(p.name for p in missing)
        skipped.append(f"no valid value could be made for required {names}: parameter fixtures skipped")
        baseline: dict[str, Any] = {}
    else:
        baseline = {p.name: p.valid for p in params if p.valid is not NO_VALUE}
        found.extend(_baselines(params))
        noisy = frozenset(p.name for p in params if p.valid is NO_VALUE and _noisy_default(p))
        for p in params:
            if p.valid is NO_VALUE:
                skipped.append(f"no valid value could be made for {p.name}; its value families are partial")
            cases = param_cases(p, setting)
            field = format_path((None, p.name))
            found.extend(_case_fixture(p, case, _top_level(p, case, baseline), noisy, field) for case in cases)
        inside, possible = _inside(params, baseline, resolve, setting, nested_cap)
        found.extend(inside)
        nested = (len(inside), possible)
    found.extend(_root_cases(tool, baseline, params))
    if extra is not None:
        found.extend(load_fixtures(extra) if isinstance(extra, str | PathLike) else extra)
    out = Fixtures(_unique(found))
    out.skipped = tuple(skipped)
    out.nested = nested
    return out


_every_fixture = fixtures  # what `fire` generates when given none (its parameter takes the public name)


def fire(tool: Tool, fixtures: Iterable[Fixture] | None = None) -> FixtureReport:
    """Run ``fixtures`` (default: :func:`toolkit.fixtures` of the tool) through ``tool.validate``."""
    chosen = list(fixtures) if fixtures is not None else _every_fixture(tool)
    given = fixtures if fixtures is not None else chosen
    skipped, nested = getattr(given, "skipped", ()), getattr(given, "nested", (0, 0))
    rows = []
    for fixture in chosen:
        result = tool.validate(fixture.args)
        rows.append(FixtureRow(fixture, verdict(result), result))
    return FixtureReport(tool.name, tuple(rows), tuple(skipped), nested)
