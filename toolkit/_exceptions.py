"""The misuse-error tree.

Errors *for the model* are data (:class:`toolkit.FieldError` inside a :class:`toolkit.ToolResult`).
Exceptions are for the programmer only, and every one of them comes from this small tree::

    ToolkitError                    root: catch this to catch everything the package raises (never raised itself)
    ├── SignatureError              a Python callable cannot become a tool (``*args``, no annotation, ...)
    ├── NotCallableError            the object is not a function, Tool or Toolset, or the tool has no function
    ├── SchemaError                 a JSON Schema cannot be read or lowered (unknown dialect, bad shape)
    ├── SpecError                   an OpenAPI document cannot be loaded at all (parse error, YAML bomb, ...)
    │   └── ChecksumMismatch        a pinned spec's bytes changed
    ├── NamingError                 tool names collide or break the name rule
    ├── TargetError                 a target (``file.py:function``, a module) cannot be found, imported or used
    ├── UnknownOperationError       a target has no operation or tool by the name asked for
    ├── UsageError                  a call or a command line does not fit (an argument of the wrong kind)
    ├── FixtureFileError            a fixtures file cannot be read, or a fixture in it is malformed
    ├── ToolCallShapeError          a provider's tool call is not in its dialect's shape
    ├── ProviderError               a provider's API answered a live request with an error
    ├── MissingExtraError           a feature needs a package of an extra that is not installed
    ├── GitError                    git, behind ``toolkit diff --git REV``, cannot run or fails
    ├── GoldenError                 golden files cannot be read or written
    ├── EvalError                   a selection eval's cases or cassette cannot be used, or a replay is stale
    ├── CodegenError                a toolset cannot be turned into modules
    └── RuntimeConfigError          the runtime is misconfigured (missing credentials, ledger path, ...)
        └── LedgerError             the ledger file cannot be used (locked, corrupt, foreign, read-only, ...)

Every error carries a stable ``slug`` (tests and tools match on it, never on the message) and a message
that says how to fix the problem. Each class states its slugs once, in its ``slugs`` table (slug → one-line
meaning; the first is the class's own ``slug``, what it carries when raised without ``slug=``), so a slug
belongs to exactly one class. :data:`ERROR_SLUGS`, the registry ``docs/reference.md`` is rendered
from, is derived from those tables; ``tests/package/test_vocabularies.py`` checks every ``slug=`` the package writes
against the class that raises it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar, NamedTuple

__all__ = [
    "ERROR_SLUGS",
    "ChecksumMismatch",
    "CodegenError",
    "EvalError",
    "FixtureFileError",
    "GitError",
    "GoldenError",
    "LedgerError",
    "MissingExtraError",
    "NamingError",
    "NotCallableError",
    "ProviderError",
    "RuntimeConfigError",
    "SchemaError",
    "SignatureError",
    "Slug",
    "SpecError",
    "TargetError",
    "ToolCallShapeError",
    "ToolkitError",
    "UnknownOperationError",
    "UsageError",
]


class ToolkitError(Exception):
    """Root of every exception the package raises on purpose; it raises only the subclasses."""

    slugs: ClassVar[Mapping[str, str]] = {
        "toolkit_error": "reserved: the root's own slug (the package raises only its subclasses, each with its own)",
    }
    slug: str

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        if "slugs" in cls.__dict__:
            cls.slug = next(iter(cls.slugs))

    def __init__(self, message: str, *, slug: str | None = None) -> None:
        super().__init__(message)
        if slug is not None:
            self.slug = slug

    @property
    def message(self) -> str:
        return str(self.args[0]) if self.args else ""

    def __repr__(self) -> str:
        return f"{type(self).__name__}(slug={self.slug!r}, message={self.message!r})"


ToolkitError.slug = next(iter(ToolkitError.slugs))

LEDGER_LOCKED = "ledger_locked"
"""The one slug of a :class:`LedgerError` worth retrying."""


class SignatureError(ToolkitError, TypeError):
    """A callable's signature cannot be turned into a tool contract."""

    slugs: ClassVar[Mapping[str, str]] = {
        "bad_signature": "SignatureError's default: the callable cannot become a tool",
        "bad_effect": '`effect=` is neither "read" nor "write"',
        "bad_parameter_name": "a parameter name breaks the declaration rule `[A-Za-z_][A-Za-z0-9_]{0,63}`",
        "duplicate_context": "the function takes two `ToolContext` parameters",
        "lambda_needs_name": "a lambda has no name the model can call: pass `name=`",
        "missing_annotation": "a parameter has no type annotation",
        "mixed_context": "a parameter's type is a union of a context the runtime fills and data",
        "no_tool_function": "a framework's tool object carries no Python function to read",
        "no_signature": "the callable's signature cannot be read",
        "positional_only": "a parameter is positional-only; the model passes arguments by name",
        "unbound_method": "an unbound method: pass a bound one (`instance.method`)",
        "unresolved_annotation": "a type annotation cannot be resolved in the function's module",
        "unsupported_type": "a parameter type cannot be described as JSON Schema",
        "varargs": "the function takes `*args`; the model calls tools with named arguments only",
        "varkw": "the function takes `**kwargs`, which cannot be declared or validated",
    }


