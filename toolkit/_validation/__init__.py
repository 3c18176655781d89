"""Strict structural and domain validation of a tool call's arguments → a :class:`ToolResult`.

Two checks, two statuses, as the contract article asks:

* **structural** — does the JSON conform to the published ``args_schema`` (the full 2020-12 schema, never
  the lowered declaration, so every constraint lowering dropped is still enforced)? Failures mean the model
  misread the schema: ``status: "invalid_arguments"``, with *every* problem found in one pass.
* **domain** — is the structurally valid request one we will do? Runs only when the structure is valid,
  through ``tool.domain_checks`` (callables, or declarative rules made by :func:`domain_rules`). Failures
  mean the model read the schema fine and asked for something we refuse: ``status: "rejected"``.

An ok result carries the **cleaned arguments** in ``data``: defaults applied, clamped and case-normalised
values in place, ``10.0`` for an integer read as ``10``; every change is reported as a :class:`Notice`.

Decisions:

* ``args`` may be a dict or JSON text; ``None`` means "no arguments" (``{}``). Text that is not JSON, or
  JSON that is not an object, is ``invalid_arguments`` with a field error at the root (``field: ""``).
* JSON Schema 2020-12 says ``10.0`` *is* an integer, so it is accepted (and cleaned to ``10``);
  ``10.5`` is not. ``true`` is never a number and ``"10"`` never an integer.
* ``NaN``/``Infinity`` in JSON text are refused (they are not JSON).

Schemas are compiled once per tool into closures (see :mod:`toolkit._validation._compile`) and kept in ``tool._cache``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from toolkit._envelope import FieldError, ToolResult
from toolkit._exceptions import SchemaError, ToolkitError
from toolkit._validation._checks import Check, Run, short
from toolkit._validation._compile import Options, compile_schema
from toolkit._validation._expected import type_name
from toolkit._validation._invoke import safe_message

if TYPE_CHECKING:
    from toolkit._tool import DomainCheck, Tool

__all__ = ["compiled", "domain_rules", "validate"]

_ROOT_EXPECTED = "a JSON object of arguments"


def options_for(tool: Tool) -> Options:
    """The tool's policies, as the compiler needs them."""
    policy = tool.policy
    return Options(
        clamp=policy.clamps(tool.effect),
        enum_insensitive=policy.enum_case == "insensitive",
        null_as_absent=policy.null_optional == "absent",
    )


def compiled(tool: Tool) -> Check:
    """The tool's compiled validator, built on first use and cached on the tool."""
    check: Check | None = tool._cache.get("validator")
    if check is None:
        check = tool._cache["validator"] = compile_schema(tool.contract.args_schema, options_for(tool))
    return check


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _parse(args: Any) -> tuple[Any, FieldError | None]:
    if args is None:
        return {}, None
    if isinstance(args, bytes | bytearray):
        try:
            args = args.decode("utf-8")
        except UnicodeDecodeError as exc:
            return None, FieldError("", "invalid_json", f"not UTF-8 text: {exc.reason}", _ROOT_EXPECTED)
    if not isinstance(args, str):
        return args, None
    try:
        return json.loads(args, parse_constant=_reject_constant), None
    except RecursionError:
        return None, FieldError("", "invalid_json", "JSON nested too deeply", _ROOT_EXPECTED)
    except ValueError as exc:
        return None, FieldError("", "invalid_json", f"not valid JSON: {exc}", _ROOT_EXPECTED)


def _root_error(value: Any) -> FieldError:
    return FieldError("", "wrong_type", f"arguments must be a JSON object, got {type_name(value)} {short(value)}",
                      _ROOT_EXPECTED)  # fmt: skip


