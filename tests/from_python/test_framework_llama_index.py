"""llama-index tools: read with llama-index's own names, descriptions and ``fn_schema`` (its
``to_openai_tool()`` is the oracle), the workflow ``Context`` hidden, and called with the result llama-index's
own ``call``/``acall`` gives. llama-index-core is not in the `frameworks` extra (34 packages, about 145 MB):
``.ci/setup`` installs it in ``.venv-frameworks``, where ``test_frameworks_in_their_venv.py`` runs this file."""

from __future__ import annotations

import asyncio

import pytest

pytest.importorskip("llama_index.core.tools", reason="llama-index-core is not installed (see .ci/setup)")

from framework_tools import described, differences
from framework_tools.llama_index_tools import CASES

import toolkit as tk


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_tool_reads_as_llama_index_declares_it(name: str) -> None:
    case = CASES[name]
    declared = case.obj.metadata.to_openai_tool()["function"]
    tool = tk.from_function(case.obj)
    assert differences(tool, declared["name"], declared["description"], declared["parameters"]) == []
    assert {i.name for i in tool.contract.injected} == case.injected
    assert set(tool.declaration["parameters"]["properties"]) == case.visible
    assert described(tool.args_schema) >= described(declared["parameters"])
    assert tool.contract.framework is not None
    assert tool.contract.framework.framework == "llama-index"


def test_the_signature_line_llama_index_writes_is_not_the_description() -> None:
    obj = CASES["track_parcel"].obj
    assert obj.metadata.description.startswith("track_parcel(tracking_number")
    assert tk.from_function(obj).description == "Tell where a parcel is and when it should arrive."


def test_a_tool_spec_method_keeps_its_docstring_descriptions_and_bounds_come_through() -> None:
    tool = tk.from_function(CASES["list_events"].obj)
    assert tool.args_schema["properties"]["day"]["description"].startswith("The day, as an ISO 8601 date")
    rated = tk.from_function(CASES["rate_answer"].obj)
    assert rated.validate({"answer_id": 1, "stars": 9}).status == "invalid_arguments"


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("track_parcel", {"tracking_number": "JD0001"}),
        ("rate_answer", {"answer_id": 7, "stars": 4}),
        ("list_events", {"day": "2026-12-03", "limit": 1}),
        ("cancel_event", {"event_id": "e-1", "notify": False}),
        ("handbook", {"input": "how many days off?"}),
    ],
)
def test_toolkit_calls_the_tool_as_llama_index_does(name: str, args: dict[str, object]) -> None:
    obj = CASES[name].obj
    result = tk.from_function(obj).call(args)
    assert result.status == "ok", result
    expected = asyncio.run(obj.acall(**args)).raw_output
    assert result.data == (expected if name != "handbook" else obj.call(**args).model_dump(mode="json"))
