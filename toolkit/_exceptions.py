"""The misuse-error tree.

Errors *for the model* are data (:class:`toolkit.FieldError` inside a :class:`toolkit.ToolResult`).
Exceptions are for the programmer only, and every one of them comes from this small tree::

    ToolkitError                    root: catch this to catch everything the package raises
    ├── SignatureError              a Python callable cannot become a tool (``*args``, no annotation, ...)
    ├── SchemaError                 a JSON Schema cannot be read or lowered (unknown dialect, bad shape)
    ├── SpecError                   an OpenAPI document cannot be loaded at all (parse error, YAML bomb, ...)
    │   └── ChecksumMismatch        a pinned spec's bytes changed
    ├── NamingError                 tool names collide or break the name rule
    ├── TargetError                 a target (``file.py:function``, a module) cannot be found, imported or used
    ├── GoldenError                 golden files cannot be read or written
    ├── CodegenError                a toolset cannot be turned into modules
    └── RuntimeConfigError          the runtime is misconfigured (missing credentials, ledger path, ...)
        └── LedgerError             the ledger file cannot be used (locked, corrupt, foreign, read-only, ...)

Every error carries a stable ``slug`` (tests and tools match on it, never on the message) and a message
that says how to fix the problem. :data:`ERROR_SLUGS` is the one table of slugs: which class raises each and
what it means (the README's reference section is rendered from it); :data:`ErrorSlug` is its ``Literal``
alias, so mypy checks every ``slug=`` literal. ``tests/test_vocabularies.py`` keeps both in step with the
package's source.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, NamedTuple

__all__ = [
    "ERROR_SLUGS",
    "ChecksumMismatch",
    "CodegenError",
    "ErrorSlug",
    "GoldenError",
    "LedgerError",
    "NamingError",
    "RuntimeConfigError",
    "SchemaError",
    "SignatureError",
    "Slug",
    "SpecError",
    "TargetError",
    "ToolkitError",
]

ErrorSlug = Literal[
    "adk_missing",
    "adk_refused",
    "bad_base_url",
    "bad_budget",
    "bad_credential",
    "bad_credential_provider",
    "bad_domain_rule",
    "bad_effect",
    "bad_fixture_file",
    "bad_key",
    "bad_keyword",
    "bad_lock",
    "bad_max_depth",
    "bad_module_name",
    "bad_name",
    "bad_namespace",
    "bad_overrides",
    "bad_package",
    "bad_parameter_name",
    "bad_paths",
    "bad_pattern",
    "bad_ref",
    "bad_schema",
    "bad_select",
    "bad_signature",
    "bad_source",
    "bad_spec",
    "bad_target",
    "bad_tool_call",
    "bad_tool_name",
    "bad_trim",
    "bad_value",
    "bad_version",
    "checksum_mismatch",
    "codegen_error",
    "cyclic_document",
    "declaration_over_budget",
    "demo_api_start",
    "domain_not_declarative",
    "duplicate_batch_id",
    "duplicate_context",
    "git_failed",
    "golden_error",
    "golden_manifest",
    "golden_name",
    "golden_write",
    "huge_integer",
    "lambda_needs_name",
    "ledger_corrupt",
    "ledger_error",
    "ledger_locked",
    "ledger_path",
    "ledger_read_only",
    "ledger_schema",
    "ledger_unavailable",
    "left_recursive_ref",
    "missing_annotation",
    "missing_context",
    "missing_credential",
    "missing_extra",
    "mixed_context",
    "module_collision",
    "no_base_url",
    "no_ledger_connection",
    "no_signature",
    "no_tool_function",
    "no_tools",
    "no_tools_in_module",
    "not_a_mapping",
    "not_callable",
    "not_found",
    "not_http_tool",
    "not_openapi",
    "not_servable",
    "nothing_to_serve",
    "parse_error",
    "pattern_too_slow",
    "positional_only",
    "provider_error",
    "remote_host",
    "remote_ref",
    "runtime_config",
    "schema_too_deep",
    "schema_too_large",
    "target_import_error",
    "target_not_found",
    "target_syntax_error",
    "too_deep",
    "too_large",
    "toolkit_error",
    "unbound_method",
    "unknown_dialect",
    "unknown_function",
    "unknown_operation",
    "unresolved_annotation",
    "unresolved_ref",
    "unsupported_keyword",
    "unsupported_type",
    "usage",
    "varargs",
    "varkw",
    "yaml_bomb",
    "yaml_recursive",
]


class ToolkitError(Exception):
    """Root of every exception the package raises on purpose."""

    slug: ErrorSlug = "toolkit_error"

    def __init__(self, message: str, *, slug: ErrorSlug | None = None) -> None:
        super().__init__(message)
        if slug is not None:
            self.slug = slug

    @property
    def message(self) -> str:
        return str(self.args[0]) if self.args else ""

    def __repr__(self) -> str:
        return f"{type(self).__name__}(slug={self.slug!r}, message={self.message!r})"


class SignatureError(ToolkitError, TypeError):
    """A callable's signature cannot be turned into a tool contract."""

    slug: ErrorSlug = "bad_signature"


