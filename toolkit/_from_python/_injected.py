"""Parameters a runtime fills, never the model: toolkit's and the agent frameworks' context types.

A parameter is *injected* when its annotation is a context class (bare, generic, ``X | None``, or a subclass),
when ``Annotated`` metadata marks it (LangChain's ``InjectedToolArg``, LangGraph's ``InjectedState``, ...),
when its default is a dependency placeholder (FastMCP's ``Depends(...)``, ``CurrentContext()``), or, for a
tool object of a known framework only, when the framework reserves its name (ADK's ``tool_context``).

No framework is imported. An annotation object is named by its class's ``__module__.__qualname__`` and those
of its bases (the table holds definition sites, old and new, and the public import paths); a string
annotation (``from __future__ import annotations``, an import under ``if TYPE_CHECKING:``) is parsed with
:mod:`ast` and each name resolved through the function's globals, else through the import statements of its
module's source. :func:`classify` is the entry point.
"""

from __future__ import annotations

import ast
import functools
import inspect
import sys
import types
import typing
from collections.abc import Iterator, Mapping
from typing import Annotated, Any

import typing_extensions

from toolkit._context import ToolContext
from toolkit._contract import Injected
from toolkit._exceptions import SignatureError
from toolkit._from_python._context_types import BY_NAME, CONTEXTS, DEFAULTS, MARKERS, Kind

__all__ = ["classify", "dotted", "namespace_of"]


_SPECIAL = {"Annotated": Annotated, "Optional": typing.Optional, "Union": typing.Union}


def classify(
    p: inspect.Parameter,
    annotation: Any,
    fn: Any,
    framework: str | None = None,
    hidden: Mapping[str, str] | None = None,
) -> Injected | None:
    """The injection parameter ``p`` stands for, or ``None`` when the model must send it.

    ``annotation`` is the resolved annotation object, or the annotation string when it cannot be resolved.
    ``framework`` is set when ``fn`` comes from that framework's tool object: its reserved names count too,
    and so do ``hidden``, the names that tool object says its framework fills (name → reason).
    Raises :class:`~toolkit.SignatureError` (``mixed_context``) for a union of a context type and data.
    """
    try:
        found = _of_string(annotation, fn) if isinstance(annotation, str) else _of_object(annotation, fn)
    except _Mixed as mixed:
        raise SignatureError(
            f"parameter {p.name!r} is typed as a union of {mixed.path} (which the runtime fills) and data the "
            "model would send; split it into two parameters, one for the context and one for the data",
            slug="mixed_context",
        ) from None
    placeholder = p.default is not p.empty and _of_default(p.default) is not None
    if found is None and placeholder:
        found = _of_default(p.default)
    required = p.default is p.empty or placeholder
    if found is not None:
        kind, path = found
        return Injected(p.name, kind.framework, path, kind.reason, required)
    reason = (hidden or {}).get(p.name) or BY_NAME.get(framework or "", {}).get(p.name)
    if framework is not None and reason is not None:
        return Injected(p.name, framework, f"(the name {p.name})", reason, required)
    return None


class _Mixed(Exception):
    """A union of a context type and data: refused by :func:`classify`, which knows the parameter's name."""

    def __init__(self, path: str) -> None:
        super().__init__(path)
        self.path = path


def dotted(cls: Any) -> str:
    """A class's ``module.qualname``: how a framework's class is named without importing the framework."""
    return f"{getattr(cls, '__module__', '?')}.{getattr(cls, '__qualname__', getattr(cls, '__name__', '?'))}"


def _of_class(cls: Any, table: Mapping[str, Kind]) -> tuple[Kind, str] | None:
    """``cls`` or one of its bases (generic bases too: ``ToolContext(RunContextWrapper[T])``) in ``table``."""
    if cls is ToolContext:
        return CONTEXTS["toolkit.ToolContext"], "toolkit.ToolContext"
    for base in getattr(cls, "__mro__", (cls,)):
        path = dotted(base)
        if path in table and not path.startswith("toolkit."):  # toolkit's own class by identity only
            return table[path], path
        for generic in getattr(base, "__orig_bases__", ()):
            origin = typing.get_origin(generic)
            if isinstance(origin, type) and origin is not base and dotted(origin) in table:
                return table[dotted(origin)], dotted(origin)
    return None


def _of_object(annotation: Any, fn: Any) -> tuple[Kind, str] | None:
    if isinstance(annotation, typing.ForwardRef):
        return _of_string(annotation.__forward_arg__, fn)
    origin = typing.get_origin(annotation)
    if origin is Annotated:
        base, *metadata = typing.get_args(annotation)
        for item in metadata:
            hit = _of_class(item if isinstance(item, type) else type(item), MARKERS)
            if hit is not None:
                return hit
        return _of_object(base, fn)
    if origin in (typing.Union, types.UnionType):
        members = [a for a in typing.get_args(annotation) if a is not type(None)]
        return _one_of([_of_object(a, fn) for a in members])
    if isinstance(origin, type):
        return _of_class(origin, CONTEXTS)
    return _of_class(annotation, CONTEXTS) if isinstance(annotation, type) else None


def _one_of(hits: list[tuple[Kind, str] | None]) -> tuple[Kind, str] | None:
    """The injection a union stands for: every member's (one context type, maybe under several names)."""
    found = [h for h in hits if h is not None]
    if found and len(found) < len(hits):
        raise _Mixed(found[0][1])
    return found[0] if found else None


