"""The paste box's stage: pasted text → tools, the author's mistakes located at their line, the classified diff.

Oracles: a pasted function builds the same declaration as :func:`toolkit.from_function` on the same function
defined in a real module; a pasted fragment the same as :func:`toolkit.from_openapi` on the same text; a
fragment cut from a real document the same declarations as the whole document.

Internals: the paste stage (``_paste``: ``paste``, ``cut``, ``detect``, ``Draft``...) and ``parse_text``, the unit
under test behind the paste box.
"""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

import toolkit as tk
from toolkit import examples
from toolkit._paste import Draft, cut, detect, paste, source_of
from toolkit._paste._python import MODULE_PREFIX

FUNCTION = textwrap.dedent(
    '''
    from datetime import date
    from enum import Enum


    class Priority(Enum):
        low = "low"
        high = "high"


    def create_ticket(title: str, due_on: date, priority: Priority = Priority.low) -> dict:
        """Open a support ticket for the user's problem. Use it once the user has described the problem.

        Args:
            title: One line saying what is wrong, for example "Login times out".
            due_on: Calendar day the ticket must be answered by (ISO 8601, YYYY-MM-DD).
            priority: How urgent the ticket is: "low" or "high".
        """
        return {"title": title}
    '''
)

FRAGMENT = textwrap.dedent(
    """
    paths:
      /pets/{petId}:
        get:
          operationId: getPet
          x-agent-tool: true
          description: Look up one pet by its id. Use it when the user names a pet by id.
          parameters:
            - name: petId
              in: path
              required: true
              description: The pet's id, as listed by listPets.
              schema: {type: string}
    """
)


def _module_function(tmp_path: Path, source: str, name: str) -> Any:
    """The same source imported as a real module file: the oracle for a pasted function."""
    folder = tmp_path / "oracle"
    folder.mkdir()
    (folder / "pasted_oracle.py").write_text(source)
    sys.path.insert(0, str(folder))
    try:
        import pasted_oracle

        return getattr(pasted_oracle, name)
    finally:
        sys.path.remove(str(folder))
        sys.modules.pop("pasted_oracle", None)


# -- detection ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "kind"),
    [
        (FUNCTION, "python"),
        (FRAGMENT, "openapi"),
        ("openapi: 3.1.0\ninfo: {title: x, version: '1'}\npaths: {}\n", "openapi"),
        ('{"paths": {}}', "openapi"),
        ("/orders:\n  get:\n    operationId: listOrders\n", "openapi"),
        ("# a comment\n@decorator\ndef f(x: int) -> int:\n    return x\n", "python"),
        ('"""A module docstring."""\n\ndef f(x: int) -> int:\n    return x\n', "python"),
        ("swagger: '2.0'\npaths:\n  /a:\n    get:\n      description: |\n        return a failure.\n", "openapi"),
        ("def f(x:", "python"),
        ("", "python"),
    ],
    ids=[
        "function",
        "fragment",
        "document",
        "json",
        "path-item",
        "versioned-prose",
        "decorated",
        "docstring",
        "half-typed",
        "empty",
    ],
)
def test_detect_tells_python_from_openapi(text: str, kind: str) -> None:
    assert detect(text) == kind


# -- Python ------------------------------------------------------------------------------------------------
def test_a_pasted_function_declares_what_the_same_function_in_a_file_declares(tmp_path: Path) -> None:
    draft = paste(FUNCTION, namespace="support")
    assert draft.ok
    assert draft.kind == "python"
    oracle = tk.from_function(_module_function(tmp_path, FUNCTION, "create_ticket"), namespace="support")
    assert [t.declaration for t in draft.tools] == [oracle.declaration]
    assert draft.tools[0].args_schema == oracle.args_schema
    assert draft.reports[0].tool_name == "support_create_ticket"
    assert len(draft.reports[0].rows) == len(tk.fire(oracle).rows)


