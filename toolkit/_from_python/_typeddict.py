"""``typing.TypedDict`` on Python 3.11: rebuilt as the ``typing_extensions.TypedDict`` pydantic accepts.

Before 3.12 pydantic refuses a TypedDict made by the standard library's ``typing`` (it cannot read its
``Required``/``NotRequired`` keys reliably there). :func:`convert_annotation` walks an annotation (``Annotated``,
unions, ``list``/``dict``/``tuple``, ``typing.List`` and friends, generic TypedDicts) and replaces each such
class by an equivalent ``typing_extensions`` one: same name, qualified name, module and docstring (so the
``$defs`` key and the ``Attributes:`` descriptions are the same), same keys, totality and required keys,
``Field(...)`` metadata kept. Values stay plain ``dict`` objects either way, so the tool function receives
exactly what it would have.

Under ``from __future__ import annotations`` the 3.11 metaclass computes ``__required_keys__`` from strings
and ignores ``Required``/``NotRequired``; the resolved hint's qualifier is therefore read first, and the key
sets (which do reflect each declaring class's ``total=``) only for keys without one.

A stdlib TypedDict inside a dataclass or pydantic model field is out of reach (pydantic reads those fields
itself): the refusal message for it names ``typing_extensions.TypedDict``.
"""

from __future__ import annotations

import sys
import types
import typing
from typing import Annotated, Any

import typing_extensions

__all__ = ["convert_annotation", "is_stdlib_typeddict"]

_NEEDED = sys.version_info < (3, 12)
_REQUIRED = (typing.Required, typing_extensions.Required)
_NOT_REQUIRED = (typing.NotRequired, typing_extensions.NotRequired)


def is_stdlib_typeddict(tp: Any) -> bool:
    """A class made by ``typing.TypedDict`` (not ``typing_extensions``): the kind pydantic refuses before 3.12."""
    return isinstance(tp, type) and typing.is_typeddict(tp) and type(tp).__module__ == "typing"


def convert_annotation(tp: Any) -> Any:
    """``tp`` with every stdlib TypedDict replaced by its ``typing_extensions`` twin (``tp`` itself if none)."""
    return _convert(tp, {}) if _NEEDED else tp


def _convert(tp: Any, memo: dict[int, Any]) -> Any:
    if is_stdlib_typeddict(tp):
        return _convert_class(tp, memo)
    origin = typing.get_origin(tp)
    if origin is None:
        return tp
    args = typing.get_args(tp)
    if origin is Annotated:
        base = _convert(args[0], memo)
        return tp if base is args[0] else Annotated[(base, *tp.__metadata__)]
    new_args = tuple([_convert(x, memo) for x in a] if isinstance(a, list) else _convert(a, memo) for a in args)
    if is_stdlib_typeddict(origin):  # a parameterised generic TypedDict: Page[int]
        return _convert_class(origin, memo)[new_args]
    if all(new is old for new, old in zip(new_args, args, strict=True)):
        return tp
    return _rebuild(tp, origin, new_args)


def _rebuild(tp: Any, origin: Any, args: tuple[Any, ...]) -> Any:
    if origin in (types.UnionType, typing.Union):
        return typing.Union[args]  # noqa: UP007 - built from a tuple of members
    if origin in _REQUIRED or origin in _NOT_REQUIRED:
        return origin[args[0]]
    if isinstance(tp, types.GenericAlias):  # list[X], dict[K, V], tuple[...]
        return types.GenericAlias(origin, args)
    copy_with = getattr(tp, "copy_with", None)  # typing.List[X], typing.Dict[K, V], ...
    return copy_with(args) if callable(copy_with) else tp


def _requiredness(tp: Any) -> bool | None:
    """True for ``Required[...]``, False for ``NotRequired[...]`` (also under ``Annotated``), else None."""
    origin = typing.get_origin(tp)
    if origin in _REQUIRED:
        return True
    if origin in _NOT_REQUIRED:
        return False
    return _requiredness(typing.get_args(tp)[0]) if origin is Annotated else None


def _unqualified(tp: Any) -> Any:
    """``Required[X]``/``NotRequired[X]`` (also inside ``Annotated``) → ``X``."""
    origin = typing.get_origin(tp)
    if origin in _REQUIRED or origin in _NOT_REQUIRED:
        return _unqualified(typing.get_args(tp)[0])
    if origin is Annotated:
        return Annotated[(_unqualified(typing.get_args(tp)[0]), *tp.__metadata__)]
    return tp


def _convert_class(cls: type, memo: dict[int, Any]) -> Any:
    if id(cls) in memo:
        return memo[id(cls)]
    params = tuple(getattr(cls, "__parameters__", ()))
    bases: tuple[Any, ...] = (typing_extensions.TypedDict,)
    if params:
        bases += (typing.Generic[params],)  # type: ignore[index]
    body: dict[str, Any] = {
        "__module__": cls.__module__,
        "__qualname__": cls.__qualname__,
        "__doc__": cls.__dict__.get("__doc__"),
        "__annotations__": {},
    }
    total = bool(getattr(cls, "__total__", True))
    new: Any = types.new_class(cls.__name__, bases, {"total": total}, lambda ns: ns.update(body))
    memo[id(cls)] = new  # before the fields: a recursive TypedDict refers to itself
    module = sys.modules.get(cls.__module__)
    hints = typing.get_type_hints(cls, globalns=vars(module) if module else None, include_extras=True)
    fields: dict[str, Any] = {}
    for key, hint in hints.items():
        marked = _requiredness(hint)
        required = marked if marked is not None else key in cls.__required_keys__  # type: ignore[attr-defined]
        qualifier = typing_extensions.Required if required else typing_extensions.NotRequired
        fields[key] = qualifier[_convert(_unqualified(hint), memo)]
    new.__annotations__ = fields
    new.__required_keys__ = frozenset(k for k, v in fields.items() if typing.get_origin(v) in _REQUIRED)
    new.__optional_keys__ = frozenset(fields) - new.__required_keys__
    if hasattr(new, "__readonly_keys__"):  # PEP 705 keys of typing_extensions; the 3.11 stdlib has none
        new.__readonly_keys__ = frozenset()
        new.__mutable_keys__ = frozenset(fields)
    return new
