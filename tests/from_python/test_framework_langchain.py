"""LangChain and LangGraph tools: tool objects with their ``args_schema`` truth, injected arguments hidden from
the model, and runs under LangChain (``invoke``/``ainvoke``) and a LangGraph ``ToolNode`` that fill them."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

pytest.importorskip("langchain_core.tools", reason="langchain-core is not installed (optional extra `frameworks`)")
pytest.importorskip("langgraph.prebuilt", reason="langgraph is not installed (optional extra `frameworks`)")

from framework_tools.langchain_tools import CASES, QuoteShipping, find_orders
from google.genai import types as genai_types
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.messages import AIMessage, ToolMessage

import toolkit as tk


class Recorder(BaseCallbackHandler):
    """Records what a tool's run manager reports."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.started: list[str] = []

    def on_tool_start(self, serialized: dict[str, Any], input_str: str, **kwargs: Any) -> None:
        self.started.append(str(serialized.get("name")))

    def on_text(self, text: str, **kwargs: Any) -> None:
        self.texts.append(text)


DESTINATION = {"street": "1 rue de la Paix", "city": "Paris", "country": "FR"}


@pytest.mark.parametrize("name", sorted(CASES))
def test_injected_arguments_are_hidden_from_the_declaration(name: str) -> None:
    case = CASES[name]
    tool = tk.from_function(case.obj, effect="read")
    assert tool.name == name
    assert {i.name for i in tool.contract.injected} == case.injected
    assert set(tool.args_schema["properties"]) == case.visible
    assert set(tool.declaration["parameters"]["properties"]) == case.visible
    genai_types.FunctionDeclaration.model_validate(tool.declaration)


@pytest.mark.parametrize("name", sorted(CASES))
def test_descriptions_are_complete_and_free_of_the_args_section(name: str) -> None:
    tool = tk.from_function(CASES[name].obj, effect="read")
    assert tool.description
    assert "Args:" not in tool.description
    assert not [lint for lint in tool.lints if lint.slug == "missing_parameter_description"]


def test_a_tool_class_takes_types_constraints_and_descriptions_from_its_args_schema() -> None:
    tool = tk.from_function(QuoteShipping(), effect="read")
    assert tool.description == QuoteShipping().description
    props = tool.args_schema["properties"]
    assert props["weight_grams"] == {
        "description": "Parcel weight in grams, packaging included.",
        "exclusiveMinimum": 0,
        "type": "integer",
    }
    assert props["speed"]["enum"] == ["standard", "express"]
    assert tool.args_schema["$defs"]["Address"]["properties"]["country"]["description"].startswith("ISO 3166-1")
    assert tool.contract.framework is not None
    assert tool.contract.framework.object_type.endswith("QuoteShipping")
    assert not [lint for lint in tool.lints if lint.code.startswith("TK7")]  # the args_schema and toolkit agree
    strict = tk.from_function(QuoteShipping())  # a write tool rejects out-of-range numbers (a read tool clamps)
    assert strict.validate({"weight_grams": 0, "destination": DESTINATION}).status == "invalid_arguments"


def test_run_manager_reaches_the_tool_class_under_langchain() -> None:
    recorder = Recorder()
    out = QuoteShipping().invoke({"weight_grams": 500, "destination": DESTINATION}, config={"callbacks": [recorder]})
    assert out["cents"] == 455
    assert out["run_id"] is not None  # _run received LangChain's CallbackManagerForToolRun
    assert recorder.texts == ["quoting 500 g to FR"]
    assert recorder.started == ["quote_shipping"]


def test_the_async_run_manager_reaches_arun_under_langchain() -> None:
    recorder = Recorder()
    args = {"weight_grams": 1000, "destination": DESTINATION, "speed": "express"}
    out = asyncio.run(QuoteShipping().ainvoke(args, config={"callbacks": [recorder]}))
    assert out["cents"] == 450 + 10 + 900
    assert recorder.texts == ["quoting asynchronously"]


def test_the_toolkit_tool_calls_run_with_converted_arguments_and_the_default_run_manager() -> None:
    tool = tk.from_function(QuoteShipping(), effect="read")
    result = tool.call({"weight_grams": 500, "destination": DESTINATION, "speed": "express"})
    assert result.data == {"cents": 1355, "run_id": None}


def test_injected_tool_arg_and_config_reach_the_function_under_langchain() -> None:
    out = find_orders.invoke({"customer_id": "cus_00000001", "tenant": "acme"}, config={"tags": ["support"]})
    assert out == {"tenant": "acme", "customer": "cus_00000001", "status": "open", "limit": 20, "tags": ["support"]}


def test_toolkit_passes_injected_arguments_from_the_context_extras() -> None:
    tool = tk.from_function(find_orders, effect="read")
    context = tk.ToolContext(extras={"tenant": "acme", "config": {"tags": ["t"]}})
    assert tool.call({"customer_id": "cus_00000001", "limit": 5}, context).data["tenant"] == "acme"
    with pytest.raises(tk.RuntimeConfigError) as caught:
        tool.call({"customer_id": "cus_00000001"})
    assert caught.value.slug == "missing_context"
    assert "'tenant'" in caught.value.message


def test_the_tool_call_id_and_callbacks_reach_the_function_under_langchain() -> None:
    call = {"name": "annotate_order", "args": {"order_id": "ord_1", "note": "Fragile."}, "id": "call-9"}
    message = CASES["annotate_order"].obj.invoke({**call, "type": "tool_call"}, config={"callbacks": [Recorder()]})
    assert isinstance(message, ToolMessage)
    assert message.tool_call_id == "call-9"
    assert message.content == "ord_1: Fragile. (call call-9, callbacks yes)"


def test_injected_state_is_filled_by_a_langgraph_tool_node() -> None:
    from langgraph.graph import END, START, MessagesState, StateGraph
    from langgraph.prebuilt import ToolNode

    class CartState(MessagesState):
        cart: list[int]

    graph = StateGraph(CartState)
    graph.add_node("tools", ToolNode([CASES["cart_total"].obj]))
    graph.add_edge(START, "tools")
    graph.add_edge("tools", END)
    call = {"name": "cart_total", "args": {"currency": "EUR"}, "id": "call-3", "type": "tool_call"}
    out = graph.compile().invoke({"messages": [AIMessage(content="", tool_calls=[call])], "cart": [250, 100]})
    assert out["messages"][-1].content == "350 EUR"
    tool = tk.from_function(CASES["cart_total"].obj)
    assert tool.call({"currency": "EUR"}, tk.ToolContext(extras={"state": {"cart": [1, 2]}})).data == "3 EUR"


def test_langchain_s_own_schema_is_compared_with_toolkit_s() -> None:
    tool = tk.from_function(CASES["annotate_order"].obj)  # @tool without parse_docstring: no descriptions
    assert {lint.path for lint in tool.lints if lint.slug == "framework_description"} == {"order_id", "note"}
    assert not [lint for lint in tool.lints if lint.slug in ("framework_parameters", "framework_types")]


def test_a_bound_run_reads_its_owner_s_args_schema() -> None:
    from_method, from_object = tk.from_function(QuoteShipping()._run), tk.from_function(QuoteShipping())
    assert from_method.name == "quote_shipping"
    assert from_method.args_schema == from_object.args_schema
    assert from_method.args_schema["properties"]["weight_grams"]["description"].startswith("Parcel weight")
    assert {i.name for i in from_method.contract.injected} == {"run_manager"}
