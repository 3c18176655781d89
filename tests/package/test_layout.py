"""The layout is the pipeline: one package per stage, no import circles, heavy dependencies loaded on use, and
toolkit's own modules that a first tool has no use for loaded when first used.

The module graph is read with ``ast`` from the source (module-level imports of ``toolkit.*``; imports under
``if TYPE_CHECKING:`` are for the type checker only and are left out), so a new circle fails here before it
fails at import time in some order nobody tried.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from locations import REPO, TESTS
from module_support import load_module

PACKAGE = REPO / "toolkit"

STAGES = {
    "_from_python": "callable or framework tool object -> contract",
    "_openapi": "OpenAPI document -> contracts",
    "_lowering": "args_schema -> a dialect's declaration + losses",
    "_lints": "tool -> lint findings (traps, and promises the schema does not enforce)",
    "_validation": "args -> envelope",
    "_fixtures": "tool -> ugly fixtures -> report",
    "_golden": "declarations <-> golden files",
    "_diff": "two declarations -> classified changes",
    "_wire": "a request's payloads; a provider's tool call -> tool, envelope -> function response; live runs",
    "_eval": "cases x declaration sets -> selection, valid first call and recovery, side by side; cassettes",
    "_codegen": "toolset -> generated package files",
    "_form": "args_schema -> the fields a form edits and valid arguments to start from",
    "_schema": "a JSON Schema -> the keyword tables, references, subschemas and types every stage reads",
    "_paste": "pasted source text -> tools, their fixture reports and the diff against a previous version",
    "_display": "objects -> text/HTML",
    "_commands": "the CLI's commands",
    "runtime": "what generated modules import",
    "widgets": "ipywidgets views",
    "examples": "example tools and the demo API",
}
MAX_FLAT_MODULES = 13

HEAVY = frozenset(
    {
        "IPython",
        "agents",
        "anywidget",
        "agno",
        "anthropic",
        "asyncio",
        "concurrent",
        "corvus_regex_ecma262",
        "crewai",
        "fastmcp",
        "google",
        "httpx",
        "ipywidgets",
        "jsonschema",
        "langchain_core",
        "langgraph",
        "logging",
        "mcp",
        "openai",
        "pandas",
        "pydantic",
        "pydantic_ai",
        "pydantic_core",
        "re2",
        "referencing",
        "rich",
        "starlette",
        "uvicorn",
        "yaml",
    }
)
"""Third-party (and slow standard-library) modules that may load inside a function, on first use: the agent
frameworks among them, which toolkit imports only for a tool that comes from one; the ECMA-262 engine, which only
a schema with a pattern needs; RE2, which only a long string or a slow search reaches; ``logging``, which only the
HTTP stack's log filter needs (a first tool's build and call need neither)."""


@dataclass(frozen=True)
class Import:
    module: str  # the importing module
    target: str  # the imported module (for ``from a import b``: ``a.b`` when that is a module, else ``a``)
    line: int
    in_function: bool
    commented: bool


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _resolve(name: str) -> str:
    while name and name not in MODULES and name.startswith("toolkit"):
        name = name.rpartition(".")[0]
    return name


def _targets(node: ast.Import | ast.ImportFrom, module: str, path: Path) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    if node.level:
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        for _ in range(node.level - 1):
            package = package.rpartition(".")[0]
        base = f"{package}.{base}" if base else package
    found = {_resolve(f"{base}.{alias.name}") for alias in node.names if base.startswith("toolkit")}
    return sorted(found - {""}) or [base]


def _is_type_checking(node: ast.If) -> bool:
    return "TYPE_CHECKING" in ast.unparse(node.test)


def _imports(module: str, path: Path) -> Iterator[Import]:
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines()

    def commented(line: int) -> bool:
        """A comment on the line, or on the line above the block of imports it belongs to."""
        index = line - 1
        while index > 0 and lines[index - 1].strip().startswith(("import ", "from ")):
            index -= 1
        return "#" in lines[line - 1] or (index > 0 and "#" in lines[index - 1])

    def walk(node: ast.AST, in_function: bool) -> Iterator[Import]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child):
                continue
            if isinstance(child, ast.Import | ast.ImportFrom):
                for target in _targets(child, module, path):
                    yield Import(module, target, child.lineno, in_function, commented(child.lineno))
            elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                yield from walk(child, True)
            else:
                yield from walk(child, in_function)

    yield from walk(ast.parse(source), False)


IMPORTS = [found for module, path in MODULES.items() for found in _imports(module, path)]


def _graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {module: set() for module in MODULES}
    for found in IMPORTS:
        target = _resolve(found.target)
        if not found.in_function and target in MODULES and target != found.module:
            graph[found.module].add(target)
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def _heavy_modules(graph: dict[str, set[str]]) -> set[str]:
    """Toolkit modules that load a heavy dependency when imported (directly or through other modules)."""
    heavy = {f.module for f in IMPORTS if not f.in_function and f.target.split(".")[0] in HEAVY}
    changed = True
    while changed:
        changed = False
        for module, targets in graph.items():
            if module not in heavy and targets & heavy:
                heavy.add(module)
                changed = True
    return heavy


def test_the_import_graph_has_no_cycle() -> None:
    assert _cycles(_graph()) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def _first_use(module: str) -> bool:
    """``module`` is one of :data:`NOT_FOR_A_FIRST_TOOL`, or inside one of them."""
    return any(module == name or module.startswith(f"{name}.") for name in NOT_FOR_A_FIRST_TOOL)


def test_function_level_imports_load_only_what_a_first_tool_does_not_need_and_say_why() -> None:
    heavy = _heavy_modules(_graph())
    wrong = [
        f"{f.module}:{f.line} imports {f.target}"
        for f in IMPORTS
        if f.in_function
        and f.target.split(".")[0] not in HEAVY
        and _resolve(f.target) not in heavy
        and not _first_use(_resolve(f.target))
    ]
    assert wrong == [], "import these at module level (no circle needs them inside a function)"
    silent = [f"{f.module}:{f.line} imports {f.target}" for f in IMPORTS if f.in_function and not f.commented]
    assert silent == [], "say in a comment on or above the line why this import waits for first use"


def test_the_package_reads_as_the_pipeline() -> None:
    packages = sorted(p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file())
    assert packages == sorted(STAGES)
    flat = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(flat) <= MAX_FLAT_MODULES, flat


@pytest.mark.parametrize("stage", sorted(STAGES))
def test_every_stage_says_what_enters_and_what_leaves(stage: str) -> None:
    docstring = ast.get_docstring(ast.parse((PACKAGE / stage / "__init__.py").read_text(encoding="utf-8")))
    assert len(docstring or "") > 80, f"toolkit/{stage}/__init__.py needs a docstring: what enters, what leaves"


def test_tests_reach_the_cli_only_through_its_own_tests() -> None:
    offenders = [
        path.name
        for path in sorted(TESTS.rglob("test_*.py"))
        if not path.name.startswith("test_cli")
        and path != Path(__file__)
        and "toolkit._commands" in path.read_text("utf-8")
    ]
    assert offenders == []


def test_import_toolkit_loads_no_heavy_dependency() -> None:
    code = (  # what site already loaded (a namespace-package .pth imports `google`, say) is not toolkit's doing
        "import sys\nbefore = set(sys.modules)\nimport toolkit\n"
        "print(sorted({m.split('.')[0] for m in set(sys.modules) - before} & set(sys.argv[1:])))"
    )
    out = subprocess.run([sys.executable, "-c", code, *sorted(HEAVY)], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_import_toolkit_loads_the_exceptions_alone() -> None:
    code = "import sys, toolkit\nprint(sorted(m for m in sys.modules if m.split('.')[0] == 'toolkit'))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "['toolkit', 'toolkit._exceptions']"


NOT_FOR_A_FIRST_TOOL = {
    "corvus_regex_ecma262": "the ECMA-262 engine: only a schema with a pattern",
    "html": "display escapes without its entity table",
    "logging": "only the HTTP stack's log filter",
    "re2": "only a long string or a slow pattern search",
    "toolkit._credential_record": "OpenAPI credentials",
    "toolkit._display._core": "the renderers load when an object is first displayed",
    "toolkit._display._envelopes": "the renderers load when an object is first displayed",
    "toolkit._display._wire": "the renderers load when an object is first displayed",
    "toolkit._lints": "the lint catalogue: run when a tool's lints are first read",
    "toolkit._lowering._reductions": "the declaration budget's reductions: only a declaration over it",
    "toolkit._validation._invoke": "a call of the function (conversion to Python values, the call), or a Decimal's",
    "toolkit.runtime.batch": "batches of calls",
    "toolkit.runtime.saga": "sagas of writes",
    "toolkit.runtime.redaction": "what a call's envelope must not carry: a call of the function, not a validate",
}
"""Modules the first call of a plain function's tool (``from_function``, ``declaration``, ``validate``) has no use
for, and why (``benchmarks/bench_import.py`` times that call). Those of toolkit may be imported inside a function,
where they are first used."""


def test_a_first_tool_loads_nothing_it_does_not_use() -> None:
    first_call = load_module("bench_import", REPO / "benchmarks" / "bench_import.py").FIRST_CALL
    code = f"{first_call}\nimport sys\nprint(sorted(m for m in sys.argv[1:] if m in sys.modules))"
    out = subprocess.run(
        [sys.executable, "-c", code, *NOT_FOR_A_FIRST_TOOL], capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]"
