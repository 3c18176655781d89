"""Strict structural and domain validation of a tool call's arguments → a :class:`ToolResult`.

Two checks, two statuses, as the contract article asks:

* **structural** — does the JSON conform to the published ``args_schema`` (the full 2020-12 schema, never
  the lowered declaration, so every constraint lowering dropped is still enforced)? Failures mean the model
  misread the schema: ``status: "invalid_arguments"``, with every problem found in one pass (at most
  :data:`MAX_FIELD_ERRORS` of them, and an ``errors_truncated`` notice counting the rest).
* **domain** — is the structurally valid request one we will do? Runs only when the structure is valid,
  through ``tool.domain_checks`` (callables, or declarative rules made by :func:`domain_rules`). Failures
  mean the model read the schema fine and asked for something we refuse: ``status: "rejected"``.

An ok result carries the **cleaned arguments** in ``data``: defaults applied, clamped and case-normalised
values in place, ``10.0`` for an integer read as ``10``; every change is reported as a :class:`Notice`.
The instance is validated as sent: defaults are filled in afterwards, so no keyword ever sees one.

Decisions:

* ``args`` may be a dict or JSON text (``str`` or UTF-8 ``bytes``); ``None`` means "no arguments" (``{}``).
  Text that is not JSON, or JSON that is not an object, is ``invalid_arguments`` with a field error at the
  root (``field: ""``).
* Before the schema, the payload is admitted (:mod:`toolkit._validation._admit`): at most
  :data:`MAX_ARGUMENT_SIZE` characters of JSON (``too_large``), nested at most :data:`MAX_DEPTH` levels
  (``too_deep``), JSON values only (``invalid_json`` for a Python set, a non-string key, a cycle ...), and
  finite numbers only (``not_finite``: ``NaN``, ``Infinity``, and JSON text such as ``1e400``, which no float
  holds, are refused, never read as infinity). Integers of any length are read exactly.
* JSON Schema 2020-12 says ``10.0`` *is* an integer, so it is accepted (and cleaned to ``10``);
  ``10.5`` is not. ``true`` is never a number and ``"10"`` never an integer.

Which engine answers which call. A tool's schema is compiled once, on its first call, into a
:class:`Validator` kept on the tool (a schema that cannot be compiled raises the same :class:`SchemaError` on
every call):

* the **interpreter** (:mod:`toolkit._validation._compile` with :mod:`._checks`, :mod:`._objects`,
  :mod:`._arrays` and :mod:`._combinators`) is the definition: it answers every call the fast tier does not,
  and words every error and notice;
* the **fast tier** (:mod:`toolkit._validation._fastpath`) is a compiled form of the interpreter's checks for
  the nodes it knows (flat scalars, arrays of them, optional wrappers). For a dict whose root object is all
  such properties, a generated function answers first: the ``ok`` envelope of a call every value of which the
  interpreter would pass unchanged, or the interpreter's own invalid envelope, built from its compiled checks;
  any other call it declines (``None``) and the interpreter answers from the start. Inside the interpreter,
  each object check tries a property's plain test (a shortcut from the same writer) before its compiled
  check, at any depth.

``validate(tool, args, fast=False)`` (and ``Tool.validate(args, fast=False)``) sets the fast tier aside: the
interpreter alone answers, with neither the generated function nor the shortcuts, which is what tests compare
the fast tier against.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from toolkit._envelope import FieldError, ToolResult
from toolkit._exceptions import SchemaError, ToolkitError
from toolkit._validation._admit import MAX_ARGUMENT_SIZE, admit, too_large
from toolkit._validation._checks import MAX_DEPTH, MAX_FIELD_ERRORS, Check, Run, short
from toolkit._validation._closure import written_closure
from toolkit._validation._compile import Options, compile_schema, raising
from toolkit._validation._expected import type_name
from toolkit._validation._fastpath import FastPath, fast_path, property_predicate
from toolkit._validation._objects import apply_defaults
from toolkit._validation._results import invalid_of, ok_result, safe_message

if TYPE_CHECKING:
    from toolkit._tool import DomainCheck, Tool

__all__ = [
    "MAX_ARGUMENT_SIZE",
    "MAX_DEPTH",
    "MAX_FIELD_ERRORS",
    "Validator",
    "compiled",
    "domain_rules",
    "enforced_schema",
    "validate",
]

_ROOT_EXPECTED = "a JSON object of arguments"


def options_for(tool: Tool) -> Options:
    """The tool's policies, as the compiler needs them."""
    policy = tool.policy
    return Options(
        clamp=policy.clamps(tool.effect),
        enum_insensitive=policy.enum_case == "insensitive",
        null_as_absent=policy.null_optional == "absent",
        closed=policy.unlisted_properties == "refuse",
    )


