"""A malformed docstring line costs that line only: the corpus in ``bad_inputs/docstrings`` pins, per
docstring, the parameter descriptions recovered, the lines skipped, and a description free of section text.

Internals: the docstring parser and its recovery (``_from_python._docstrings``, ``_recovery``), the unit under test."""

from __future__ import annotations

import inspect
from typing import Any

import pytest
from locations import TESTS
from module_support import load_module

import toolkit as tk
from toolkit._from_python._docstrings import parse_docstring
from toolkit._from_python._recovery import recover

CORPUS = TESTS / "bad_inputs" / "docstrings" / "malformed.py"
SECTION_TEXT = ("Args", "Arguments", "arguments", "Parameters", ":param", "@param", "**", "Keyword", "Returns")


def load_corpus() -> list[tuple[Any, dict[str, str], tuple[str, ...]]]:
    return list(load_module("malformed_docstrings", CORPUS).CASES)


CASES = load_corpus()
IDS = [fn.__name__ for fn, _, _ in CASES]


@pytest.mark.parametrize(("fn", "expected", "skipped"), CASES, ids=IDS)
def test_every_readable_description_is_recovered(fn: Any, expected: dict[str, str], skipped: tuple[str, ...]) -> None:
    tool = tk.from_function(fn)
    described = {name: prop.get("description") for name, prop in tool.args_schema["properties"].items()}
    assert {name: text for name, text in described.items() if text} == expected


@pytest.mark.parametrize(("fn", "expected", "skipped"), CASES, ids=IDS)
def test_only_the_unreadable_lines_are_skipped(fn: Any, expected: dict[str, str], skipped: tuple[str, ...]) -> None:
    notes = [note for note in parse_docstring(fn).notes if note.endswith("skipped")]
    assert len(notes) == len(skipped)
    for note, line in zip(notes, skipped, strict=True):
        assert line[:40] in note


@pytest.mark.parametrize(("fn", "expected", "skipped"), CASES, ids=IDS)
def test_the_description_is_the_summary_without_section_text(
    fn: Any, expected: dict[str, str], skipped: tuple[str, ...]
) -> None:
    description = tk.from_function(fn).description
    assert not [word for word in SECTION_TEXT if word in description]
    first = inspect.cleandoc(fn.__doc__.expandtabs(4)).splitlines()[0]
    summary = description.splitlines()[0] if description else ""
    assert summary == ("" if first.endswith(":") else first)  # a docstring opening with Args: has no summary


def test_a_skipped_line_is_reported_with_its_line_number() -> None:
    found = recover("Search.\n\nArgs:\n    Stray sentence here.\n    q: The query.\n")
    assert found.params == {"q": "The query."}
    assert found.notes == ("line 4: 'Stray sentence here.' is not 'name: description'; skipped",)


def test_a_continuation_at_the_entry_s_indent_is_kept_and_noted() -> None:
    found = recover("Read.\n\nArgs:\n    path: File to read, relative\n    to the root.\n")
    assert found.params == {"path": "File to read, relative to the root."}
    assert found.notes == ("line 5: 'to the root.' read as more of 'path'",)


def test_prose_mentioning_a_section_word_is_not_a_section() -> None:
    found = recover("Returns\nthe newest item; the word above is prose.\n\nArgs:\n    n: How many.\n")
    assert found.params == {"n": "How many."}
    assert found.description == "Returns\nthe newest item; the word above is prose."


def test_well_formed_docstrings_keep_docstring_parser_s_reading() -> None:
    def f(a: int, b: int) -> None:
        """Add.

        Args:
            a: First value,
                wrapped onto a deeper line.
            b: Second value.

        Returns:
            Nothing.
        """

    doc = parse_docstring(f)
    assert doc.params == {"a": "First value, wrapped onto a deeper line.", "b": "Second value."}
    assert doc.description == "Add."
    assert doc.notes == ()
