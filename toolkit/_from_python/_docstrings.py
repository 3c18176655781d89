"""Read a docstring into a tool description and per-parameter descriptions.

Google, NumPy and reST (Sphinx) styles are parsed by ``docstring-parser``; the style is detected per
docstring. The tool description is the summary and body only: ``Args``/``Parameters``/``Returns``/``Raises``
sections never leak into it, because their words belong to the parameters (or to nobody).

A malformed line costs that line only: ``docstring-parser`` reads a style all or nothing, so whatever it
lost (every parameter of a Google section with one colon-less line, a reST field missing its colon, a
markdown ``**Args:**`` list) is taken from the per-line reader :mod:`._recovery`, and the lines neither
could read are kept as ``notes``.
"""

from __future__ import annotations

import inspect
import textwrap
from typing import Any, NamedTuple

import docstring_parser

from toolkit._from_python._recovery import recover
from toolkit._regex import lazy

__all__ = ["Docstring", "parse_docstring"]


class Docstring(NamedTuple):
    """The parts of a docstring a tool declaration uses."""

    description: str
    params: dict[str, str]
    """Parameter (and attribute) descriptions by name, whitespace collapsed to single spaces."""
    notes: tuple[str, ...]
    """Lines of a parameter section that could not be read (``"line 5: '...' is not 'name: description'"``)."""


def parse_docstring(obj: Any) -> Docstring:
    """Parse the docstring of ``obj`` (a function, class, or the text itself); empty when there is none."""
    text = obj if isinstance(obj, str) else _own_doc(obj)
    if not text or not text.strip():
        return Docstring("", {}, ())
    headless = _starts_with_section(text.strip())
    text = textwrap.dedent(_indent_first_line(text)).strip() if headless else inspect.cleandoc(text)
    parsed = docstring_parser.parse(f"{_PLACEHOLDER}\n\n{text}" if headless else text)
    summary = None if headless else parsed.short_description
    parts = [p.strip() for p in (summary, parsed.long_description) if p and p.strip()]
    params = {
        p.arg_name: _one_line(p.description)
        for p in parsed.params
        if p.arg_name and p.description and p.arg_name.isidentifier()
    }
    description = "\n\n".join(parts)
    recovered = recover(text)
    if recovered.structured and _leaks_a_section(description):
        description = "" if headless else recovered.description
    return Docstring(description, {**recovered.params, **params}, recovered.notes)


def _leaks_a_section(description: str) -> bool:
    """Whether a section header or field reached the description (``docstring-parser`` gave up on a style)."""
    return recover(description).structured


_PLACEHOLDER = "_"
_SECTION = lazy(r"^(:\w+|(Args|Arguments|Parameters|Params|Attributes|Returns|Raises|Yields):?\s*$)")


def _starts_with_section(text: str) -> bool:
    """A docstring that opens with a section (no summary line) confuses the parsers; they need a summary."""
    return bool(_SECTION.match(text.splitlines()[0]))


def _indent_first_line(text: str) -> str:
    """Give a headless docstring's first line the indentation of its other section headers.

    Python strips nothing from a docstring: the first line starts right after the quotes, the rest keeps the
    source indentation. ``cleandoc`` would flatten the entries under ``Args:`` to the header's level.
    """
    lines = text.expandtabs().strip("\n").splitlines()
    rest = [line for line in lines[1:] if line.strip()]
    if not rest:
        return lines[0].strip()
    headers = [line for line in rest if _SECTION.match(line.strip()) or set(line.strip()) == {"-"}]
    indents = [len(line) - len(line.lstrip()) for line in (headers or rest)]
    indent = min(indents) if headers else max(min(indents) - 4, 0)
    return "\n".join([" " * indent + lines[0].strip(), *lines[1:]])


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