def validate(tool: Tool, args: Any) -> ToolResult:
    """Check ``args`` against ``tool.args_schema`` and the tool's domain checks. Never raises for bad args."""
    check = tool._cache.get("validator") or compiled(tool)
    if type(args) is dict:  # the common case: a dict straight from the model's function call
        value = args
    else:
        value, problem = _parse(args)
        if problem is None and type(value) is not dict:
            problem = _root_error(value)
        if problem is not None:
            return ToolResult("invalid_arguments", errors=(problem,))
    run = Run()
    cleaned = check(value, None, run)
    if run.errors:
        return ToolResult("invalid_arguments", errors=tuple(run.errors))
    notices = tuple(run.notices)
    if tool.domain_checks:
        refused = _run_domain(tool.domain_checks, cleaned)
        if isinstance(refused, ToolResult):
            return refused
        if refused:
            return ToolResult("rejected", errors=refused, notices=notices)
    return ToolResult("ok", data=cleaned, notices=notices)


def _run_domain(checks: Iterable[DomainCheck], cleaned: Mapping[str, Any]) -> tuple[FieldError, ...] | ToolResult:
    """Every domain check's errors; a check that crashes is a tool bug, reported as ``status: "error"``."""
    found: list[FieldError] = []
    for domain_check in checks:
        try:
            for item in domain_check(cleaned) or ():
                found.append(item if isinstance(item, FieldError) else FieldError("", "domain_rule", str(item), ""))
        except ToolkitError:
            raise
        except Exception as exc:
            name = getattr(domain_check, "__name__", type(domain_check).__name__)
            return ToolResult("error", message=f"domain check {name} failed: {safe_message(exc)}", retryable=False)
    return tuple(found)


# -- declarative domain rules ----------------------------------------------------------------------
_RULE_KEYS = ("field", "schema", "problem", "expected")


def _lookup(args: Mapping[str, Any], field: str) -> tuple[bool, Any]:
    node: Any = args
    for part in field.split("."):
        if not isinstance(node, Mapping) or part not in node:
            return False, None
        node = node[part]
    return True, node


def _rule_check(rule: Mapping[str, Any]) -> DomainCheck:
    field, schema = str(rule["field"]), rule["schema"]
    problem, expected = str(rule["problem"]), str(rule["expected"])
    try:
        check = compile_schema(schema, Options(null_as_absent=False))
    except ToolkitError:
        raise
    except Exception as exc:  # a schema the compiler cannot read: the rule is the author's mistake
        raise SchemaError(
            f"domain rule for {field!r}: its schema cannot be compiled ({type(exc).__name__}); give it a valid JSON "
            "Schema",
            slug="bad_domain_rule",
        ) from None

    def domain_rule(args: Mapping[str, Any]) -> Iterable[FieldError]:
        present, value = _lookup(args, field)
        if not present:
            return ()
        run = Run()
        check(value, None, run)
        return (FieldError(field, "domain_rule", problem, expected),) if run.errors else ()

    domain_rule.__name__ = f"domain_rule[{field}]"
    return domain_rule


def domain_rules(rules: Iterable[Mapping[str, Any]]) -> tuple[DomainCheck, ...]:
    """Turn declarative rules ``{field, schema, problem, expected}`` into domain checks.

    The value at ``field`` (a dotted path into the cleaned arguments) must satisfy the JSON Schema
    ``schema``; otherwise the call is ``rejected`` with a ``domain_rule`` error carrying the rule's own
    ``problem`` and ``expected`` words. A field that is absent is not checked (required-ness is structural).
    """
    checks: list[DomainCheck] = []
    for i, rule in enumerate(rules):
        if not isinstance(rule, Mapping) or any(k not in rule for k in _RULE_KEYS):
            raise SchemaError(
                f"domain rule #{i} must be a mapping with keys {', '.join(_RULE_KEYS)}; got {rule!r}",
                slug="bad_domain_rule",
            )
        if not isinstance(rule["schema"], Mapping | bool):
            raise SchemaError(f"domain rule #{i}: 'schema' must be a JSON Schema object", slug="bad_domain_rule")
        checks.append(_rule_check(rule))
    return tuple(checks)
