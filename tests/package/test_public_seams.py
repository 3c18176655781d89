"""Tests go through the package's public names; a test module that imports an internal (``toolkit._...``, or
``from toolkit import _x``) says which and why in one docstring line starting with ``Internals:``."""

from __future__ import annotations

import ast

from locations import TESTS

MARK = "Internals:"


def internals(source: str) -> list[str]:
    """The internal names a module's source imports, anywhere in it (inside functions too)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "toolkit":
            if _private(node.module):
                found += [f"{node.module}.{alias.name}" for alias in node.names]
            else:
                found += [f"{node.module}.{alias.name}" for alias in node.names if alias.name.startswith("_")]
        elif isinstance(node, ast.Import):
            found += [
                alias.name for alias in node.names if alias.name.split(".")[0] == "toolkit" and _private(alias.name)
            ]
    return found


def _private(module: str) -> bool:
    """``toolkit._x``, ``toolkit.widgets._y``: a module path with a part that starts with an underscore."""
    return any(part.startswith("_") for part in module.split("."))


def says_why(source: str) -> bool:
    docstring = ast.get_docstring(ast.parse(source)) or ""
    return any(line.startswith(MARK) for line in docstring.splitlines())


def test_every_test_module_that_imports_an_internal_says_why() -> None:
    silent = []
    for path in sorted(TESTS.rglob("test_*.py")):
        source = path.read_text(encoding="utf-8")
        if internals(source) and not says_why(source):
            silent.append(f"{path.relative_to(TESTS)}: {sorted(set(internals(source)))}")
    assert silent == [], f"import the public name, or add a docstring line starting with {MARK!r}"


def test_the_check_sees_every_form_of_import() -> None:
    source = (
        '"""A test."""\n'
        "import toolkit._tool\n"
        "from toolkit import Tool, _golden\n"
        "from toolkit.runtime import Ledger\n"
        "from toolkit.widgets._code import BUNDLE\n"
        "def f():\n"
        "    from toolkit._lints import lint\n"
    )
    assert internals(source) == [
        "toolkit._tool",
        "toolkit._golden",
        "toolkit.widgets._code.BUNDLE",
        "toolkit._lints.lint",
    ]
    assert not says_why(source)
    assert says_why('"""A test.\n\nInternals: ``lint``, the unit under test."""\nfrom toolkit._lints import lint\n')
    assert internals("import toolkit\nfrom toolkit import Tool\nfrom toolkit.runtime import Ledger\n") == []