class NotCallableError(ToolkitError, TypeError):
    """An object that should be a function, Tool or Toolset is none of them, or a tool has no function to call."""

    slugs: ClassVar[Mapping[str, str]] = {
        "not_callable": "not a function, Tool or Toolset, or a tool with no Python function to call (an OpenAPI tool)",
    }


class SchemaError(ToolkitError, ValueError):
    """A JSON Schema is malformed or cannot be lowered."""

    slugs: ClassVar[Mapping[str, str]] = {
        "bad_schema": "a schema (or a node in it) is not a JSON object or boolean",
        "bad_domain_rule": "a declarative domain rule is not a mapping of field, schema, problem, expected",
        "bad_budget": "a declaration budget is not a positive number of bytes (or None)",
        "declaration_over_budget": (
            "a declaration is over a budget the author set even with every reduction (raise it or split the tool)"
        ),
        "bad_keyword": "a schema keyword's value has a shape JSON Schema 2020-12 does not allow",
        "bad_max_depth": "`max_depth` is not a non-negative integer",
        "bad_pattern": "a `pattern` (or `patternProperties` key) is not an ECMA-262 regular expression",
        "bad_ref": "a `$ref` the validator reads is not a string or does not resolve inside the schema",
        "pattern_too_slow": "a pattern only a backtracking engine can run took longer than its time limit",
        "unsupported_keyword": "a keyword of an older draft that 2020-12 replaced (`dependencies`, ...)",
        "left_recursive_ref": "a schema refers back to itself without reading into the value",
        "remote_ref": "a `$ref` points outside the schema (remote schemas are never fetched)",
        "schema_too_deep": "a schema, or a default, enum or const in it, nests too deep or contains itself",
        "schema_too_large": "lowering a schema needs more nodes or steps than its budget",
        "unknown_dialect": "no lowering dialect by that name",
        "adk_refused": "google-adk (google-genai) refuses the tool's declaration",
        "unresolved_ref": "a `$ref` points to nothing (or names an anchor no schema declares)",
        "unsatisfiable_schema": "a schema node no value can satisfy (type against enum, contradictory bounds, ...)",
    }


class SpecError(ToolkitError, ValueError):
    """An OpenAPI document cannot be loaded or read."""

    slugs: ClassVar[Mapping[str, str]] = {
        "bad_spec": "SpecError's default: the OpenAPI document or spec file cannot be loaded",
        "bad_lock": "the pin lock file is unreadable or malformed, or a pin got no files or files of several folders",
        "bad_overrides": "the overrides (or an `x-agent-tool` value) have a wrong shape, key or value",
        "bad_paths": "`paths` is not a mapping of path templates to path items",
        "bad_select": '`select=` is neither "extension" nor "all"',
        "bad_source": "the source is not text, a path or a dict",
        "bad_key": "a dict source has a key JSON cannot hold (a tuple, None, an object)",
        "bad_value": "a dict source holds a value JSON has no form for (bytes, a set, an object)",
        "cyclic_document": "a dict source contains itself (an object cycle), which no JSON text can",
        "huge_integer": "an integer literal over 4,000 digits",
        "bad_version": "the `openapi` or `swagger` version is not one the loader reads",
        "not_a_mapping": "the document is not a mapping at the top",
        "not_found": "no OpenAPI file at that path",
        "not_openapi": "the document is neither an OpenAPI document nor a fragment of one",
        "parse_error": "the document is not UTF-8, not JSON or YAML, or has a YAML key that is not a string",
        "too_deep": "the document nests deeper than the parser follows",
        "too_large": "the document is larger than the size limit",
        "yaml_bomb": "the YAML expands through aliases past the node limit",
        "yaml_recursive": "the YAML has an anchor that contains itself",
    }


class ChecksumMismatch(SpecError):
    """A pinned spec's bytes differ from the digest recorded in the lock file."""

    slugs: ClassVar[Mapping[str, str]] = {
        "checksum_mismatch": "a pinned spec's bytes no longer match its digest in the lock file",
    }


