"""The ast scan behind ``test_vocabularies.py``: every literal the package writes where a vocabulary goes.

It reads the package's modules (and, in the scan's own test, a sample module) and yields a :class:`Finding` for
each literal string written as the code/action/slug argument of ``FieldError``, ``Notice``, ``Rejection`` and
every function or class whose parameter is typed with a vocabulary's ``Literal`` alias (``Run.error``,
``Refusal``, ``Candidate.reject`` ...), as ``slug=`` of an exception class or class-level ``slug = ...`` (and
each public exception class's own slug, the first of its ``slugs`` table), and
the strings a local variable or a module table feeds into those places (an f-string gives its shape:
``http_<status>``). A value passed on from an attribute (``refusal.slug``) or from a parameter typed with the
same alias is already checked where it was written; anything else is a finding ``<cannot tell: ...>``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import get_args

import toolkit
from toolkit import _exceptions, _schema

PACKAGE = Path(toolkit.__file__).parent

ALIASES: Mapping[str, str] = {
    "FieldCode": "field code",
    "NoticeAction": "notice action",
    "RefusalSlug": "refusal slug",
    "DialectSlug": "dialect refusal slug",
}
"""Each vocabulary's ``Literal`` alias, by name, and what the findings call the vocabulary."""

SHARED: Mapping[str, tuple[str, ...]] = {"RefSlug": get_args(_schema.RefSlug)}
"""Narrower aliases whose members belong to several vocabularies (a reference fails with the same slug as an
exception and as an operation's refusal): a value typed with one is each of its members."""


UNTYPED_CALLS: Mapping[str, tuple[str, int, str]] = {
    "FieldError": ("field code", 1, "code"),
    "Notice": ("notice action", 1, "action"),
    "Rejection": ("refusal slug", 3, "slug"),
}
"""Public constructors whose field stays an open ``str``: (vocabulary, position, keyword) of the argument."""


@dataclass(frozen=True)
class Finding:
    vocabulary: str
    value: str
    where: str
    raiser: str = ""  # exceptions: the public class that raises the slug


def _alias_of(annotation: ast.expr | None) -> str | None:
    """The vocabulary an annotation names (``FieldCode``, ``RefusalSlug | None``), if any."""
    if annotation is None:
        return None
    names = {n.id for n in ast.walk(annotation) if isinstance(n, ast.Name)}
    found = [ALIASES[name] for name in names if name in ALIASES]
    return found[0] if found else None


def _callee(call: ast.Call) -> str | None:
    func = call.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None


@dataclass
class _Module:
    path: str
    tree: ast.Module


class Scan:
    """Reads every module once: typed parameters and exception classes first, then the sites."""

    def __init__(self, sources: Mapping[str, str]) -> None:
        self.modules = [_Module(path, ast.parse(text)) for path, text in sources.items()]
        self.typed: dict[str, tuple[str, int, str]] = dict(UNTYPED_CALLS)
        self.exceptions: dict[str, str] = {c.__name__: c.__name__ for c in _public_exceptions()}
        for module in self.modules:
            self._discover(module.tree)
        self._close_exceptions()

    def _discover(self, tree: ast.Module) -> None:
        """Functions and methods with a parameter typed by an alias; a class's ``__init__`` goes by the class."""
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                for method in (s for s in node.body if isinstance(s, ast.FunctionDef) and s.name == "__init__"):
                    self._typed_params(node.name, method)
            elif isinstance(node, ast.FunctionDef) and node.name != "__init__":
                self._typed_params(node.name, node)

    def _typed_params(self, name: str, fn: ast.FunctionDef) -> None:
        params = [*fn.args.posonlyargs, *fn.args.args]
        if params and params[0].arg in ("self", "cls"):
            params = params[1:]
        for i, param in enumerate([*params, *fn.args.kwonlyargs]):
            vocabulary = _alias_of(param.annotation)
            if vocabulary is not None:  # (an exception class's own __init__ is read as an exception below)
                self.typed[name] = (vocabulary, i if i < len(params) else -1, param.arg)

    def _close_exceptions(self) -> None:
        classes = [n for m in self.modules for n in ast.walk(m.tree) if isinstance(n, ast.ClassDef)]
        grew = True
        while grew:
            grew = False
            for cls in classes:
                bases = [b.id for b in cls.bases if isinstance(b, ast.Name) and b.id in self.exceptions]
                if bases and cls.name not in self.exceptions:
                    self.exceptions[cls.name] = self.exceptions[bases[0]]
                    grew = True

    def findings(self) -> Iterator[Finding]:
        for cls in _public_exceptions():  # a class's own slug, carried when it is raised without ``slug=``
            if cls is not _exceptions.ToolkitError:  # (the root is never raised itself)
                yield Finding("exception slug", cls.slug, "toolkit/_exceptions.py", cls.__name__)
        for module in self.modules:
            yield from _Visitor(self, module).run()


def _public_exceptions() -> list[type[_exceptions.ToolkitError]]:
    return [c for c in vars(_exceptions).values() if isinstance(c, type) and issubclass(c, _exceptions.ToolkitError)]