def _of_default(default: Any) -> tuple[Kind, str] | None:
    if default is None or isinstance(default, str | int | float | bool | tuple | list | dict):
        return None
    return _of_class(type(default), DEFAULTS)


# -- string annotations ------------------------------------------------------------------------------------
def _of_string(text: str, fn: Any) -> tuple[Kind, str] | None:
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError:
        return None
    return _of_node(tree.body, fn)


def _of_node(node: ast.expr, fn: Any) -> tuple[Kind, str] | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):  # nested quotes: Optional["Context"]
        return _of_string(node.value, fn)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):  # X | None
        return _one_of([_of_node(n, fn) for n in _union_members(node)])
    if isinstance(node, ast.Subscript):
        head = _path_of(node.value, fn)
        args = list(node.slice.elts) if isinstance(node.slice, ast.Tuple) else [node.slice]
        if _is_special(head, "Annotated"):
            for meta in args[1:]:
                hit = _path_hit(meta.func if isinstance(meta, ast.Call) else meta, fn, MARKERS)
                if hit is not None:
                    return hit
            return _of_node(args[0], fn) if args else None
        if _is_special(head, "Optional") or _is_special(head, "Union"):
            members = [a for a in args if not _is_none(a)]
            return _one_of([_of_node(a, fn) for a in members])
        return _of_node(node.value, fn)  # a generic: its origin decides
    if isinstance(node, ast.Name | ast.Attribute):
        return _path_hit(node, fn, CONTEXTS)
    return None


def _union_members(node: ast.expr) -> Iterator[ast.expr]:
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        yield from _union_members(node.left)
        yield from _union_members(node.right)
    elif not _is_none(node):
        yield node


def _is_none(node: ast.expr) -> bool:
    return (isinstance(node, ast.Constant) and node.value is None) or (isinstance(node, ast.Name) and node.id == "None")


def _is_special(path: str | None, name: str) -> bool:
    return path in (f"typing.{name}", f"typing_extensions.{name}")


def _path_hit(node: ast.expr, fn: Any, table: Mapping[str, Kind]) -> tuple[Kind, str] | None:
    """Look a name up: the object it names in the function's globals (a class, its bases, an alias such as
    ``Ctx = RunContextWrapper[Account]``), else the import path it names."""
    obj = _object_of(node, fn)
    if obj is not None and not isinstance(obj, types.ModuleType):
        if table is CONTEXTS:
            return _of_object(obj, fn)
        return _of_class(obj if isinstance(obj, type) else type(obj), table)
    path = _path_of(node, fn)
    return (table[path], path) if path is not None and path in table else None


def _chain(node: ast.expr) -> list[str] | None:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.insert(0, node.attr)
        node = node.value
    return [node.id, *parts] if isinstance(node, ast.Name) else None


def _object_of(node: ast.expr, fn: Any) -> Any:
    chain = _chain(node)
    globalns, _ = namespace_of(fn)
    if chain is None or chain[0] not in globalns:
        return None
    obj = globalns[chain[0]]
    for part in chain[1:]:
        obj = getattr(obj, part, None)
    return obj


def _path_of(node: ast.expr, fn: Any) -> str | None:
    """The dotted path a ``Name``/``Attribute`` chain stands for, from the globals or the module's imports."""
    chain = _chain(node)
    if chain is None:
        return None
    obj = _object_of(node, fn)
    if obj is not None:
        if isinstance(obj, types.ModuleType):
            return obj.__name__
        for name, special in _SPECIAL.items():
            if obj is special or obj is getattr(typing_extensions, name, None):
                return f"typing.{name}"
        return dotted(obj) if isinstance(obj, type) else None
    _, module = namespace_of(fn)
    imports = _imports(module)
    head = imports.get(chain[0]) or (f"typing.{chain[0]}" if chain[0] in _SPECIAL else None)
    return ".".join([head, *chain[1:]]) if head else None


def namespace_of(fn: Any) -> tuple[Mapping[str, Any], str]:
    """The globals a callable's string annotations are resolved in, and its module's name."""
    target = inspect.unwrap(fn.__func__ if inspect.ismethod(fn) else fn)
    if isinstance(target, functools.partial):
        target = target.func
    globalns = getattr(target, "__globals__", None)
    if not isinstance(target, types.FunctionType):
        cls = target if isinstance(target, type) else type(target)
        module = sys.modules.get(cls.__module__)
        return (vars(module) if module else {}), cls.__module__
    return (globalns or {}), str(getattr(target, "__module__", "") or "")


def _imports(module_name: str) -> Mapping[str, str]:
    """Local name → dotted path, from every import statement of the module's source (``TYPE_CHECKING`` too).

    A module's source is read once; ``__main__`` (a notebook, a script) is read each time, as it changes.
    """
    return _read_imports(module_name) if module_name == "__main__" else _cached_imports(module_name)


@functools.lru_cache(maxsize=128)
def _cached_imports(module_name: str) -> Mapping[str, str]:
    return _read_imports(module_name)


def _read_imports(module_name: str) -> Mapping[str, str]:
    module = sys.modules.get(module_name)
    try:
        tree = ast.parse(inspect.getsource(module)) if module is not None else None
    except (OSError, TypeError, SyntaxError):
        tree = None
    found: dict[str, str] = {}
    for node in ast.walk(tree) if tree is not None else ():
        if isinstance(node, ast.Import):
            for alias in node.names:
                head = alias.name.split(".")[0]
                found[alias.asname or head] = alias.name if alias.asname else head
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                found[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return types.MappingProxyType(found)
