"""How toolkit reads the framework tools and malformed docstrings of the test suite: refusals and lost descriptions.

    .venv/bin/python benchmarks/framework_tools.py
    PYTHONPATH=/path/to/another/checkout .venv/bin/python benchmarks/framework_tools.py   # compare a version

For every tool in ``tests/framework_tools`` (each framework's idiom: a context parameter, a described schema, a
nested model), ``from_function`` is given the framework's tool object, and then (the next thing an author
tries) the bare function inside it. Counted: tools refused (by slug), context parameters shown to the model,
and model-visible parameters without a description. For the docstring corpus in
``tests/bad_inputs/docstrings``: descriptions lost or wrong, and tool descriptions holding section text. Only
public API is used, so the script runs against any version of toolkit.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import toolkit as tk

TESTS = Path(__file__).resolve().parent.parent / "tests"
MODULES = (
    "adk_tools",
    "langchain_tools",
    "mcp_tools",
    "openai_agents_tools",
    "pydantic_ai_tools",
    "agno_tools",
    "smolagents_tools",
    "haystack_tools",
    "ag2_tools",
    "llama_index_tools",
    "crewai_tools",
    "autogen_tools",
)
SECTION_TEXT = ("Args:", "Parameters", ":param", "@param", "arguments", "**Args")


def inner_function(obj: Any) -> Any:
    """The function a framework's tool object wraps, found without toolkit's help."""
    model = getattr(obj, "model", None)  # AG2 keeps the function in a FastDepends call model
    if callable(getattr(model, "call", None)):
        return inspect.unwrap(model.call)
    for attribute in ("func", "coroutine", "fn", "real_fn", "function", "entrypoint", "forward", "__wrapped__"):
        found = getattr(obj, attribute, None) if not inspect.isfunction(obj) else None
        if callable(found):
            return inspect.unwrap(found)
    run = getattr(obj, "_run", None)
    return run if callable(run) else obj


def measure(target: Any, injected: frozenset[str], visible: frozenset[str]) -> tuple[str | None, int, int]:
    """``(refusal slug or None, context parameters shown, visible parameters without a description)``."""
    try:
        tool = tk.from_function(target)
    except tk.ToolkitError as error:
        return error.slug, 0, 0
    except Exception as error:  # a crash is a finding too
        return f"crash:{type(error).__name__}", 0, 0
    properties = tool.args_schema.get("properties", {})
    shown = len(injected & set(properties))
    undescribed = sum(1 for name in visible if not properties.get(name, {}).get("description"))
    return None, shown, undescribed


def framework_table() -> None:
    sys.path.insert(0, str(TESTS))
    print(f"{'framework tool':34} {'as object':>24} {'as function':>24}")
    totals: dict[str, Counter[str]] = {"object": Counter(), "function": Counter()}
    for module_name in MODULES:
        try:
            module = importlib.import_module(f"framework_tools.{module_name}")
        except ImportError as error:
            print(f"{module_name:34} skipped: {error}")
            continue
        for name, case in module.CASES.items():
            row = []
            for kind, target in (("object", case.obj), ("function", inner_function(case.obj))):
                slug, shown, undescribed = measure(target, case.injected, case.visible)
                total = totals[kind]
                total["tools"] += 1
                total["params"] += len(case.visible)
                total["refused"] += slug is not None
                total["shown"] += shown
                total["undescribed"] += undescribed if slug is None else len(case.visible)
                row.append(f"refused {slug}" if slug else f"ok, {shown} ctx, {undescribed} undesc.")
            print(f"{case.framework + ':' + name:34} {row[0]:>24} {row[1]:>24}")
    for kind, total in totals.items():
        print(
            f"as {kind}: {total['refused']} of {total['tools']} tools refused; {total['shown']} context parameters "
            f"shown to the model; {total['undescribed']} of {total['params']} model-visible parameters without a "
            "description (a refused tool's count as lost)"
        )


def docstring_table() -> None:
    path = TESTS / "bad_inputs" / "docstrings" / "malformed.py"
    spec = importlib.util.spec_from_file_location("malformed_docstrings", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    lost = damaged = leaked = total = 0
    for fn, expected, _ in module.CASES:
        tool = tk.from_function(fn)
        got = {k: v.get("description") for k, v in tool.args_schema["properties"].items()}
        missing = [k for k in expected if got.get(k) != expected[k]]
        total += len(expected)
        lost += len(missing)
        damaged += bool(missing)
        leaked += any(word in tool.description for word in SECTION_TEXT)
    print(
        f"docstrings: {len(module.CASES)} malformed docstrings, {total} documented parameters: {lost} descriptions "
        f"lost or wrong in {damaged} docstrings; section text in {leaked} tool descriptions"
    )


if __name__ == "__main__":
    print(f"toolkit {tk.__version__} from {Path(tk.__file__).parent}")
    framework_table()
    docstring_table()
