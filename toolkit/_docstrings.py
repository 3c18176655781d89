"""Read a docstring into a tool description and per-parameter descriptions.

Google, NumPy and reST (Sphinx) styles are parsed by ``docstring-parser``; the style is detected per
docstring. The tool description is the summary and body only: ``Args``/``Parameters``/``Returns``/``Raises``
sections never leak into it, because their words belong to the parameters (or to nobody).
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from typing import Any

import docstring_parser

__all__ = ["Docstring", "parse_docstring"]


@dataclass(frozen=True, slots=True)
class Docstring:
    """The parts of a docstring a tool declaration uses."""

    description: str = ""
    params: dict[str, str] = field(default_factory=dict)
    """Parameter (and attribute) descriptions by name, whitespace collapsed to single spaces."""


def parse_docstring(obj: Any) -> Docstring:
    """Parse the docstring of ``obj`` (a function, class, or the text itself); empty when there is none."""
    text = obj if isinstance(obj, str) else _own_doc(obj)
    if not text or not text.strip():
        return Docstring()
    parsed = docstring_parser.parse(inspect.cleandoc(text))
    parts = [p.strip() for p in (parsed.short_description, parsed.long_description) if p and p.strip()]
    params = {p.arg_name: _one_line(p.description) for p in parsed.params if p.arg_name and p.description}
    return Docstring(description="\n\n".join(parts), params=params)


def _own_doc(obj: Any) -> str | None:
    """The docstring written for ``obj`` itself, not one inherited or generated (dataclasses make one up)."""
    doc = obj.__dict__.get("__doc__") if isinstance(obj, type) else getattr(obj, "__doc__", None)
    if not isinstance(doc, str):
        return None
    if isinstance(obj, type) and doc.startswith(f"{obj.__name__}("):
        return None  # the signature text dataclasses put in place of a missing docstring
    return doc


def _one_line(text: str) -> str:
    return " ".join(text.split())