class Validator:
    """A tool's validator under its policy, made once (by :func:`compiled`) and kept on the tool.

    ``check`` is the interpreter with the fast tier's shortcuts; ``fast`` the generated function for the root
    object (``None`` when the schema is outside the fast subset); :meth:`plain` the interpreter alone, made
    when ``validate(..., fast=False)`` first asks. ``error`` is the :class:`SchemaError` of a schema that
    cannot be compiled, raised again on every call.
    """

    __slots__ = ("_plain", "check", "error", "fast", "options", "schema")

    def __init__(self, schema: Mapping[str, Any], options: Options) -> None:
        self.schema, self.options = schema, options
        self.fast: FastPath | None = None
        self.error: ToolkitError | None = None
        self._plain: Check | None = None
        try:
            self.check = compile_schema(schema, options, property_predicate)
        except ToolkitError as error:
            self.error = error
            self.check = self._plain = raising(error)  # compiled() raises it first; nothing gets this far
            return
        self.fast = fast_path(schema, options)

    def plain(self) -> Check:
        """The interpreter alone: no generated code, no shortcuts (what the fast tier must agree with)."""
        if self._plain is None:
            self._plain = compile_schema(self.schema, self.options)
        return self._plain


def enforced_schema(tool: Tool) -> Mapping[str, Any]:
    """The schema the tool's validator enforces (``Tool.args_schema``), made on first use and kept on the tool:
    the contract's ``args_schema`` with the closed-object policy written in when the policy refuses unlisted
    keys (:func:`toolkit._validation._closure.written_closure`), so any 2020-12 validator given it agrees."""
    schema = tool._artefacts.schema
    if schema is None:
        schema = tool.contract.args_schema
        if tool.policy.unlisted_properties == "refuse":
            schema = written_closure(schema)
        tool._artefacts.schema = schema
    return schema


def compiled(tool: Tool) -> Validator:
    """The tool's validator, made on first use and kept on the tool; a schema that cannot be compiled raises
    the same :class:`SchemaError` on every call."""
    validator = tool._artefacts.validator
    if validator is None:
        validator = tool._artefacts.validator = Validator(enforced_schema(tool), options_for(tool))
    if validator.error is not None:
        raise validator.error
    return validator


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _read_int(text: str) -> int:
    """A JSON integer of any length: ``int()`` refuses text over 4,300 digits, ``Decimal`` does not."""
    return int(text) if len(text) < 4000 else int(Decimal(text))


def _parse(args: Any) -> tuple[Any, FieldError | None]:
    if args is None:
        return {}, None
    if isinstance(args, bytes | bytearray):
        if len(args) > 4 * MAX_ARGUMENT_SIZE:  # four UTF-8 bytes at most per character
            return None, _too_large()
        try:
            args = args.decode("utf-8")
        except UnicodeDecodeError as exc:
            return None, FieldError("", "invalid_json", f"not UTF-8 text: {exc.reason}", _ROOT_EXPECTED)
    if not isinstance(args, str):
        return args, None
    if len(args) > MAX_ARGUMENT_SIZE:
        return None, _too_large()
    try:
        return json.loads(args, parse_constant=_reject_constant, parse_int=_read_int), None
    except RecursionError:
        return None, FieldError("", "too_deep", "JSON nested too deeply", _ROOT_EXPECTED)
    except ValueError as exc:
        return None, FieldError("", "invalid_json", f"not valid JSON: {exc}", _ROOT_EXPECTED)


def _too_large() -> FieldError:
    run = Run()
    too_large(run)
    return run.errors[0]


def _root_error(value: Any) -> FieldError:
    return FieldError("", "wrong_type", f"arguments must be a JSON object, got {type_name(value)} {short(value)}",
                      _ROOT_EXPECTED)  # fmt: skip


def validate(tool: Tool, args: Any, fast: bool = True) -> ToolResult:
    """Check ``args`` against ``tool.args_schema`` and the tool's domain checks. Never raises for bad args.

    ``fast=False`` sets the fast tier aside: the interpreter alone answers (the same envelope, slower). (Not
    keyword-only: a call that leaves a keyword-only argument to its default pays a dictionary lookup for it.)
    """
    validator = tool._artefacts.validator
    if validator is None or validator.error is not None:
        validator = compiled(tool)
    if type(args) is dict and fast:  # the common case: a dict straight from the model's function call
        quick = validator.fast
        if quick is not None and (result := quick(args)) is not None:
            return _run_domain_on(tool.domain_checks, result) if tool.domain_checks and result.ok else result
    check = validator.check if fast else validator.plain()
    if type(args) is dict:
        value = args
    else:
        value, problem = _parse(args)
        if problem is None and type(value) is not dict:
            problem = _root_error(value)
        if problem is not None:
            return ToolResult("invalid_arguments", errors=(problem,))
    run = Run()
    admit(value, run)
    if run.errors:
        return invalid_of(run.errors, run.more)
    cleaned = check(value, None, run)
    if run.errors:
        return invalid_of(run.errors, run.more)
    if run.defaults:
        apply_defaults(cleaned, run.defaults, run)
    notices = tuple(run.notices)
    if tool.domain_checks:
        refused = _run_domain(tool.domain_checks, cleaned)
        if isinstance(refused, ToolResult):
            return refused
        if refused:
            return ToolResult("rejected", errors=refused, notices=notices)
    return ok_result(cleaned, notices)


def _run_domain_on(checks: Iterable[DomainCheck], result: ToolResult) -> ToolResult:
    """The domain checks' verdict on an ok result from the fast path (see :func:`validate`)."""
    refused = _run_domain(checks, result.data)
    if isinstance(refused, ToolResult):
        return refused
    return ToolResult("rejected", errors=refused, notices=result.notices) if refused else result


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
