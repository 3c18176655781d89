"""Lint rules that compare a framework's own schema of a tool with toolkit's derivation of it.

A tool read from an agent framework's tool object (``from_function(langchain_tool)``) carries the parameters
schema that framework itself would send (``contract.framework.schema``). Where the two disagree, neither is
picked silently: each rule here reports one kind of disagreement at the field's dotted path, and
:data:`toolkit._lints.CATALOGUE` lists the rules beside the others. Both schemas are walked the same way
(:attr:`toolkit._lints.Subject.framework_fields`), so a nested field one side lost is found too. Rules never
raise: a framework schema toolkit cannot read (a remote ``$ref``, a malformed node) is not compared.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from toolkit._exceptions import ToolkitError
from toolkit._schema import Refs, schema_types

if TYPE_CHECKING:
    from toolkit._lints import Field, Subject

__all__ = [
    "framework_description",
    "framework_parameters",
    "framework_refused",
    "framework_required",
    "framework_types",
]

_SAME_FIX = "make the function's signature and docstring say what the framework says (or the other way round)"


def framework_refused(s: Subject) -> Iterator[tuple[str, str, str]]:
    source = s.framework
    if source is not None and source.refusal:
        yield (
            "",
            f"{source.framework} itself cannot declare this tool ({source.refusal}); toolkit's declaration is "
            "not what the framework would send",
            f"change the signature until {source.framework} accepts it, or serve toolkit's tool instead",
        )


def framework_parameters(s: Subject) -> Iterator[tuple[str, str, str]]:
    if s.framework_refs is None:
        return
    theirs, ours = _by_path(s.framework_fields), _by_path(s.fields)
    injected = {i.name: i for i in s.injected}
    for path in theirs:
        if path in ours or _parent(path) not in (*ours, ""):
            continue
        if path in injected:
            message = f"{path!r} is injected ({injected[path].reason}), but {_who(s)}'s schema shows it to the model"
        else:
            message = f"{_who(s)}'s schema declares {path!r}, toolkit's does not (the function has no such parameter)"
        yield path, message, _SAME_FIX
    for path in ours:
        if path not in theirs and _parent(path) in (*theirs, ""):
            yield path, f"toolkit declares {path!r}; {_who(s)}'s schema does not", _SAME_FIX


def framework_required(s: Subject) -> Iterator[tuple[str, str, str]]:
    if s.framework_refs is None:
        return
    theirs = {f.path for f in s.framework_fields if f.depth == 1}
    their_required, our_required = _required(s.framework_schema), _required(s.schema)
    for f in s.fields:
        if f.depth != 1 or f.path not in theirs or (f.path in their_required) == (f.path in our_required):
            continue
        if f.path in their_required:
            message = f"{_who(s)} makes {f.path!r} required; toolkit keeps it optional (the function has a default)"
        else:
            message = f"{_who(s)} makes {f.path!r} optional; toolkit requires it (the function has no default)"
        yield f.path, message, "give the parameter a default (or none) so both agree; the validator follows toolkit"


def framework_types(s: Subject) -> Iterator[tuple[str, str, str]]:
    if s.framework_refs is None:
        return
    theirs = _by_path(s.framework_fields)
    for f in s.fields:
        other = theirs.get(f.path)
        if other is None:
            continue
        mine, their_types = _types(f.schema, s.refs), _types(other.schema, s.framework_refs)
        if mine is None or their_types is None or _comparable(mine) == _comparable(their_types):
            continue
        yield (
            f.path,
            f"{_who(s)}'s schema lets {f.path!r} be {_spell(their_types)}; toolkit's lets it be {_spell(mine)}",
            "the model sees one or the other depending on who serves the tool: make the types agree "
            "(the validator enforces toolkit's)",
        )


def framework_description(s: Subject) -> Iterator[tuple[str, str, str]]:
    if s.framework_refs is None:
        return
    theirs = _by_path(s.framework_fields)
    for f in s.fields:
        if f.path not in theirs:
            continue
        mine, other = _text(f.schema), _text(theirs[f.path].schema)
        if mine and not other:
            yield (
                f.path,
                f"{_who(s)}'s schema has no description for {f.path!r}: served by {_who(s)} itself, the model "
                f"gets none (toolkit's declaration says {mine!r})",
                f"serve toolkit's tool, or give {_who(s)} the description too (Field(description=...) reaches both)",
            )
        elif mine and other and mine != other:
            yield (
                f.path,
                f"{f.path!r} is described two ways: toolkit's declaration says {mine!r}, {_who(s)}'s says {other!r}",
                "keep one description (the docstring's or the framework schema's) and delete the other",
            )


# -- reading ---------------------------------------------------------------------------------------------
def _who(s: Subject) -> str:
    return s.framework.framework if s.framework is not None else "the framework"


def _by_path(fields: tuple[Field, ...]) -> dict[str, Field]:
    found: dict[str, Field] = {}
    for f in fields:
        found.setdefault(f.path, f)  # union members can share a path: the first one speaks for it
    return found


def _parent(path: str) -> str:
    return path.rpartition(".")[0]


def _required(schema: Mapping[str, Any] | None) -> set[str]:
    required = schema.get("required") if isinstance(schema, Mapping) else None
    return {r for r in required if isinstance(r, str)} if isinstance(required, list) else set()


def _types(node: Any, refs: Refs) -> frozenset[str] | None:
    try:
        return schema_types(node, refs)
    except (ToolkitError, RecursionError):  # a reference the framework's schema cannot resolve: not compared
        return None


def _comparable(types: frozenset[str]) -> frozenset[str]:
    """``number`` already admits ``integer``: ``{number}`` and ``{number, integer}`` are the same set."""
    return types - {"integer"} if "number" in types else types


def _spell(types: frozenset[str]) -> str:
    return " or ".join(sorted(_comparable(types)))


def _text(node: Any) -> str:
    text = node.get("description") if isinstance(node, Mapping) else None
    return " ".join(text.split()) if isinstance(text, str) else ""
