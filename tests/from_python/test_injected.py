"""Framework contexts are recognised by qualified name, from annotation objects and from strings, without
importing any framework; the contract lists each injected parameter and why; toolkit's own context stays.

Internals: ``_from_python._context_types`` and ``_injected``, the recognition tables of framework contexts under
test."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
import typing
from typing import Any

import pytest
from locations import TESTS

import toolkit as tk
from toolkit import Injected, SignatureError, ToolContext
from toolkit._from_python import _context_types as context_types
from toolkit._from_python import _injected as injected_module

FRAMEWORKS = ("google.adk", "langchain_core", "langgraph", "fastmcp", "mcp", "agents", "pydantic_ai", "agno")

SCRIPT = """
import json, sys
sys.path.insert(0, {tests!r})
import toolkit as tk
from framework_tools import typing_only
found = {{}}
for name in typing_only.EXPECTED:
    tool = tk.from_function(getattr(typing_only, name))
    found[name] = {{"injected": {{i.name: i.framework for i in tool.contract.injected}},
                    "visible": sorted(tool.args_schema["properties"])}}
try:
    tk.from_function(typing_only.context_or_text)
except tk.SignatureError as error:
    found["refused"] = error.slug
loaded = sorted(m for m in sys.modules if any(m == f or m.startswith(f + ".") for f in {frameworks!r}))
print(json.dumps({{"found": found, "loaded": loaded}}))
"""


@pytest.fixture(scope="module")
def string_run() -> dict[str, Any]:
    """Build the type-checking-only tools in a fresh interpreter and list the frameworks it imported."""
    tests = str(TESTS)
    code = SCRIPT.format(tests=tests, frameworks=FRAMEWORKS)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    return json.loads(out.stdout)  # type: ignore[no-any-return]


def test_string_annotations_naming_frameworks_are_recognised(string_run: dict[str, Any]) -> None:
    from framework_tools.typing_only import EXPECTED

    found = string_run["found"]
    for name, expected in EXPECTED.items():
        assert found[name]["injected"] == expected, name
        assert not set(found[name]["visible"]) & set(expected), name


def test_no_framework_is_imported_to_recognise_its_context(string_run: dict[str, Any]) -> None:
    assert string_run["loaded"] == []


def test_a_union_of_a_context_and_data_is_refused(string_run: dict[str, Any]) -> None:
    assert string_run["found"]["refused"] == "mixed_context"


def test_an_unresolvable_string_that_names_no_context_is_still_refused() -> None:
    namespace: dict[str, Any] = {"__name__": "nowhere"}
    exec("def f(x: 'Missing', y: int) -> None:\n    '''Do it.'''\n", namespace)  # a string annotation
    with pytest.raises(SignatureError) as caught:
        tk.from_function(namespace["f"])
    assert caught.value.slug == "unresolved_annotation"
    assert "'x'" in caught.value.message


def test_toolkit_s_own_context_is_recorded_as_injected_and_passed_by_call() -> None:
    seen: list[ToolContext] = []

    def tag(label: str, context: ToolContext | None = None) -> str:
        """Tag the current session.

        Args:
            label: The tag's text.
        """
        assert context is not None
        seen.append(context)
        return f"{context.session_id}:{label}"

    tool = tk.from_function(tag)
    assert tool.contract.injected == (
        Injected(
            "context",
            "toolkit",
            "toolkit.ToolContext",
            "toolkit passes its ToolContext (session, call id, progress) in Tool.call",
            False,
        ),
    )
    assert tool.call({"label": "x"}, ToolContext(session_id="s-9")).data == "s-9:x"
    text = tool._repr_mimebundle_()["text/plain"]
    assert "injected (1):" in text
    assert "toolkit.ToolContext" in text


def test_a_subclass_of_a_framework_context_is_recognised_by_its_bases() -> None:
    agents = pytest.importorskip("agents", reason="openai-agents is not installed (optional extra `frameworks`)")

    class Wrapper(agents.RunContextWrapper[int]):  # type: ignore[misc]
        pass

    def lookup(ctx: Any, key: str) -> str:
        """Look a key up.

        Args:
            key: The key to look up.
        """
        return key

    lookup.__annotations__ = {"ctx": Wrapper, "key": str, "return": str}  # a local class: set as an object
    (injected,) = tk.from_function(lookup).contract.injected
    assert (injected.name, injected.framework) == ("ctx", "openai-agents")
    assert injected.type == "agents.run_context.RunContextWrapper"


def test_a_subclass_of_toolkit_s_context_is_not_taken_for_it() -> None:
    """Tool.call passes a ToolContext, never a subclass: a subclass annotation is data, and refused as such."""

    class Mine(ToolContext):
        pass

    def f(context: Any) -> None:
        """Do it."""

    f.__annotations__ = {"context": Mine, "return": None}  # a local class: set as an object
    with pytest.raises(SignatureError) as caught:
        tk.from_function(f)
    assert caught.value.slug == "unsupported_type"
    assert "toolkit.ToolContext" in caught.value.message  # the refusal names the way to inject a value


def test_injected_records_are_plain_data() -> None:
    injected = Injected("ctx", "pydantic-ai", "pydantic_ai.RunContext", "why", True)
    assert injected.to_dict() == {
        "name": "ctx",
        "framework": "pydantic-ai",
        "type": "pydantic_ai.RunContext",
        "reason": "why",
        "required": True,
    }
    assert typing.get_type_hints(Injected)["required"] is bool


def test_the_summary_shows_who_fills_each_injected_parameter_and_why() -> None:
    def tag(label: str, context: ToolContext) -> str:
        """Tag the current session.

        Args:
            label: The tag's text, a word or two.
        """
        return label

    bundle = tk.from_function(tag)._repr_mimebundle_()
    html, text = bundle["text/html"], bundle["text/plain"]
    assert "Injected" in html
    assert "toolkit passes its ToolContext" in html
    lines = text.split("injected (1):")[1].splitlines()
    assert lines[2].split()[:3] == ["context", "toolkit", "toolkit.ToolContext"]  # under the header row


def _resolve_path(path: str) -> Any:
    """The object a dotted path names, importing its module; ``None`` when that module does not exist."""
    parts = path.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        try:
            obj: Any = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for name in parts[cut:]:
            obj = getattr(obj, name, None)
        return obj
    return None


@pytest.mark.parametrize("table", ["CONTEXTS", "MARKERS", "DEFAULTS"])
def test_every_importable_name_in_the_tables_is_recognised_as_what_the_table_says(table: str) -> None:
    """Catches a framework release that moves a class: its new definition site must be in the table too."""
    entries = getattr(context_types, table)
    resolved = 0
    for path, kind in entries.items():
        obj = _resolve_path(path)
        if obj is None or path.startswith("toolkit"):
            continue  # a historical location, or a framework that is not installed here
        resolved += 1
        found = injected_module._of_class(obj, entries)
        assert found is not None, path
        assert found[0].framework == kind.framework, path
    assert resolved >= len({kind.framework for kind in entries.values()} - {"toolkit"}) - 1