class NamingError(ToolkitError, ValueError):
    """Tool names collide after sanitising, or break the declaration name rule."""

    slugs: ClassVar[Mapping[str, str]] = {
        "bad_name": "NamingError's default: tool names collide or break the name rule",
        "bad_namespace": "the namespace breaks the name rule (start with a letter or `_`)",
        "bad_tool_name": "a tool name breaks the declaration name rule `[A-Za-z_][A-Za-z0-9_.:-]{0,127}`",
    }


class TargetError(ToolkitError, ValueError):
    """A target names no file, module or function, or the user's file fails to import.

    ``path`` and ``line`` locate the mistake in the user's file when there is one (a syntax error, the line
    that raised while importing), so an editor or the CLI can point at it.
    """

    slugs: ClassVar[Mapping[str, str]] = {
        "bad_target": "the target is not `file.py:function`, `module:function`, a module or a spec file",
        "no_tools_in_module": "the target module defines no Tool or Toolset: name a function instead",
        "preview_exited": "the pasted code ended its preview process (`os._exit`, a crash, out of memory)",
        "preview_timeout": "the pasted code ran past the preview's time limit: interrupted, or its process killed",
        "target_import_error": "importing the target raised (a missing package, an error at import)",
        "target_not_found": "no Python file or module at the path or name the target gives",
        "target_syntax_error": "the target file (or a file it imports) is not valid Python",
        "unknown_function": "the target's module has no function, Tool or Toolset of that name",
    }

    def __init__(
        self, message: str, *, slug: str | None = None, path: str | None = None, line: int | None = None
    ) -> None:
        super().__init__(message, slug=slug)
        self.path = path
        self.line = line


class UnknownOperationError(ToolkitError, LookupError):
    """A target (a spec, a toolset) has no operation or tool by the name asked for."""

    slugs: ClassVar[Mapping[str, str]] = {
        "unknown_operation": "the target has no operation or tool by the name `--op` gives",
    }


class UsageError(ToolkitError, ValueError):
    """A call or a command line does not fit: an argument of the wrong kind, options that contradict."""

    slugs: ClassVar[Mapping[str, str]] = {
        "usage": "a call or the command line does not fit: an argument of the wrong kind, options that contradict",
    }


class FixtureFileError(ToolkitError, ValueError):
    """A fixtures file cannot be read or parsed, or a fixture in it is malformed."""

    slugs: ClassVar[Mapping[str, str]] = {
        "bad_fixture_file": "a fixtures file cannot be read or parsed, or a fixture in it is malformed",
    }


class ToolCallShapeError(ToolkitError, ValueError):
    """An object given as a provider's tool call is not one in the dialect's shape."""

    slugs: ClassVar[Mapping[str, str]] = {
        "bad_tool_call": "the object given as a provider's tool call is not one in the dialect's shape",
    }


class ProviderError(ToolkitError, RuntimeError):
    """A provider's API answered a live request with an error (the message quotes it)."""

    slugs: ClassVar[Mapping[str, str]] = {
        "provider_error": "a provider's API answered a live request with an error (the message quotes it)",
    }


class MissingExtraError(ToolkitError, ImportError):
    """A feature needs a package of an extra that is not installed."""

    slugs: ClassVar[Mapping[str, str]] = {
        "missing_extra": "a feature needs a package of an extra that is not installed (`demo`, `mcp`, ...)",
    }


class GitError(ToolkitError, RuntimeError):
    """A git command behind ``toolkit diff --git REV`` cannot run or fails."""

    slugs: ClassVar[Mapping[str, str]] = {
        "git_failed": "a git command behind `toolkit diff --git REV` failed (a wrong revision name?)",
    }


class GoldenError(ToolkitError, OSError):
    """Golden files cannot be read, parsed or written."""

    slugs: ClassVar[Mapping[str, str]] = {
        "golden_error": "GoldenError's default: a golden folder or file is missing or not readable JSON",
        "golden_manifest": "the golden manifest (`golden/golden.toml`) cannot be read",
        "golden_name": "a tool name cannot be a golden file name",
        "golden_write": "a golden file cannot be written",
    }


class EvalError(ToolkitError, ValueError):
    """A selection eval cannot run as asked: its cases file, its cassette, or a replay that no longer matches."""

    slugs: ClassVar[Mapping[str, str]] = {
        "bad_eval_case": "a selection-eval cases file cannot be read, or a case does not fit the documented shape",
        "bad_cassette": "a cassette file cannot be read or written, or is not a toolkit cassette",
        "stale_cassette": "a replayed request is not in the cassette (the declaration or case changed: re-record)",
        "eval_regression": "a selection eval's measure is lower in a variant than in the baseline, for a case",
    }