class SchemaError(ToolkitError, ValueError):
    """A JSON Schema is malformed or cannot be lowered."""

    slug: ErrorSlug = "bad_schema"


class SpecError(ToolkitError, ValueError):
    """An OpenAPI document cannot be loaded or read."""

    slug: ErrorSlug = "bad_spec"


class ChecksumMismatch(SpecError):
    """A pinned spec's bytes differ from the digest recorded in the lock file."""

    slug: ErrorSlug = "checksum_mismatch"


class NamingError(ToolkitError, ValueError):
    """Tool names collide after sanitising, or break the declaration name rule."""

    slug: ErrorSlug = "bad_name"


class TargetError(ToolkitError, ValueError):
    """A target names no file, module or function, or the user's file fails to import.

    ``path`` and ``line`` locate the mistake in the user's file when there is one (a syntax error, the line
    that raised while importing), so an editor or the CLI can point at it.
    """

    slug: ErrorSlug = "bad_target"

    def __init__(
        self, message: str, *, slug: ErrorSlug | None = None, path: str | None = None, line: int | None = None
    ) -> None:
        super().__init__(message, slug=slug)
        self.path = path
        self.line = line


class GoldenError(ToolkitError, OSError):
    """Golden files cannot be read, parsed or written."""

    slug: ErrorSlug = "golden_error"


class CodegenError(ToolkitError, ValueError):
    """A toolset cannot be turned into generated modules."""

    slug: ErrorSlug = "codegen_error"


class RuntimeConfigError(ToolkitError, RuntimeError):
    """The tool runtime is misconfigured."""

    slug: ErrorSlug = "runtime_config"


class LedgerError(RuntimeConfigError):
    """The idempotency ledger's file cannot be used; the slug says why (``ledger_locked``, ``ledger_corrupt``,
    ``ledger_schema``, ``ledger_path``, ``ledger_read_only``, ``ledger_unavailable``) and the message names the
    file and what to do. Only a lock is worth retrying (``retryable``, which the executor reads)."""

    slug: ErrorSlug = "ledger_error"

    @property
    def retryable(self) -> bool:
        return self.slug == "ledger_locked"


class Slug(NamedTuple):
    """One entry of :data:`ERROR_SLUGS`: the classes that raise the slug and what it means."""

    raised_by: tuple[type[ToolkitError], ...]
    meaning: str


_ROOT, _SIG, _SCHEMA, _SPEC = (ToolkitError,), (SignatureError,), (SchemaError,), (SpecError,)
_NAMING, _GOLDEN, _CODEGEN, _RUNTIME = (NamingError,), (GoldenError,), (CodegenError,), (RuntimeConfigError,)
_TARGET = (TargetError,)

