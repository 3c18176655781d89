"""CrewAI tools: read with the name, description and parameters CrewAI sends (its
``convert_tools_to_openai_schema`` is the oracle; its ``args_schema`` says what is required), a ``_run`` taking
``**kwargs`` given the parameters of ``args_schema``, a bound ``_run`` read with its owner's ``args_schema``, and
called with the result CrewAI's ``run`` gives. CrewAI pins pydantic, openai and mcp below the versions this
suite pins, so ``.ci/setup`` installs it in ``.venv-frameworks``, where ``test_frameworks_in_their_venv.py``
runs this file."""

from __future__ import annotations

import pytest

pytest.importorskip("crewai.tools", reason="crewai is not installed (see .ci/setup)")

from crewai.utilities.agent_utils import convert_tools_to_openai_schema
from framework_tools import described, differences
from framework_tools.crewai_tools import CASES, IssueRefund

import toolkit as tk


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_tool_reads_as_crewai_sends_it(name: str) -> None:
    case = CASES[name]
    (sent,), _, _ = convert_tools_to_openai_schema([case.obj])
    declared = sent["function"]
    required = case.obj.args_schema.model_json_schema().get("required", [])  # CrewAI sends all as required
    tool = tk.from_function(case.obj)
    assert (
        differences(tool, declared["name"], declared["description"], {**declared["parameters"], "required": required})
        == []
    )
    assert set(tool.declaration["parameters"]["properties"]) == case.visible
    assert described(tool.args_schema) >= described(declared["parameters"])
    assert not [lint for lint in tool.lints if lint.code.startswith("TK7")]


def test_a_kwargs_run_takes_the_args_schema_fields_with_their_bounds() -> None:
    tool = tk.from_function(IssueRefund())
    assert tool.args_schema["properties"]["amount_cents"]["maximum"] == 50_000
    assert tool.args_schema["properties"]["reason"]["enum"] == ["damaged", "late", "other"]
    assert tool.validate({"order_id": "A-1", "amount_cents": 0}).status == "invalid_arguments"


@pytest.mark.parametrize("name", ["lookup_customer", "issue_refund"])
def test_a_bound_run_reads_its_owner_s_args_schema(name: str) -> None:
    obj = CASES[name].obj
    from_method, from_object = tk.from_function(obj._run), tk.from_function(obj)
    assert from_method.args_schema == from_object.args_schema
    assert from_method.name == from_object.name
    assert described(from_method.args_schema) == len(CASES[name].visible)


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("lookup_customer", {"email": "ada@example.com", "include_orders": True}),
        ("issue_refund", {"order_id": "A-1042", "amount_cents": 1250, "reason": "late"}),
        ("convert_temperature", {"celsius": 20.0, "scale": "K"}),
    ],
)
def test_toolkit_calls_the_tool_as_crewai_runs_it(name: str, args: dict[str, object]) -> None:
    obj = CASES[name].obj
    result = tk.from_function(obj).call(args)
    assert result.status == "ok", result
    assert result.data == obj.run(**args)