def test_a_pasted_function_runs_when_called() -> None:
    tool = paste(FUNCTION).tools[0]
    result = tool.call({"title": "Login times out", "due_on": "2030-01-31"})
    assert result.status == "ok"
    assert result.data == {"title": "Login times out"}


def test_every_public_function_becomes_a_tool_and_helpers_do_not() -> None:
    text = FUNCTION + "\n\ndef _helper(x: int) -> int:\n    return x\n\n\ndef close_ticket(ticket_id: str) -> None:\n"
    text += '    """Close one ticket. Use it when the user says the problem is solved.\n\n    Args:\n'
    text += '        ticket_id: The ticket id, for example "T-1".\n    """\n'
    draft = paste(text)
    assert [t.name for t in draft.tools] == ["create_ticket", "close_ticket"]


@pytest.mark.parametrize(
    ("text", "slug", "line", "words"),
    [
        ("def f(x: int\n    return x\n", "target_syntax_error", 1, "SyntaxError"),
        ("\n\nvalue = 1 / 0\n", "target_import_error", 3, "ZeroDivisionError"),
        ("import no_such_module_anywhere\n", "target_import_error", 1, "no module named 'no_such_module_anywhere'"),
        ('\n\ndef f(*args: int) -> None:\n    """Do."""\n', "varargs", 3, "*args"),
        ('def f(x) -> None:\n    """Do."""\n', "missing_annotation", 1, "no type annotation"),
        ("x = 3\n", "no_tools_in_module", None, "defines no function"),
        ("   \n", "no_tools", None, "nothing pasted yet"),
        ("def f(x: int) -> None:\n    '''Do.'''\nraise SystemExit(2)\n", "target_import_error", 3, "sys.exit()"),
    ],
    ids=["syntax", "exception", "missing-module", "varargs", "no-annotation", "no-function", "empty", "exit"],
)
def test_a_mistake_in_pasted_python_is_located_at_its_line(text: str, slug: str, line: int | None, words: str) -> None:
    draft = paste(text, "python")
    assert draft.problem is not None
    assert not draft.tools
    assert (draft.problem.slug, draft.problem.line) == (slug, line)
    assert words in draft.problem.message
    assert "<paste:" not in draft.problem.message, "the message speaks of lines, not of the compiled file name"
    if line is not None:
        assert draft.problem.message.startswith(f"line {line}: ")
    assert "Traceback" not in repr(draft._repr_mimebundle_())


def test_a_mistake_in_a_module_the_paste_imports_is_not_given_a_paste_line(tmp_path: Path) -> None:
    (tmp_path / "broken_helper_module.py").write_text("\n\n\nraise RuntimeError('boom')\n")
    sys.path.insert(0, str(tmp_path))
    try:
        draft = paste("import broken_helper_module\n", "python")
    finally:
        sys.path.remove(str(tmp_path))
    assert draft.problem is not None
    assert draft.problem.line is None
    assert "broken_helper_module.py:4" in draft.problem.message


def test_pasted_code_that_never_finishes_is_interrupted() -> None:
    draft = paste("x = 1\nwhile True:\n    pass\n", "python", time_limit=0.2)
    assert draft.problem is not None
    assert (draft.problem.slug, draft.problem.line) == ("preview_timeout", 2)
    assert draft.problem.message.startswith("line 2: the pasted code was still running after 0.2 s")


def test_code_that_catches_every_exception_cannot_swallow_the_interruption() -> None:
    text = "while True:\n    try:\n        pass\n    except Exception:\n        pass\n"
    assert paste(text, "python", time_limit=0.2).problem is not None


def test_pasted_modules_are_registered_under_their_text() -> None:
    first = paste(FUNCTION).tools[0]
    module = sys.modules[first.fn.__module__]
    assert module.__name__.startswith(MODULE_PREFIX)
    assert paste(FUNCTION).tools[0].fn.__module__ == module.__name__
    assert paste(FUNCTION + "\n").tools[0].fn.__module__ != module.__name__


