"""Each dialect's own rules: names, refusals, losses, OpenAI strict mode, Gemini's JSON Schema rules, MCP hints,
and how a provider's call is read back and answered.

Internals: the dialect tables (``DIALECTS``, ``payload``, ``_carry``, ``gemini_json``) and ``build_tool``, to check
each dialect's own rules."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from lowering_support import schemas
from provider_rules import NAME_RULES, problems, strict_problems

import toolkit as tk
from toolkit import Policy, ToolContract, examples, lower
from toolkit._lowering import DIALECTS, payload
from toolkit._lowering._carry import IN_LIST, IN_MAP, ONE
from toolkit._lowering.gemini_json import SUPPORTED
from toolkit._tool import build_tool

SEARCH = tk.from_function(examples.search_issues, namespace="issues", effect="read")


def _tool(name: str = "t", schema: dict[str, Any] | None = None, **contract: Any) -> tk.Tool:
    args = schema if schema is not None else {"type": "object", "properties": {"q": {"type": "string"}}}
    return build_tool(ToolContract(name=name, description="d", args_schema=args, **contract))


def _strict(properties: dict[str, Any], required: tuple[str, ...] = ()) -> tk.Payload:
    schema = {"type": "object", "properties": properties, "required": list(required), "additionalProperties": False}
    return _tool(schema=schema).payload("openai")


def _parameters(item: tk.Payload) -> dict[str, Any]:
    assert item.body is not None
    return dict(item.body["function"]["parameters"])


# -- the payload entry point --------------------------------------------------------------------------------
def test_gemini_payload_is_the_declaration_with_the_lowering_losses() -> None:
    item = SEARCH.payload("gemini")
    assert item.body == SEARCH.declaration
    assert item.losses == SEARCH.lowering_losses
    assert (item.tool, item.name, item.strict) == ("issues_search_issues", "issues_search_issues", None)


def test_gemini_never_sends_a_null_default_and_says_so() -> None:
    text = json.dumps(SEARCH.declaration)
    assert '"default": null' not in text
    nulls = [loss.path for loss in SEARCH.lowering_losses if loss.keyword == "default" and loss.value is None]
    assert nulls == ["/properties/labels", "/properties/updated_since"]


def test_each_payload_is_a_fresh_copy() -> None:
    item = SEARCH.payload("anthropic")
    assert item.body is not None
    item.body["input_schema"]["properties"].clear()
    assert SEARCH.payload("anthropic").body == payload(SEARCH.contract, "anthropic").body


def test_unknown_dialect_is_a_schema_error_naming_the_known_ones() -> None:
    with pytest.raises(tk.SchemaError, match="gemini_json") as caught:
        SEARCH.payload("json_schema")
    assert caught.value.slug == "unknown_dialect"


@pytest.mark.parametrize("dialect", list(DIALECTS))
@pytest.mark.parametrize(
    "schema",
    [
        {"anyOf": [{"type": "object"}, {"type": "object", "properties": {"a": {"type": "string"}}}]},
        {"type": "array", "items": {"type": "string"}},
        {"$ref": "#/$defs/A", "$defs": {"A": {"type": "object"}}},
    ],
    ids=["anyOf", "array", "ref"],
)
def test_a_root_that_is_not_a_plain_object_is_refused_with_a_slug(dialect: str, schema: dict[str, Any]) -> None:
    item = payload(ToolContract(name="t", description="d", args_schema=schema, source="schema"), dialect)
    assert item.body is None
    assert item.refusal is not None
    assert item.refusal.slug == "root_not_object"
    assert "plain object" in item.refusal.message


def test_a_schema_a_dialect_cannot_read_is_refused_not_raised() -> None:
    schema = {"type": "object", "properties": {"a": {"$ref": "https://example.com/a.json"}}}
    item = payload(ToolContract(name="t", description="d", args_schema=schema, source="schema"), "openai")
    assert item.refusal is not None
    assert (item.refusal.slug, item.refusal.message.split("]")[0]) == ("unreadable_schema", "[remote_ref")


# -- names --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("dialect", "expected"),
    [
        ("gemini", "shop.orders:get-v2"),
        ("gemini_json", "shop.orders:get-v2"),
        ("openai", "shop_orders_get-v2"),
        ("openai_responses", "shop_orders_get-v2"),
        ("anthropic", "shop_orders_get-v2"),
        ("mcp", "shop.orders_get-v2"),
    ],
)
def test_each_dialect_maps_the_name_onto_its_providers_rule(dialect: str, expected: str) -> None:
    item = _tool("shop.orders:get-v2").payload(dialect)
    assert item.name == expected
    assert re.fullmatch(NAME_RULES[dialect], item.name)


@pytest.mark.parametrize("dialect", ["openai", "anthropic", "mcp"])
def test_a_long_name_is_shortened_with_a_stable_hash(dialect: str) -> None:
    first, second = "a" * 124 + "_one", "a" * 124 + "_two"
    names = [_tool(name).payload(dialect).name for name in (first, second, first)]
    limit = DIALECTS[dialect].names.limit
    assert names[0] == names[2] != names[1]
    assert all(len(name) == limit and re.fullmatch(NAME_RULES[dialect], name) for name in names)
    assert names[0][:-9] == names[1][:-9] == ("a" * 124)[: limit - 9]


def test_names_that_collide_in_a_dialect_are_all_refused_and_only_there() -> None:
    tools = [_tool("a.b"), _tool("a_b"), _tool("c")]
    assert [p.accepted for p in tk.payloads(tools, "gemini").payloads] == [True, True, True]
    assert [p.accepted for p in tk.payloads(tools, "mcp").payloads] == [True, True, True]
    wire = tk.payloads(tools, "openai")
    assert [p.refusal.slug if p.refusal else None for p in wire.payloads] == ["name_collision", "name_collision", None]
    assert wire.refused[0].refusal is not None
    assert "'a_b'" in wire.refused[0].refusal.message
    assert wire.names == {"c": "c"}
    assert wire.tool_named("a_b") is None


def test_the_same_tool_name_twice_in_one_request_is_a_collision() -> None:
    wire = tk.payloads([_tool("t"), _tool("t")], "anthropic")
    assert [p.refusal.slug if p.refusal else None for p in wire.payloads] == ["name_collision", "name_collision"]


# -- OpenAI strict mode -------------------------------------------------------------------------------------
def test_optional_parameters_become_required_and_nullable_in_strict_mode() -> None:
    item = SEARCH.payload("openai")
    parameters = _parameters(item)
    assert item.strict is True
    assert strict_problems(parameters) == []
    assert parameters["required"] == ["query", "limit", "state", "labels", "updated_since"]
    assert parameters["properties"]["limit"]["type"] == ["integer", "null"]
    assert parameters["properties"]["state"]["enum"] == ["open", "closed", "all", None]
    assert {loss.keyword for loss in item.losses} == {"default", "required"}


def test_a_strict_null_reads_as_the_omitted_default() -> None:
    strict_call = {"query": "login", "limit": None, "state": None, "labels": None, "updated_since": None}
    result = SEARCH.validate(strict_call)
    assert result.status == "ok"
    assert result.data == {"query": "login", "limit": 20, "state": "open", "labels": None, "updated_since": None}


def test_an_open_map_turns_strict_off_and_a_loss_names_the_node() -> None:
    item = _strict({"weights": {"type": "object", "additionalProperties": {"type": "integer"}}})
    assert item.strict is False
    assert [(loss.path, loss.keyword) for loss in item.losses] == [("/properties/weights", "additionalProperties")]
    assert item.losses[0].reason.startswith("strict mode is off: an open map")
    assert _parameters(item) == item.body["function"]["parameters"] if item.body else False
    assert _parameters(item)["properties"]["weights"]["additionalProperties"] == {"type": "integer"}


@pytest.mark.parametrize(
    ("properties", "keyword"),
    [
        ({"anything": {}}, "type"),
        ({"tags": {"type": "array"}}, "items"),
        ({"x": {"allOf": [{"type": "string"}, {"minLength": 2}]}}, "allOf"),
        ({"x": {"type": "object"}}, "additionalProperties"),
        (
            {"x": {"type": "object", "patternProperties": {"^a": {"type": "string"}}, "properties": {}}},
            "patternProperties",
        ),
        ({"x": {"enum": [f"v{i}" for i in range(1001)]}}, "enum"),
    ],
    ids=["untyped", "array-without-items", "allOf", "free-form-object", "patternProperties", "1001-enum-values"],
)
def test_what_strict_mode_cannot_say_turns_it_off(properties: dict[str, Any], keyword: str) -> None:
    item = _strict(properties, tuple(properties))
    assert item.strict is False
    assert keyword in {loss.keyword for loss in item.losses}
    assert all(loss.reason.startswith("strict mode is off") for loss in item.losses)


def test_eleven_levels_of_nested_objects_turn_strict_off() -> None:
    node: dict[str, Any] = {"type": "string"}
    for _ in range(10):
        node = {"type": "object", "properties": {"inner": node}, "required": ["inner"], "additionalProperties": False}
    assert _strict({"outer": node}, ("outer",)).strict is False
    assert _strict({"outer": node["properties"]["inner"]}, ("outer",)).strict is True


def test_a_policy_refusing_null_keeps_optional_fields_out_of_strict_mode() -> None:
    strict = SEARCH.with_policy(null_optional="reject").payload("openai")
    assert strict.strict is False
    assert {loss.path for loss in strict.losses} == {"/properties/limit", "/properties/state"}


def test_strict_mode_drops_what_it_does_not_support_with_a_loss_each() -> None:
    item = _strict(
        {"code": {"type": "string", "minLength": 2, "format": "uri", "examples": ["x"], "x-internal": 1}}, ("code",)
    )
    assert item.strict is True
    assert _parameters(item)["properties"]["code"] == {"type": "string"}
    lost = {(loss.keyword, loss.reason.split(":")[0]) for loss in item.losses}
    assert lost == {
        ("minLength", "not in OpenAI's strict subset"),
        ("format", "format 'uri' is not one strict mode supports"),
        ("examples", "not in OpenAI's strict subset"),
    }


def test_a_ref_with_siblings_stands_alone_inside_an_anyof() -> None:
    schema = {
        "type": "object",
        "properties": {"a": {"$ref": "#/$defs/A", "description": "The A."}},
        "required": ["a"],
        "$defs": {"A": {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}},
    }
    parameters = _parameters(_tool(schema=schema).payload("openai"))
    assert parameters["properties"]["a"] == {"description": "The A.", "anyOf": [{"$ref": "#/$defs/A"}]}
    assert parameters["$defs"]["A"]["additionalProperties"] is False
    assert strict_problems(parameters) == []


def test_a_recursive_schema_stays_strict() -> None:
    schema = {
        "type": "object",
        "properties": {"root": {"$ref": "#/$defs/Node"}},
        "required": ["root"],
        "$defs": {
            "Node": {
                "type": "object",
                "properties": {"children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}},
                "required": ["children"],
            }
        },
    }
    item = _tool(schema=schema).payload("openai")
    assert item.strict is True
    assert strict_problems(_parameters(item)) == []


def test_openai_payloads_always_say_strict_and_both_apis_agree() -> None:
    chat, responses = SEARCH.payload("openai").body, SEARCH.payload("openai_responses").body
    assert chat is not None
    assert responses is not None
    assert chat == {"type": "function", "function": {k: v for k, v in responses.items() if k != "type"}}
    assert chat["function"]["strict"] is True


@pytest.mark.slow
@settings(max_examples=250, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(schemas())
def test_any_schema_lowers_to_a_strict_schema_that_meets_the_rules_or_turns_strict_off(schema: Any) -> None:
    root = {"type": "object", "properties": {"p": schema}, "required": ["p"]}
    if isinstance(schema, dict):
        root["$defs"] = schema.pop("$defs", {})
    try:
        lowered = lower(root, "openai")
    except tk.SchemaError:
        return
    if lowered.strict:
        assert strict_problems(lowered.schema) == []
    else:
        assert any(loss.reason.startswith("strict mode is off") for loss in lowered.losses)
        assert lowered.schema == json.loads(json.dumps(root))


@pytest.mark.slow
@settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(schemas())
def test_any_schema_becomes_a_payload_each_sdk_accepts_or_a_refusal(schema: Any) -> None:
    root: dict[str, Any] = {"type": "object", "properties": {"p": schema}, "required": ["p"]}
    if isinstance(schema, dict):
        root["$defs"] = schema.pop("$defs", {})
    contract = ToolContract(name="t.any", description="d", args_schema=root, source="schema")
    for dialect in ("gemini_json", "openai_responses", "anthropic", "mcp"):
        item = payload(contract, dialect)
        if item.refusal is not None:
            assert item.refusal.slug == "unreadable_schema"
            continue
        assert item.body is not None
        assert problems(dialect, item.body) == [], dialect


# -- Gemini's JSON Schema ------------------------------------------------------------------------------------
def test_gemini_json_moves_a_ref_with_siblings_into_an_anyof() -> None:
    schema = {"type": "object", "properties": {"a": {"$ref": "#/$defs/A", "description": "The A."}}, "$defs": {"A": {}}}
    lowered = lower(schema, "gemini_json")
    assert lowered.schema["properties"]["a"] == {"description": "The A.", "anyOf": [{"$ref": "#/$defs/A"}]}
    assert lowered.losses == ()


def test_gemini_json_drops_what_stands_beside_a_ref_and_an_anyof_with_a_loss_each() -> None:
    node = {"$ref": "#/$defs/A", "anyOf": [{"type": "string"}], "description": "d"}
    lowered = lower({"type": "object", "properties": {"a": node}, "$defs": {"A": {}}}, "gemini_json")
    assert lowered.schema["properties"]["a"] == {"$ref": "#/$defs/A"}
    assert sorted(loss.keyword for loss in lowered.losses) == ["anyOf", "description"]


def test_gemini_json_spells_one_way_constructs_in_supported_words() -> None:
    node = {"allOf": [{"$ref": "#/$defs/A"}], "description": "d"}
    schema = {"type": "object", "properties": {"a": node, "b": {"const": "x"}}, "$defs": {"A": {"type": "string"}}}
    lowered = lower(schema, "gemini_json")
    assert lowered.schema["properties"] == {
        "a": {"anyOf": [{"$ref": "#/$defs/A"}], "description": "d"},
        "b": {"enum": ["x"]},
    }
    assert lowered.losses == ()


def test_gemini_json_sends_unsupported_constraints_with_a_loss_and_annotations_without() -> None:
    node = {"type": "string", "pattern": "^[a-z]+$", "maxLength": 5, "default": "ab", "examples": ["ab"]}
    lowered = lower({"type": "object", "properties": {"a": node}}, "gemini_json")
    assert lowered.schema["properties"]["a"] == node
    assert [(loss.keyword, loss.path) for loss in lowered.losses] == [
        ("pattern", "/properties/a"),
        ("maxLength", "/properties/a"),
    ]


def test_gemini_json_constraint_table_and_supported_list_do_not_overlap() -> None:
    from toolkit._lowering.gemini_json import _CONSTRAINTS

    assert not SUPPORTED & _CONSTRAINTS
    assert {"properties", "$defs", "items", "anyOf"} <= SUPPORTED | IN_MAP | IN_LIST | ONE


# -- MCP ------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("contract", "hints"),
    [
        ({"effect": "read"}, {"readOnlyHint": True, "destructiveHint": False, "idempotentHint": True}),
        ({"effect": "write"}, {"readOnlyHint": False, "destructiveHint": False, "idempotentHint": False}),
        (
            {"effect": "write", "confirm": True},
            {"readOnlyHint": False, "destructiveHint": True, "idempotentHint": False},
        ),
        (
            {"effect": "write", "confirm": True, "source": "openapi", "method": "PUT", "path": "/x"},
            {"readOnlyHint": False, "destructiveHint": True, "idempotentHint": True, "openWorldHint": True},
        ),
        (
            {"effect": "write", "source": "openapi", "method": "POST", "path": "/x"},
            {"readOnlyHint": False, "destructiveHint": False, "idempotentHint": False, "openWorldHint": True},
        ),
    ],
    ids=["read", "write", "write-confirm", "openapi-put", "openapi-post"],
)
def test_mcp_annotations_come_from_the_contract(contract: dict[str, Any], hints: dict[str, bool]) -> None:
    body = _tool("orders_refund_create", **contract).payload("mcp").body
    assert body is not None
    assert body["annotations"] == hints
    assert body["title"] == "Orders refund create"
    assert problems("mcp", body) == []


def test_anthropic_and_mcp_send_the_arguments_schema_as_it_is() -> None:
    anthropic, mcp = SEARCH.payload("anthropic").body, SEARCH.payload("mcp").body
    assert anthropic is not None
    assert mcp is not None
    assert anthropic["input_schema"] == mcp["inputSchema"] == SEARCH.args_schema


# -- calls and replies ----------------------------------------------------------------------------------------
RAW_CALLS: dict[str, Any] = {
    "gemini": {"functionCall": {"id": "c1", "name": "shop_orders_get", "args": {"q": "x"}}},
    "gemini_json": {"function_call": {"id": "c1", "name": "shop_orders_get", "args": {"q": "x"}}},
    "openai": {"id": "c1", "type": "function", "function": {"name": "shop_orders_get", "arguments": '{"q": "x"}'}},
    "openai_responses": {
        "type": "function_call",
        "call_id": "c1",
        "name": "shop_orders_get",
        "arguments": '{"q": "x"}',
    },
    "anthropic": {"type": "tool_use", "id": "c1", "name": "shop_orders_get", "input": {"q": "x"}},
    "mcp": {"name": "shop_orders_get", "arguments": {"q": "x"}},
}


@pytest.mark.parametrize("dialect", list(RAW_CALLS))
def test_a_provider_call_maps_back_to_its_tool_and_validates(dialect: str) -> None:
    tool = _tool("shop_orders_get")
    wire = tk.payloads([tool, _tool("other")], dialect)
    call = wire.read(RAW_CALLS[dialect])
    assert call.tool is tool
    assert (call.name, call.id) == ("shop_orders_get", None if dialect == "mcp" else "c1")
    assert call.run().to_dict() == {"status": "ok", "data": {"q": "x"}, "errors": [], "notices": []}


@pytest.mark.parametrize("dialect", ["gemini", "openai", "openai_responses", "anthropic", "mcp"])
def test_the_reply_carries_the_envelope_in_the_providers_shape(dialect: str) -> None:
    wire = tk.payloads([_tool("t")], dialect)
    result = tk.ToolResult("invalid_arguments", errors=(tk.FieldError("q", "missing", "missing required field", "a"),))
    envelope, text = result.to_dict(), result.to_json()
    expected = {
        "gemini": [
            {
                "role": "user",
                "parts": [{"functionResponse": {"id": "c1", "name": "t", "response": {"error": envelope}}}],
            }
        ],
        "openai": [{"role": "tool", "tool_call_id": "c1", "content": text}],
        "openai_responses": [{"type": "function_call_output", "call_id": "c1", "output": text}],
        "anthropic": [
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "c1", "content": text, "is_error": True}],
            }
        ],
        "mcp": [{"content": [{"type": "text", "text": text}], "structuredContent": envelope, "isError": True}],
    }[dialect]
    assert wire.turn([wire.reply(tk.Call(dialect, "t", {}, "c1", None), result)]) == expected


def test_an_ok_envelope_goes_to_gemini_as_output_and_to_anthropic_without_the_error_flag() -> None:
    ok = SEARCH.validate({"query": "x"})
    call = tk.Call("gemini", "issues_search_issues", {"query": "x"}, None, SEARCH)
    assert tk.payloads([SEARCH], "gemini").reply(call, ok) == {
        "functionResponse": {"name": "issues_search_issues", "response": {"output": ok.to_dict()}}
    }
    assert tk.payloads([SEARCH], "anthropic").reply(call, ok)["is_error"] is False


def test_a_call_in_the_wrong_shape_is_a_typed_error() -> None:
    with pytest.raises(tk.ToolkitError) as caught:
        tk.payloads([SEARCH], "openai").read({"name": "issues_search_issues"})
    assert caught.value.slug == "bad_tool_call"
    with pytest.raises(tk.ToolkitError) as caught:
        tk.payloads([SEARCH], "anthropic").read(42)
    assert caught.value.slug == "bad_tool_call"


def test_openai_json_text_arguments_are_validated_as_text() -> None:
    call = tk.payloads([SEARCH], "openai").read(
        {"id": "c1", "function": {"name": "issues_search_issues", "arguments": '{"query": "x", "limit": "ten"'}}
    )
    result = call.run()
    assert (result.status, result.errors[0].code) == ("invalid_arguments", "invalid_json")


# -- display --------------------------------------------------------------------------------------------------
def test_a_payload_shows_its_dialect_name_size_and_losses() -> None:
    item = _tool("shop.get").payload("openai")
    text = item._repr_mimebundle_()["text/plain"]
    assert text.startswith(f"openai: shop.get (sent as shop_get) · {item.size} bytes · strict true")
    assert repr(item) == f"<Payload openai 'shop_get' losses={len(item.losses)} bytes={item.size}>"
    refused = tk.payloads([_tool("a.b"), _tool("a_b")], "openai")
    assert "refused [name_collision]" in refused.payloads[0]._repr_mimebundle_()["text/plain"]
    assert refused._repr_mimebundle_()["text/plain"].startswith("openai: 0 tools sent (0 bytes), 2 refused")


def test_payload_size_is_the_compact_json_bytes() -> None:
    item = SEARCH.payload("mcp")
    assert item.size == len(json.dumps(item.body, separators=(",", ":"), ensure_ascii=False).encode())
    assert item.to_dict()["size"] == item.size
    assert Policy() == SEARCH.policy
