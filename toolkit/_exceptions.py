"""The misuse-error tree.

Errors *for the model* are data (:class:`toolkit.FieldError` inside a :class:`toolkit.ToolResult`).
Exceptions are for the programmer only, and every one of them comes from this small tree::

    ToolkitError                    root: catch this to catch everything the package raises
    ├── SignatureError              a Python callable cannot become a tool (``*args``, no annotation, ...)
    ├── SchemaError                 a JSON Schema cannot be read or lowered (unknown dialect, bad shape)
    ├── SpecError                   an OpenAPI document cannot be loaded at all (parse error, YAML bomb, ...)
    │   └── ChecksumMismatch        a pinned spec's bytes changed
    ├── NamingError                 tool names collide or break the name rule
    ├── GoldenError                 golden files cannot be read or written
    ├── CodegenError                a toolset cannot be turned into modules
    └── RuntimeConfigError          the runtime is misconfigured (missing credentials, ledger path, ...)
        └── LedgerError             the ledger file cannot be used (locked, corrupt, foreign, read-only, ...)

Every error carries a stable ``slug`` (tests and tools match on it, never on the message) and a message
that says how to fix the problem.
"""

from __future__ import annotations

__all__ = [
    "ChecksumMismatch",
    "CodegenError",
    "GoldenError",
    "LedgerError",
    "NamingError",
    "RuntimeConfigError",
    "SchemaError",
    "SignatureError",
    "SpecError",
    "ToolkitError",
]


class ToolkitError(Exception):
    """Root of every exception the package raises on purpose."""

    slug: str = "toolkit_error"

    def __init__(self, message: str, *, slug: str | None = None) -> None:
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

    slug = "bad_signature"


class SchemaError(ToolkitError, ValueError):
    """A JSON Schema is malformed or cannot be lowered."""

    slug = "bad_schema"


class SpecError(ToolkitError, ValueError):
    """An OpenAPI document cannot be loaded or read."""

    slug = "bad_spec"


class ChecksumMismatch(SpecError):
    """A pinned spec's bytes differ from the digest recorded in the lock file."""

    slug = "checksum_mismatch"


class NamingError(ToolkitError, ValueError):
    """Tool names collide after sanitising, or break the declaration name rule."""

    slug = "bad_name"


class GoldenError(ToolkitError, OSError):
    """Golden files cannot be read, parsed or written."""

    slug = "golden_error"


class CodegenError(ToolkitError, ValueError):
    """A toolset cannot be turned into generated modules."""

    slug = "codegen_error"


class RuntimeConfigError(ToolkitError, RuntimeError):
    """The tool runtime is misconfigured."""

    slug = "runtime_config"


class LedgerError(RuntimeConfigError):
    """The idempotency ledger's file cannot be used; the slug says why (``ledger_locked``, ``ledger_corrupt``,
    ``ledger_schema``, ``ledger_path``, ``ledger_read_only``, ``ledger_unavailable``) and the message names the
    file and what to do. Only a lock is worth retrying (``retryable``, which the executor reads)."""

    slug = "ledger_error"

    @property
    def retryable(self) -> bool:
        return self.slug == "ledger_locked"
