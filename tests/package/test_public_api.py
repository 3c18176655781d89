"""The public surface is small, flat and pinned: adding or removing a name is a deliberate change."""

from __future__ import annotations

import toolkit as tk

EXPECTED = [
    "BatchItem", "BatchResult", "Call", "Change", "ChecksumMismatch", "CodegenError", "DeclarationDiff",
    "EvalError", "EvalReport", "FieldError", "Fixture", "FixtureFileError", "FixtureReport", "GitError",
    "GoldenError", "Injected", "Lint",
    "LiveRun", "Loss", "Lowered", "MissingExtraError", "NamingError", "NotCallableError", "Notice", "Payload",
    "PayloadSet", "Policy", "ProviderError", "Rejection", "Replay", "RuntimeConfigError", "SagaReport", "SagaStep",
    "SchemaError", "SignatureError", "SpecDiff", "SpecError", "TargetError", "Tool", "ToolCallShapeError",
    "ToolContext", "ToolContract", "ToolResult", "ToolkitError", "Toolset", "UnknownOperationError", "UsageError",
    "Variant", "Workbench", "__version__", "canonical_json",
    "diff_declarations", "diff_specs", "evaluate", "fire", "fixtures", "from_function", "from_openapi", "generate",
    "golden", "load_cases", "load_fixtures", "lower", "payloads", "try_live",
]  # fmt: skip


def test_all_is_sorted_and_pinned() -> None:
    assert tk.__all__ == sorted(tk.__all__)
    assert tk.__all__ == EXPECTED


def test_every_public_name_resolves() -> None:
    for name in tk.__all__:
        assert getattr(tk, name) is not None, name


def test_errors_share_one_root_and_carry_slugs() -> None:
    public = [getattr(tk, n) for n in tk.__all__ if n not in ("golden", "__version__")]
    errors = [e for e in public if isinstance(e, type) and issubclass(e, Exception)]
    assert len(errors) == 19
    for error in errors:
        assert issubclass(error, tk.ToolkitError)
        assert error.slug.replace("_", "").isalpha(), error
    assert len({e.slug for e in errors}) == len(errors)