# -- OpenAPI -------------------------------------------------------------------------------------------------
def test_a_pasted_fragment_builds_what_from_openapi_builds() -> None:
    draft = paste(FRAGMENT, namespace="pets")
    oracle = tk.from_openapi(FRAGMENT, namespace="pets")
    assert draft.kind == "openapi"
    assert [t.declaration for t in draft.tools] == [t.declaration for t in oracle.tools]
    assert draft.tools[0].binding == {"petId": "path"}


def test_a_fragment_that_opts_nothing_in_says_how_to_opt_in_or_selects_all() -> None:
    text = FRAGMENT.replace("x-agent-tool: true", "tags: [pets]")
    draft = paste(text)
    assert draft.problem is not None
    assert draft.problem.slug == "no_tools"
    assert "x-agent-tool: true" in draft.problem.message
    assert [t.name for t in paste(text, select="all").tools] == ["api_get_pet"]


def test_a_fragment_whose_operations_are_all_refused_names_the_first_refusal() -> None:
    draft = paste(FRAGMENT.replace("      operationId: getPet\n", ""))
    assert draft.problem is not None
    assert "missing_operation_id" in draft.problem.message
    assert [r.slug for r in draft.rejected] == ["missing_operation_id"]


@pytest.mark.parametrize(
    ("text", "line"),
    [("paths:\n  /a:\n    get: [\n", 3), ('{"paths": {"/a": ]}', 1), ("paths: 3\n", None)],
    ids=["yaml", "json", "paths-not-a-map"],
)
def test_a_fragment_that_cannot_be_read_is_located(text: str, line: int | None) -> None:
    draft = paste(text, "openapi")
    assert draft.problem is not None
    assert draft.problem.line == line
    assert draft.problem.slug in {"parse_error", "bad_paths"}


def test_short_text_ending_in_yaml_is_never_read_as_a_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "spec.yaml").write_text(FRAGMENT)
    monkeypatch.chdir(tmp_path)
    draft = paste("spec.yaml", "openapi")
    assert draft.problem is not None
    assert not draft.tools


# -- the diff against the previous version --------------------------------------------------------------------
def test_an_edit_is_classified_against_the_previous_version() -> None:
    before = paste(FUNCTION)
    team = '        team: The team that answers, for example "billing".\n'
    required = FUNCTION.replace("due_on: date,", "due_on: date, team: str,").replace(
        "        priority:", team + "        priority:"
    )
    after = paste(required, baseline=before.tools)
    assert after.diff is not None
    assert after.diff.verdict == "breaking"
    assert [(c.rule, c.path) for c in after.diff.changes] == [("required_parameter_added", "team")]
    assert after.diff == tk.diff_declarations(before.tools, after.tools)
    assert paste(FUNCTION, baseline=before.tools).diff.verdict == "none"
    assert paste(FUNCTION).diff is None


def test_a_renamed_function_is_a_renamed_tool() -> None:
    before = paste(FUNCTION)
    after = paste(FUNCTION.replace("def create_ticket", "def open_ticket"), baseline=before.tools)
    assert after.diff is not None
    assert [(c.rule, c.kind) for c in after.diff.changes] == [("tool_renamed", "breaking")]


def test_unchanged_contracts_are_not_fired_again() -> None:
    fired: dict[str, Any] = {}
    first = paste(FUNCTION, fired=fired)
    again = paste(FUNCTION.replace("return {", "return  {"), fired=fired)
    assert again.reports[0] is first.reports[0]
    edited = paste(FUNCTION.replace('"low" or "high"', '"low" or "high" (default "low")'), fired=fired)
    assert edited.reports[0] is not first.reports[0]
    assert len(fired) == 2


