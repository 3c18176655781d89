"""toolkit: author the tools LLM agents call, and see the exact contract the model receives.

    import toolkit as tk
    tool = tk.from_function(search_issues, namespace="issues", effect="read")
    tool.declaration          # the exact JSON the model receives (Gemini Schema subset)
    tool.validate({"limit": "10"}).to_dict()   # strict: invalid_arguments, wrong_type

Every name but the exceptions loads on first use (a module-level ``__getattr__``, as pydantic does), so
``import toolkit`` costs what a generated module or ``toolkit --help`` needs and no more, and a first
``from_function`` loads the stages it runs (``benchmarks/bench_import.py`` measures both).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from toolkit._exceptions import (
    ChecksumMismatch,
    CodegenError,
    EvalError,
    FixtureFileError,
    GitError,
    GoldenError,
    MissingExtraError,
    NamingError,
    NotCallableError,
    ProviderError,
    RuntimeConfigError,
    SchemaError,
    SignatureError,
    SpecError,
    TargetError,
    ToolCallShapeError,
    ToolkitError,
    UnknownOperationError,
    UsageError,
)

__version__ = "0.1.0"
"""The package version, in one place: the build reads it here, generated modules record it in their header."""

if TYPE_CHECKING:
    from toolkit import _golden as golden
    from toolkit._canonical import pretty as canonical_json
    from toolkit._codegen import generate
    from toolkit._context import ToolContext
    from toolkit._contract import Injected, Lint, Loss, Policy, ToolContract
    from toolkit._diff import Change, DeclarationDiff, SpecDiff, diff_declarations, diff_specs
    from toolkit._envelope import FieldError, Notice, Replay, ToolResult
    from toolkit._eval import EvalReport, Variant, evaluate, load_cases
    from toolkit._fixtures import Fixture, FixtureReport, fire, fixtures, load_fixtures
    from toolkit._from_python import from_function
    from toolkit._lowering import Lowered, Payload, lower
    from toolkit._openapi import from_openapi
    from toolkit._tool import Rejection, Tool, Toolset
    from toolkit._wire import Call, PayloadSet, payloads
    from toolkit._wire._live import LiveRun, try_live
    from toolkit.runtime.batch import BatchItem, BatchResult
    from toolkit.runtime.saga import SagaReport, SagaStep
    from toolkit.widgets import Workbench

__all__ = [
    "BatchItem",
    "BatchResult",
    "Call",
    "Change",
    "ChecksumMismatch",
    "CodegenError",
    "DeclarationDiff",
    "EvalError",
    "EvalReport",
    "FieldError",
    "Fixture",
    "FixtureFileError",
    "FixtureReport",
    "GitError",
    "GoldenError",
    "Injected",
    "Lint",
    "LiveRun",
    "Loss",
    "Lowered",
    "MissingExtraError",
    "NamingError",
    "NotCallableError",
    "Notice",
    "Payload",
    "PayloadSet",
    "Policy",
    "ProviderError",
    "Rejection",
    "Replay",
    "RuntimeConfigError",
    "SagaReport",
    "SagaStep",
    "SchemaError",
    "SignatureError",
    "SpecDiff",
    "SpecError",
    "TargetError",
    "Tool",
    "ToolCallShapeError",
    "ToolContext",
    "ToolContract",
    "ToolResult",
    "ToolkitError",
    "Toolset",
    "UnknownOperationError",
    "UsageError",
    "Variant",
    "Workbench",
    "__version__",
    "canonical_json",
    "diff_declarations",
    "diff_specs",
    "evaluate",
    "fire",
    "fixtures",
    "from_function",
    "from_openapi",
    "generate",
    "golden",
    "load_cases",
    "load_fixtures",
    "lower",
    "payloads",
    "try_live",
]

# name -> (module, attribute); attribute None means the module itself.
_LAZY: dict[str, tuple[str, str | None]] = {
    "canonical_json": ("toolkit._canonical", "pretty"),
    "ToolContext": ("toolkit._context", "ToolContext"),
    **{name: ("toolkit._contract", name) for name in ("Injected", "Lint", "Loss", "Policy", "ToolContract")},
    **{name: ("toolkit._envelope", name) for name in ("FieldError", "Notice", "Replay", "ToolResult")},
    **{name: ("toolkit.runtime.batch", name) for name in ("BatchItem", "BatchResult")},
    **{name: ("toolkit.runtime.saga", name) for name in ("SagaReport", "SagaStep")},
    **{name: ("toolkit._tool", name) for name in ("Rejection", "Tool", "Toolset")},
    "from_function": ("toolkit._from_python", "from_function"),
    "from_openapi": ("toolkit._openapi", "from_openapi"),
    "lower": ("toolkit._lowering", "lower"),
    "Lowered": ("toolkit._lowering", "Lowered"),
    "Payload": ("toolkit._lowering", "Payload"),
    "payloads": ("toolkit._wire", "payloads"),
    "PayloadSet": ("toolkit._wire", "PayloadSet"),
    "Call": ("toolkit._wire", "Call"),
    "try_live": ("toolkit._wire._live", "try_live"),
    **{name: ("toolkit._eval", name) for name in ("EvalReport", "Variant", "evaluate", "load_cases")},
    "LiveRun": ("toolkit._wire._live", "LiveRun"),
    "fixtures": ("toolkit._fixtures", "fixtures"),
    "fire": ("toolkit._fixtures", "fire"),
    "load_fixtures": ("toolkit._fixtures", "load_fixtures"),
    "Fixture": ("toolkit._fixtures", "Fixture"),
    "FixtureReport": ("toolkit._fixtures", "FixtureReport"),
    "diff_declarations": ("toolkit._diff", "diff_declarations"),
    "diff_specs": ("toolkit._diff", "diff_specs"),
    "DeclarationDiff": ("toolkit._diff", "DeclarationDiff"),
    "SpecDiff": ("toolkit._diff", "SpecDiff"),
    "Change": ("toolkit._diff", "Change"),
    "golden": ("toolkit._golden", None),
    "generate": ("toolkit._codegen", "generate"),
    "Workbench": ("toolkit.widgets", "Workbench"),
}


def __getattr__(name: str) -> Any:
    try:
        module_name, attribute = _LAZY[name]
    except KeyError:
        raise AttributeError(f"module 'toolkit' has no attribute {name!r}") from None
    module = importlib.import_module(module_name)
    value = module if attribute is None else getattr(module, attribute)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