class _Visitor(ast.NodeVisitor):
    def __init__(self, scan: Scan, module: _Module) -> None:
        self.scan, self.module = scan, module
        self.scopes: list[ast.AST] = [module.tree]
        self.found: list[Finding] = []

    def run(self) -> list[Finding]:
        self.visit(self.module.tree)
        return self.found

    def _where(self, node: ast.AST) -> str:
        return f"{self.module.path}:{getattr(node, 'lineno', 0)}"

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self.scopes.append(node)
        self.generic_visit(node)
        self.scopes.pop()

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        raiser = self.scan.exceptions.get(node.name)
        if raiser is not None:
            for value in _assignments(node, "slug", nested=False):
                self._add("exception slug", value, value, raiser)
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        name = _callee(node)
        if name in self.scan.exceptions:
            for keyword in node.keywords:
                if keyword.arg == "slug":
                    self._add("exception slug", keyword.value, node, self.scan.exceptions[name])
        elif name in self.scan.typed:
            vocabulary, position, keyword_name = self.scan.typed[name]
            argument = next((k.value for k in node.keywords if k.arg == keyword_name), None)
            if argument is None and 0 <= position < len(node.args):
                argument = node.args[position]
            if argument is not None:
                self._add(vocabulary, argument, node)
        self.generic_visit(node)

    def _add(self, vocabulary: str, expr: ast.expr | None, site: ast.AST, raiser: str = "") -> None:
        values = self._values(expr, vocabulary, set())
        if values is None:
            values = [f"<cannot tell: {ast.unparse(expr) if expr else 'nothing'}>"]
        self.found += [Finding(vocabulary, v, self._where(site), raiser) for v in values]

    # what an expression can evaluate to: literal strings and f-string shapes; [] for a pass-through
    def _values(self, expr: ast.expr | None, vocabulary: str, seen: set[str]) -> list[str] | None:
        if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
            return [expr.value]
        if isinstance(expr, ast.JoinedStr):
            return ["".join(_shape(part) for part in expr.values)]
        if isinstance(expr, ast.Attribute):  # refusal.slug, entry.slug: an already-checked value passed on
            return []
        if isinstance(expr, ast.IfExp):
            return self._all([expr.body, expr.orelse], vocabulary, seen)
        if isinstance(expr, ast.BoolOp):
            return self._all(expr.values, vocabulary, seen)
        if isinstance(expr, ast.Dict):
            return self._all([v for v in expr.values if v is not None], vocabulary, seen)
        if isinstance(expr, ast.Subscript):
            return self._values(expr.value, vocabulary, seen)
        if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and expr.func.attr == "get":
            return self._all([expr.func.value, *expr.args[1:]], vocabulary, seen)
        if isinstance(expr, ast.Name):
            return self._name(expr.id, vocabulary, seen)
        return None

    def _all(self, exprs: list[ast.expr], vocabulary: str, seen: set[str]) -> list[str] | None:
        out: list[str] = []
        for expr in exprs:
            found = self._values(expr, vocabulary, seen)
            if found is None:
                return None
            out += found
        return out

    def _name(self, name: str, vocabulary: str, seen: set[str]) -> list[str] | None:
        if name in seen:
            return []
        seen = seen | {name}
        for scope in reversed(self.scopes):
            if isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef):
                params = [*scope.args.posonlyargs, *scope.args.args, *scope.args.kwonlyargs]
                typed = [p for p in params if p.arg == name]
                if typed:  # a parameter typed with the alias is checked at its callers (and by mypy)
                    return self._typed(typed[0].annotation, vocabulary)
            assigned = list(_assignments(scope, name))
            if assigned:
                return self._all(assigned, vocabulary, seen)
        imported = [v for m in self.scan.modules for v in _assignments(m.tree, name, nested=False)]
        return self._all(imported, vocabulary, seen) if imported else None  # a constant of another module

    @staticmethod
    def _typed(annotation: ast.expr | None, vocabulary: str) -> list[str] | None:
        names = {n.id for n in ast.walk(annotation) if isinstance(n, ast.Name)} if annotation is not None else set()
        shared = [member for name in names & set(SHARED) for member in SHARED[name]]
        if shared:
            return shared
        return [] if _alias_of(annotation) == vocabulary else None


def _shape(part: ast.expr) -> str:
    if isinstance(part, ast.Constant):
        return str(part.value)
    assert isinstance(part, ast.FormattedValue)
    return f"<{ast.unparse(part.value)}>"


def _assignments(scope: ast.AST, name: str, nested: bool = True) -> Iterator[ast.expr]:
    """The values assigned to ``name`` in a module, function or class body (and, if ``nested``, below it)."""
    body = getattr(scope, "body", [])
    for node in (n for statement in body for n in (ast.walk(statement) if nested else [statement])):
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
            yield node.value
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == name:
            yield from [node.value] if node.value is not None else []


def package_sources() -> dict[str, str]:
    return {str(p.relative_to(PACKAGE.parent)): p.read_text(encoding="utf-8") for p in sorted(PACKAGE.rglob("*.py"))}