def test_the_draft_shows_itself_as_text_and_html() -> None:
    before = paste(FUNCTION)
    after = paste(FUNCTION.replace("title: str,", "title: str | None,"), baseline=before.tools)
    bundle = after._repr_mimebundle_()
    text = bundle["text/plain"]
    assert text.splitlines()[0] == "Paste (Python): 1 tool"
    assert "create_ticket" in text
    assert "diff against the previous version: " in text
    assert "tk-draft" in bundle["text/html"]
    broken = paste("def f(:\n")._repr_mimebundle_()
    assert broken["text/plain"].startswith("Paste (Python): not built — target_syntax_error\nproblem: line 1:")


def test_an_unknown_kind_is_a_misuse() -> None:
    with pytest.raises(tk.SpecError, match="python, openapi") as caught:
        paste("x", "ruby")  # type: ignore[arg-type]
    assert caught.value.slug == "bad_source"


# -- where an edit starts ------------------------------------------------------------------------------------------
def test_a_function_tool_starts_from_its_source_and_builds_unchanged() -> None:
    tool = tk.from_function(examples.search_issues, namespace="issues", effect="read")
    source = source_of(tool)
    assert source.text.startswith("def search_issues(")
    assert (source.kind, source.namespace, source.effect) == ("python", "issues", "read")
    draft = paste(source.text, source.kind, namespace="issues", effect="read", seed=source.seed, baseline=[tool])
    assert draft.ok, draft.problem
    assert draft.tools[0].declaration == tool.declaration
    assert draft.diff is not None
    assert draft.diff.verdict == "none"


def test_an_openapi_tool_starts_from_the_fragment_of_its_operation(repo_root: Path) -> None:
    orders = tk.from_openapi(repo_root / "specs" / "orders.yaml", namespace="orders")
    tool = orders["orders_get"]
    source = source_of(tool, [orders])
    assert source.kind == "openapi"
    assert "/orders/{orderId}:" in source.text
    assert "post:" not in source.text.split("components:")[0], "only the tool's own operation is cut out"
    draft = paste(source.text, namespace=source.namespace, baseline=[tool])
    assert [t.declaration for t in draft.tools] == [tool.declaration]


def test_a_tool_whose_source_cannot_be_found_says_so() -> None:
    orders = tk.from_openapi(FRAGMENT, namespace="pets")
    with pytest.raises(tk.TargetError) as caught:
        source_of(orders.tools[0])
    assert caught.value.slug == "target_not_found"
    assert source_of(orders.tools[0], [orders], {"pets": FRAGMENT}).text.startswith("paths:")


@pytest.mark.corpus
@pytest.mark.parametrize("spec", ["petstore-expanded-3.0.yaml", "petstore-swagger2.yaml", "tictactoe-3.1.yaml"])
def test_a_fragment_cut_from_a_real_document_declares_what_the_document_declares(corpus_dir: Path, spec: str) -> None:
    from toolkit._openapi._parse import parse_text

    whole = tk.from_openapi(corpus_dir / spec, namespace="api", select="all")
    document = parse_text((corpus_dir / spec).read_bytes())
    assert whole.tools
    for tool in whole.tools:
        assert tool.path is not None
        assert tool.method is not None
        fragment = cut(document, [(tool.path, tool.method.lower())])
        part = tk.from_openapi(json.loads(json.dumps(fragment)), namespace="api", select="all")
        assert [t.declaration for t in part.tools] == [tool.declaration], tool.name


def test_a_draft_is_frozen_data() -> None:
    draft = paste(FUNCTION)
    assert isinstance(draft, Draft)
    with pytest.raises(AttributeError):
        draft.kind = "openapi"  # type: ignore[misc]


def test_a_bracket_left_open_on_the_last_line_is_reported_at_that_line_and_quoted() -> None:
    from toolkit._display._paste import problem_html

    text = FRAGMENT.rstrip("\n") + "\n        extra: {a: 1"
    last = len(text.splitlines())
    draft = paste(text, "openapi")
    assert draft.problem is not None
    assert draft.problem.line == last
    assert draft.problem.message.startswith(f"line {last}: ")
    assert f"{last:>4} | " in problem_html(draft.problem, text)
