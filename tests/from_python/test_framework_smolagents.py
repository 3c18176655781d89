"""smolagents tools: read with smolagents' own names, descriptions and ``inputs``, the oracle being what
smolagents itself sends (``get_tool_json_schema``), and called with the same result as smolagents calls them."""

from __future__ import annotations

import pytest

pytest.importorskip("smolagents", reason="smolagents is not installed (optional extra `frameworks`)")

from framework_tools import described, differences
from framework_tools.smolagents_tools import CASES, TagPhotos
from google.genai import types as genai_types
from smolagents.models import get_tool_json_schema

import toolkit as tk


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_tool_reads_as_smolagents_declares_it(name: str) -> None:
    case = CASES[name]
    tool = tk.from_function(case.obj)
    declared = get_tool_json_schema(case.obj)["function"]
    for key, spec in case.obj.inputs.items():  # smolagents sends "any" as string, and accepts any value
        if spec["type"] == "any":
            del declared["parameters"]["properties"][key]["type"]
    assert differences(tool, declared["name"], declared["description"], declared["parameters"]) == []
    assert set(tool.declaration["parameters"]["properties"]) == case.visible
    assert described(tool.args_schema) == described(declared["parameters"]) == len(case.visible)
    assert tool.contract.framework is not None
    assert tool.contract.framework.framework == "smolagents"
    # smolagents marks every optional input nullable and sends it so: where the function refuses None, the
    # lint says the model may be told it can send null (and nothing else differs)
    refuses_none = {
        key
        for key, spec in case.obj.inputs.items()
        if spec.get("nullable") and spec["type"] != "any" and "anyOf" not in tool.args_schema["properties"][key]
    }
    assert {(lint.code, lint.path) for lint in tool.lints if lint.code.startswith("TK7")} == {
        ("TK704", key) for key in refuses_none
    }
    genai_types.FunctionDeclaration.model_validate(tool.declaration)


def test_an_unannotated_forward_takes_its_types_from_inputs() -> None:
    tool = tk.from_function(TagPhotos())
    assert tool.args_schema["properties"]["tags"]["type"] == "array"
    assert tool.args_schema["required"] == ["album", "tags"]
    assert tool.validate({"album": "a1", "tags": "summer"}).status == "invalid_arguments"


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("convert_currency", {"amount": 12.5, "source": "USD"}),
        ("search_catalogue", {"query": "lamp", "limit": 3, "in_stock": True}),
        ("tag_photos", {"album": "a1", "tags": ["summer", "sea"]}),
        ("python_interpreter", {"code": "1 + 2"}),
    ],
)
def test_toolkit_calls_the_tool_as_smolagents_does(name: str, args: dict[str, object]) -> None:
    obj = CASES[name].obj
    result = tk.from_function(obj).call(args)
    assert result.status == "ok", result
    assert result.data == obj(**args)


def test_a_bound_forward_reads_its_owner_s_inputs() -> None:
    obj = CASES["search_catalogue"].obj
    from_method = tk.from_function(obj.forward)
    assert from_method.name == "search_catalogue"
    assert from_method.args_schema == tk.from_function(obj).args_schema
    assert described(from_method.args_schema) == 3