class CodegenError(ToolkitError, ValueError):
    """A toolset cannot be turned into generated modules."""

    slugs: ClassVar[Mapping[str, str]] = {
        "codegen_error": "CodegenError's default: the toolset cannot be turned into modules",
        "bad_module_name": "a tool name gives no usable Python module name",
        "bad_package": "the package name is not a Python identifier",
        "bad_trim": "a trim file cannot be read or holds bad settings",
        "domain_not_declarative": "a tool has Python domain checks, which a generated module cannot carry",
        "module_collision": "two tools give the same module name",
        "no_tools": "the toolset has no tools to generate",
        "not_an_operation": "a tool to generate has no HTTP method and path (it is not an OpenAPI operation)",
    }


class RuntimeConfigError(ToolkitError, RuntimeError):
    """The tool runtime is misconfigured."""

    slugs: ClassVar[Mapping[str, str]] = {
        "runtime_config": "RuntimeConfigError's default: an executor, idempotency or ledger setting is wrong",
        "adk_missing": "google-adk is not installed: install the `adk` extra",
        "bad_base_url": "`base_url` is not an http(s) URL with a host",
        "bad_credential": "a credential's secret holds control or non-ASCII characters",
        "bad_credential_provider": "a credential provider returned something other than a non-empty string",
        "bad_server_token": "a server's bearer token is given twice or not at all, unreadable, or too short",
        "demo_api_start": "the demo API did not start",
        "duplicate_batch_id": "two batch items share an id, so the model could not quote them back",
        "missing_credential": "a credential's environment variable is unset or empty",
        "missing_context": "a tool needs a framework's context that the call did not pass",
        "no_ledger_connection": "a transaction-mode idempotent tool ran without the ledger's connection",
        "no_base_url": "an OpenAPI tool to serve has no base URL: its spec names no absolute server",
        "not_http_tool": (
            "a tool given to the HTTP runtime has no HTTP method and path (it is not an OpenAPI operation)"
        ),
        "not_servable": "an object given to serve is not a Tool, Toolset, HTTP tool or generated package",
        "nothing_to_serve": "no tool to serve: the source has none, or the dialect refuses every one",
        "remote_host": "a server would listen beyond loopback without `allow_remote` (`--allow-remote`)",
        "remote_needs_token": "a server would listen beyond loopback without a bearer token (`--token-env`)",
    }


class LedgerError(RuntimeConfigError):
    """The idempotency ledger's file cannot be used; the slug says why and the message names the file and what
    to do. Only a lock is worth retrying (``retryable``, which the executor reads)."""

    slugs: ClassVar[Mapping[str, str]] = {
        "ledger_error": "LedgerError's default: the ledger file cannot be used",
        "ledger_corrupt": "the ledger file is not an SQLite database, or is damaged or truncated",
        LEDGER_LOCKED: "another process holds the ledger locked longer than `busy_timeout` (retryable)",
        "ledger_path": "the ledger path is a folder, or a file stands where a parent folder should be",
        "ledger_read_only": "the ledger file or its folder is read-only",
        "ledger_schema": "the file holds an `idempotency` table of another shape (left untouched)",
        "ledger_unavailable": "the ledger file cannot be opened for another reason the message names",
    }

    @property
    def retryable(self) -> bool:
        return self.slug == LEDGER_LOCKED


class Slug(NamedTuple):
    """One entry of :data:`ERROR_SLUGS`: the class that raises the slug and what it means."""

    raised_by: type[ToolkitError]
    meaning: str


def _registry(root: type[ToolkitError]) -> dict[str, Slug]:
    """Every class's ``slugs`` table, the tree walked depth first; a slug stated by two classes is refused."""
    found: dict[str, Slug] = {}
    pending = [root]
    while pending:
        cls = pending.pop(0)
        for slug, meaning in cls.__dict__.get("slugs", {}).items():
            if slug in found:
                raise TypeError(f"slug {slug!r} is stated by {found[slug].raised_by.__name__} and {cls.__name__}")
            found[slug] = Slug(cls, meaning)
        pending += [sub for sub in cls.__subclasses__() if sub.__module__ == __name__]
    return found


ERROR_SLUGS: Mapping[str, Slug] = _registry(ToolkitError)
"""Every exception slug, derived from the classes' ``slugs`` tables: the class that raises it and a one-line
meaning."""
