"""haystack tools: read with haystack's own names, descriptions and ``parameters`` (the oracle), the
agent-state inputs of a ``ComponentTool`` hidden, and called with the result haystack's ``invoke`` gives."""

from __future__ import annotations

import pytest

pytest.importorskip("haystack.tools", reason="haystack-ai is not installed (optional extra `frameworks`)")

from framework_tools import described, differences
from framework_tools.haystack_tools import CASES
from google.genai import types as genai_types

import toolkit as tk


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_tool_reads_as_haystack_declares_it(name: str) -> None:
    case = CASES[name]
    obj = case.obj
    tool = tk.from_function(obj)
    assert differences(tool, obj.name, obj.description, obj.parameters) == []
    assert {i.name for i in tool.contract.injected} == case.injected
    assert set(tool.declaration["parameters"]["properties"]) == case.visible
    assert described(tool.args_schema) >= described(obj.parameters)
    assert described(tool.args_schema) == len(case.visible)  # @tool's reST :param: lines are read too
    genai_types.FunctionDeclaration.model_validate(tool.declaration)


def test_the_state_input_is_injected_with_haystack_s_reason() -> None:
    tool = tk.from_function(CASES["translate"].obj)
    (language,) = tool.contract.injected
    assert language.framework == "haystack"
    assert "user_language" in language.reason
    assert "language" not in tool.args_schema["properties"]


def test_a_kwargs_function_takes_its_parameters_from_the_json_schema() -> None:
    tool = tk.from_function(CASES["archive_ticket"].obj)
    assert tool.args_schema["properties"]["labels"]["anyOf"][0] == {"items": {"type": "string"}, "type": "array"}
    assert tool.validate({"ticket": "12"}).status == "invalid_arguments"


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("book_table", {"restaurant": "Chez Paul", "guests": 2, "seating": "terrace"}),
        ("count_words", {"text": "the cat and the hat", "unique": True}),
        ("archive_ticket", {"ticket": 42, "labels": ["billing"]}),
        ("translate", {"text": "good morning", "formal": True}),
    ],
)
def test_toolkit_calls_the_tool_as_haystack_invokes_it(name: str, args: dict[str, object]) -> None:
    obj = CASES[name].obj
    result = tk.from_function(obj).call(args)
    assert result.status == "ok", result
    assert result.data == obj.invoke(**args)