ERROR_SLUGS: Mapping[ErrorSlug, Slug] = {
    # ToolkitError itself: the command line and its targets
    "toolkit_error": Slug(_ROOT, "the root's default: a target, module or `toolkit diff` side that cannot be used"),
    "bad_fixture_file": Slug(_ROOT, "a fixtures file cannot be read or parsed, or a fixture in it is malformed"),
    "git_failed": Slug(_ROOT, "a git command behind `toolkit diff --git REV` failed (a wrong revision name?)"),
    "bad_tool_call": Slug(_ROOT, "the object given as a provider's tool call is not one in the dialect's shape"),
    "missing_extra": Slug(_ROOT, "a feature needs a package of an extra that is not installed (`demo`, `mcp`, ...)"),
    "provider_error": Slug(_ROOT, "a provider's API answered a live request with an error (the message quotes it)"),
    "not_callable": Slug(
        (SignatureError, TargetError, ToolkitError),
        "the object is not callable, or the tool has no Python function to call (an OpenAPI tool)",
    ),
    "unknown_operation": Slug(_ROOT, "the target has no operation or tool by the name `--op` gives"),
    "usage": Slug(_ROOT, "the command line does not fit: wrong number of sides, an option the target cannot take"),
    # TargetError: a target cannot be found, imported or used
    "bad_target": Slug(_TARGET, "the target is not `file.py:function`, `module:function`, a module or a spec file"),
    "no_tools_in_module": Slug(_TARGET, "the target module defines no Tool or Toolset: name a function instead"),
    "target_import_error": Slug(_TARGET, "importing the target raised (a missing package, an error at import)"),
    "target_not_found": Slug(_TARGET, "no Python file or module at the path or name the target gives"),
    "target_syntax_error": Slug(_TARGET, "the target file (or a file it imports) is not valid Python"),
    "unknown_function": Slug(_TARGET, "the target's module has no function, Tool or Toolset of that name"),
    # SignatureError: a Python callable cannot become a tool
    "bad_signature": Slug(_SIG, "SignatureError's default: the callable cannot become a tool"),
    "bad_effect": Slug(_SIG, '`effect=` is neither "read" nor "write"'),
    "bad_parameter_name": Slug(_SIG, "a parameter name breaks the declaration rule `[A-Za-z_][A-Za-z0-9_]{0,63}`"),
    "duplicate_context": Slug(_SIG, "the function takes two `ToolContext` parameters"),
    "lambda_needs_name": Slug(_SIG, "a lambda has no name the model can call: pass `name=`"),
    "missing_annotation": Slug(_SIG, "a parameter has no type annotation"),
    "mixed_context": Slug(_SIG, "a parameter's type is a union of a context the runtime fills and data"),
    "no_tool_function": Slug(_SIG, "a framework's tool object carries no Python function to read"),
    "no_signature": Slug(_SIG, "the callable's signature cannot be read"),
    "positional_only": Slug(_SIG, "a parameter is positional-only; the model passes arguments by name"),
    "unbound_method": Slug(_SIG, "an unbound method: pass a bound one (`instance.method`)"),
    "unresolved_annotation": Slug(_SIG, "a type annotation cannot be resolved in the function's module"),
    "unsupported_type": Slug(_SIG, "a parameter type cannot be described as JSON Schema"),
    "varargs": Slug(_SIG, "the function takes `*args`; the model calls tools with named arguments only"),
    "varkw": Slug(_SIG, "the function takes `**kwargs`, which cannot be declared or validated"),
    # SchemaError: a JSON Schema cannot be read, validated or lowered
    "bad_schema": Slug(_SCHEMA, "a schema (or a node in it) is not a JSON object or boolean"),
    "bad_domain_rule": Slug(_SCHEMA, "a declarative domain rule is not a mapping of field, schema, problem, expected"),
    "bad_budget": Slug(_SCHEMA, "a declaration budget is not a positive number of bytes (or None)"),
    "declaration_over_budget": Slug(
        _SCHEMA, "a declaration is over its size budget even with every reduction (raise the budget or split the tool)"
    ),
    "bad_keyword": Slug(_SCHEMA, "a schema keyword's value has a shape JSON Schema 2020-12 does not allow"),
    "bad_max_depth": Slug(_SCHEMA, "`max_depth` is not a non-negative integer"),
    "bad_pattern": Slug(_SCHEMA, "a `pattern` (or `patternProperties` key) is not an ECMA-262 regular expression"),
    "bad_ref": Slug(_SCHEMA, "a `$ref` the validator reads is not a string or does not resolve inside the schema"),
    "pattern_too_slow": Slug(_SCHEMA, "a pattern only a backtracking engine can run took longer than its time limit"),
    "unsupported_keyword": Slug(_SCHEMA, "a keyword of an older draft that 2020-12 replaced (`dependencies`, ...)"),
    "left_recursive_ref": Slug(_SCHEMA, "a schema refers back to itself without reading into the value"),
    "remote_ref": Slug(_SCHEMA, "a `$ref` points outside the schema (remote schemas are never fetched)"),
    "schema_too_deep": Slug(_SCHEMA, "a schema, or a default, enum or const in it, nests too deep or contains itself"),
    "schema_too_large": Slug(_SCHEMA, "lowering a schema needs more nodes or steps than its budget"),
    "unknown_dialect": Slug(_SCHEMA, "no lowering dialect by that name"),
    "adk_refused": Slug(_SCHEMA, "google-adk (google-genai) refuses the tool's declaration"),
    "unresolved_ref": Slug(_SCHEMA, "a `$ref` points to nothing (or names an anchor no schema declares)"),
    # SpecError: an OpenAPI document cannot be loaded at all
    "bad_spec": Slug(_SPEC, "SpecError's default: the OpenAPI document or spec file cannot be loaded"),
    "bad_lock": Slug(_SPEC, "the pin lock file is unreadable or malformed, or `pin()` got no files or several folders"),
    "bad_overrides": Slug(_SPEC, "the overrides (or an `x-agent-tool` value) have a wrong shape, key or value"),
    "bad_paths": Slug(_SPEC, "`paths` is not a mapping of path templates to path items"),
    "bad_select": Slug(_SPEC, '`select=` is neither "extension" nor "all"'),
    "bad_source": Slug(_SPEC, "the source is not text, a path or a dict"),
    "bad_key": Slug(_SPEC, "a dict source has a key JSON cannot hold (a tuple, None, an object)"),
    "bad_value": Slug(_SPEC, "a dict source holds a value JSON has no form for (bytes, a set, an object)"),
    "cyclic_document": Slug(_SPEC, "a dict source contains itself (an object cycle), which no JSON text can"),
    "huge_integer": Slug(_SPEC, "an integer literal over 4,000 digits"),
    "bad_version": Slug(_SPEC, "the `openapi` or `swagger` version is not one the loader reads"),
    "not_a_mapping": Slug(_SPEC, "the document is not a mapping at the top"),
    "not_found": Slug(_SPEC, "no OpenAPI file at that path"),
    "not_openapi": Slug(_SPEC, "the document is neither an OpenAPI document nor a fragment of one"),
    "parse_error": Slug(_SPEC, "the document is not UTF-8, not JSON or YAML, or has a YAML key that is not a string"),
    "too_deep": Slug(_SPEC, "the document nests deeper than the parser follows"),
    "too_large": Slug(_SPEC, "the document is larger than the size limit"),
    "yaml_bomb": Slug(_SPEC, "the YAML expands through aliases past the node limit"),
    "yaml_recursive": Slug(_SPEC, "the YAML has an anchor that contains itself"),
    "checksum_mismatch": Slug((ChecksumMismatch,), "a pinned spec's bytes no longer match its digest in the lock file"),
    # NamingError: tool names collide or break the name rule
    "bad_name": Slug(_NAMING, "NamingError's default: tool names collide or break the name rule"),
    "bad_namespace": Slug(_NAMING, "the namespace breaks the name rule (start with a letter or `_`)"),
    "bad_tool_name": Slug(_NAMING, "a tool name breaks the declaration name rule `[A-Za-z_][A-Za-z0-9_.:-]{0,127}`"),
    # GoldenError: golden files cannot be read or written
    "golden_error": Slug(_GOLDEN, "GoldenError's default: a golden folder or file is missing or not readable JSON"),
    "golden_manifest": Slug(_GOLDEN, "the golden manifest (`golden/golden.toml`) cannot be read"),
    "golden_name": Slug(_GOLDEN, "a tool name cannot be a golden file name"),
    "golden_write": Slug(_GOLDEN, "a golden file cannot be written"),
    # CodegenError: a toolset cannot be turned into modules
    "codegen_error": Slug(_CODEGEN, "CodegenError's default: the toolset cannot be turned into modules"),
    "bad_module_name": Slug(_CODEGEN, "a tool name gives no usable Python module name"),
    "bad_package": Slug(_CODEGEN, "the package name is not a Python identifier"),
    "bad_trim": Slug(_CODEGEN, "a trim file cannot be read or holds bad settings"),
    "domain_not_declarative": Slug(_CODEGEN, "a tool has Python domain checks, which a generated module cannot carry"),
    "module_collision": Slug(_CODEGEN, "two tools give the same module name"),
    "no_tools": Slug(_CODEGEN, "the toolset has no tools to generate"),
    "not_http_tool": Slug(
        (CodegenError, RuntimeConfigError), "the tool has no HTTP method and path (it is not an OpenAPI operation)"
    ),
    # RuntimeConfigError: the runtime is misconfigured
    "runtime_config": Slug(
        _RUNTIME, "RuntimeConfigError's default: an executor, idempotency or ledger setting is wrong"
    ),
    "adk_missing": Slug(_RUNTIME, "google-adk is not installed: install the `adk` extra"),
    "bad_base_url": Slug(_RUNTIME, "`base_url` is not an http(s) URL with a host"),
    "bad_credential": Slug(_RUNTIME, "a credential's secret holds control or non-ASCII characters"),
    "bad_credential_provider": Slug(_RUNTIME, "a credential provider returned something other than a non-empty string"),
    "demo_api_start": Slug(_RUNTIME, "the demo API did not start"),
    "duplicate_batch_id": Slug(_RUNTIME, "two batch items share an id, so the model could not quote them back"),
    "missing_credential": Slug(_RUNTIME, "a credential's environment variable is unset or empty"),
    "missing_context": Slug(_RUNTIME, "a tool needs a framework's context that the call did not pass"),
    "no_ledger_connection": Slug(_RUNTIME, "a transaction-mode idempotent tool ran without the ledger's connection"),
    "no_base_url": Slug(_RUNTIME, "an OpenAPI tool to serve has no base URL: its spec names no absolute server"),
    "not_servable": Slug(_RUNTIME, "an object given to serve is not a Tool, Toolset, HTTP tool or generated package"),
    "nothing_to_serve": Slug(_RUNTIME, "no tool to serve: the source has none, or the dialect refuses every one"),
    "remote_host": Slug(_RUNTIME, "a server would listen beyond loopback without `allow_remote` (`--allow-remote`)"),
    # LedgerError: the idempotency ledger's file cannot be used
    "ledger_error": Slug((LedgerError,), "LedgerError's default: the ledger file cannot be used"),
    "ledger_corrupt": Slug((LedgerError,), "the ledger file is not an SQLite database, or is damaged or truncated"),
    "ledger_locked": Slug(
        (LedgerError,), "another process holds the ledger locked longer than `busy_timeout` (retryable)"
    ),
    "ledger_path": Slug(
        (LedgerError,), "the ledger path is a folder, or a file stands where a parent folder should be"
    ),
    "ledger_read_only": Slug((LedgerError,), "the ledger file or its folder is read-only"),
    "ledger_schema": Slug((LedgerError,), "the file holds an `idempotency` table of another shape (left untouched)"),
    "ledger_unavailable": Slug((LedgerError,), "the ledger file cannot be opened for another reason the message names"),
}
"""Every exception slug: the classes that raise it and a one-line meaning (grouped by class)."""
