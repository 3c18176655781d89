"""The workbench views, instantiated headless: what they contain, how they react, and their stable text."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import ipywidgets as widgets
import pytest

import toolkit as tk
from toolkit.widgets import (
    DeclarationView,
    EnvelopeInspector,
    FixturesView,
    GoldenView,
    LintsView,
    LossesView,
    Playground,
    ToolsetView,
    ToolView,
    Workbench,
)
from toolkit.widgets.playground import field_widget, starting_arguments

sys.path.insert(0, str(Path(__file__).parent))
import display_samples as samples

MODEL_ID = re.compile(r"[0-9a-f]{32}")


def _text(view: Any) -> str:
    return view._repr_mimebundle_()["text/plain"]


def _assert_stable_widget_bundle(view: Any) -> None:
    bundle = view._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert bundle["text/plain"] == repr(view)
    assert not MODEL_ID.search(bundle["text/plain"]), "the text fallback must not carry model ids"
    assert "0x" not in bundle["text/plain"]


# -- declaration, lints, losses ---------------------------------------------------------------------------
def test_declaration_view_shows_the_exact_json_and_a_copy_box() -> None:
    tool = samples.order_tool()
    view = DeclarationView(tool)
    assert json.loads(view.plain.value) == tool.declaration
    assert view.plain.layout.display == "none"
    view.copy_button.click()
    assert view.plain.layout.display is None
    assert view.copy_button.description == "Hide plain JSON"
    assert "tk-json-key" in view.code.value
    assert "navigator.clipboard.writeText" in view.code.value
    size = len(json.dumps(view.tool.declaration, separators=(",", ":"), ensure_ascii=False).encode())
    assert _text(view) == f"Declaration of orders_get: 5 parameters, {size:,} bytes, ~{-(-size // 4):,} tokens"
    _assert_stable_widget_bundle(view)


def test_declaration_view_escapes_a_hostile_description() -> None:
    view = DeclarationView(samples.order_tool(description=samples.HOSTILE))
    assert "<script" not in view.code.value
    assert "<img" not in view.code.value


def test_lints_and_losses_views_list_what_the_tool_carries() -> None:
    tool = samples.order_tool()
    lints, losses = LintsView(tool), LossesView(tool)
    assert "W201 money-float" in lints.widget.value
    assert "exclusiveMinimum" in losses.widget.value
    assert _text(lints) == "Lints of orders_get: 2 (W201 money-float at amount, I300 short-description at (tool))"
    assert _text(losses) == "Losses of orders_get: 2 (additionalProperties, exclusiveMinimum)"


def test_lints_view_of_a_clean_tool_says_there_is_nothing() -> None:
    view = LintsView(samples.bare_tool())
    assert "No lints" in view.widget.value
    assert _text(view) == "Lints of clock_now: 0"


# -- envelope inspector -------------------------------------------------------------------------------------
def test_inspector_starts_empty_then_shows_an_envelope() -> None:
    inspector = EnvelopeInspector()
    assert _text(inspector) == "Envelope inspector: nothing selected"
    inspector.show(samples.invalid_result(), "a test")
    assert "out_of_range" in inspector.body.value
    assert "a test" in inspector.title.value
    assert _text(inspector).startswith("Envelope inspector (a test):\nToolResult invalid_arguments")


@pytest.mark.parametrize(
    ("envelope", "expected"),
    [(samples.batch(), "retry hint"), (samples.saga(), "outstanding"), (samples.replayed_result(), "replay of")],
    ids=["batch", "saga", "replay"],
)
def test_inspector_shows_batches_sagas_and_replays(envelope: Any, expected: str) -> None:
    inspector = EnvelopeInspector(envelope)
    assert expected in inspector.body.value


# -- playground ---------------------------------------------------------------------------------------------
def test_playground_form_has_one_control_per_parameter_of_the_right_kind() -> None:
    playground = Playground(samples.order_tool())
    kinds = {name: type(control) for name, control in playground.fields.items()}
    assert kinds == {
        "orderId": widgets.Text,
        "limit": widgets.IntText,
        "expand": widgets.Dropdown,
        "include_archived": widgets.Checkbox,
        "amount": widgets.FloatText,
    }
    assert [label for label, _ in playground.fields["expand"].options] == ["items", "payments"]


def test_playground_starts_from_required_parameters_and_defaults() -> None:
    args = starting_arguments(samples.order_tool())
    assert args == {"orderId": "", "limit": 20, "include_archived": False}


def test_form_edits_write_into_the_json_editor() -> None:
    playground = Playground(samples.order_tool())
    playground.fields["limit"].value = 55
    playground.fields["expand"].value = "payments"
    args = json.loads(playground.editor.value)
    assert args["limit"] == 55
    assert args["expand"] == "payments"


def test_form_edit_replaces_unparsable_editor_text() -> None:
    playground = Playground(samples.order_tool())
    playground.set_arguments("{not json")
    playground.fields["orderId"].value = "ord_000000000000"
    assert json.loads(playground.editor.value) == {"orderId": "ord_000000000000"}


@pytest.mark.parametrize(
    ("schema", "start", "kind"),
    [
        ({"type": ["integer", "null"]}, 3, widgets.IntText),
        ({"anyOf": [{"type": "number"}, {"type": "null"}]}, 1.5, widgets.FloatText),
        ({"type": "array", "items": {"type": "string"}}, ["a"], widgets.Text),
        ({"enum": [1, 2]}, 2, widgets.Dropdown),
        ({"type": "integer"}, None, widgets.IntText),
        ({"type": "object"}, None, widgets.Text),
    ],
    ids=[
        "nullable-int",
        "nullable-anyof-number",
        "array-as-json",
        "int-enum",
        "optional-int-without-default",
        "object-as-json",
    ],
)
def test_field_widget_picks_a_control_from_the_schema(schema: dict[str, Any], start: Any, kind: type) -> None:
    assert type(field_widget("x", schema, start)) is kind


def test_playground_text_has_no_result_until_validated() -> None:
    playground = Playground(samples.order_tool())
    assert _text(playground) == "Playground for orders_get: 5 fields, not validated yet"
    _assert_stable_widget_bundle(playground)


# -- golden -------------------------------------------------------------------------------------------------
def test_golden_view_without_a_folder_disables_accept() -> None:
    view = GoldenView(samples.order_tool(), None)
    assert view.accept_button.disabled
    assert _text(view) == "Golden for orders_get: no golden folder"


def test_golden_view_accept_writes_the_missing_file(tmp_path: Path) -> None:
    tool = samples.order_tool()
    view = GoldenView(tool, tmp_path)
    assert view.state == "missing"
    assert not view.accept_button.disabled
    view.accept_button.click()
    assert json.loads((tmp_path / "orders_get.json").read_text()) == tool.declaration
    assert view.state == "matches"
    assert view.accept_button.disabled
    assert _text(view) == f"Golden {tmp_path / 'orders_get.json'}: matches"


def test_golden_view_classifies_a_drifted_declaration_then_accepts_it(tmp_path: Path) -> None:
    old = samples.order_tool()
    tk.golden.update([old], tmp_path)
    new = samples.order_tool(description="Look up one order by its id.")
    view = GoldenView(new, tmp_path)
    assert view.state == "stale"
    assert "behavioural" in view.body.value
    assert "verdict behavioural" in _text(view)
    view.accept()
    assert view.state == "matches"
    assert json.loads((tmp_path / "orders_get.json").read_text())["description"] == "Look up one order by its id."


# -- fixtures -----------------------------------------------------------------------------------------------
def test_picking_a_fixture_row_shows_its_envelope_in_the_inspector() -> None:
    inspector = EnvelopeInspector()
    view = FixturesView(samples.fixture_report(), inspector, "orders_get")
    assert [label for label, _ in view.picker.options][1].startswith("FAIL · expand.enum_wrong_case")
    assert view.picker.value is None
    view.picker.value = "limit.numeric_as_string"
    assert view.selected is not None
    assert view.selected.id == "limit.numeric_as_string"
    assert inspector.envelope.status == "invalid_arguments"
    assert "wrong_type" in inspector.body.value
    assert "<b>▶ limit.numeric_as_string</b>" in view.table.value
    assert _text(view) == (
        "Fixtures of orders_get: 2 fired, 1 passed, 1 failed (expand.enum_wrong_case); selected limit.numeric_as_string"
    )


def test_selecting_an_unknown_fixture_says_which_ids_exist() -> None:
    view = FixturesView(samples.fixture_report())
    with pytest.raises(KeyError, match=r"limit\.numeric_as_string"):
        view.select("nope")


# -- the tool view, with the real pipeline --------------------------------------------------------------------
@pytest.fixture(scope="module")
def search_tool() -> tk.Tool:
    from toolkit import examples

    return tk.from_function(examples.search_issues, namespace="issues", effect="read")


def test_tool_view_has_one_tab_per_aspect(search_tool: tk.Tool, tmp_path: Path) -> None:
    view = ToolView(search_tool, golden_dir=tmp_path)
    titles = list(view.tabs.titles)
    assert [t.split(" (")[0] for t in titles] == [
        "Declaration",
        "Lints",
        "Losses",
        "Fixtures",
        "Envelope",
        "Playground",
        "Golden",
    ]
    assert titles[3].startswith("Fixtures (")
    assert len(view.tabs.children) == 7
    assert view.golden.state == "missing"
    _assert_stable_widget_bundle(view)
    assert _text(view).splitlines()[0] == "Workbench view of issues_search_issues (read)"


def test_tool_view_names_the_unlisted_properties_policy_when_the_schema_leaves_it_open() -> None:
    from function_catalogue import CASES

    nested = next(case for case in CASES if case.id == "nested_models")
    view = ToolView(tk.from_function(nested.fn, **nested.options))
    assert _text(view).splitlines()[1] == "  unlisted properties: refused at every depth (policy)"
    header = view.widget.children[0]
    assert isinstance(header, widgets.HTML)
    assert "refused at every depth" in header.value


def test_validating_edited_arguments_shows_the_new_envelope(search_tool: tk.Tool) -> None:
    view = ToolView(search_tool)
    view.playground.set_arguments({"query": "login timeout", "limit": "10"})
    view.playground.validate_button.click()
    assert view.playground.result == search_tool.validate({"query": "login timeout", "limit": "10"})
    assert view.inspector.envelope is view.playground.result
    assert "invalid_arguments" in view.playground.output.value
    view.playground.fields["limit"].value = 10
    view.playground.validate_button.click()
    assert view.playground.result.status == "ok"
    assert view.inspector.source == "playground"


def test_fixture_rows_and_playground_share_the_envelope_inspector(search_tool: tk.Tool) -> None:
    view = ToolView(search_tool)
    row = view.fixtures.rows[-1]
    view.fixtures.picker.value = row.id
    assert view.inspector.envelope == row.envelope
    assert view.tabs.children[4] is view.inspector.widget


# -- toolsets and the workbench --------------------------------------------------------------------------------
ORDERS_FRAGMENT = """
openapi: 3.1.0
info: {title: Orders fragment, version: "1"}
paths:
  /orders/{orderId}:
    get:
      operationId: getOrder
      summary: Look up one order by id. Use before answering any question about an order.
      x-agent-tool: true
      parameters:
        - {name: orderId, in: path, required: true, description: The order id., schema: {type: string}}
  /uploads:
    post:
      x-agent-tool: true
      summary: Upload a file.
      requestBody:
        content:
          multipart/form-data:
            schema: {type: object, properties: {file: {type: string, format: binary}}}
"""


def test_workbench_adds_functions_and_openapi_and_opens_their_views(tmp_path: Path) -> None:
    from toolkit import examples

    wb = Workbench(golden_dir=tmp_path)
    tool = wb.add(examples.search_issues, namespace="issues", effect="read")
    toolset = wb.add_openapi(ORDERS_FRAGMENT, namespace="orders")
    assert tool.name in wb.tools
    assert [t.name for t in toolset.tools] == ["orders_get_order"]
    assert len(toolset.rejected) == 1
    assert isinstance(wb.view(tool.name), ToolView)
    view = wb.view(toolset)
    assert isinstance(view, ToolsetView)
    assert "orders_get_order" in view.tables.value
    assert toolset.rejected[0].slug in view.tables.value
    view.picker.value = "orders_get_order"
    assert view.opened is not None
    assert view.opened.tool.name == "orders_get_order"
    assert view.slot.children == (view.opened.widget,)
    assert view.opened.golden.directory == tmp_path
    total = sum(
        len(json.dumps(t.declaration, separators=(",", ":"), ensure_ascii=False).encode()) for t in wb.tools.values()
    )
    assert repr(wb).splitlines()[0] == (
        f"Workbench: 2 tools, 1 toolsets; declarations {total:,} bytes, ~{-(-total // 4):,} tokens"
    )
    assert _text(view).endswith("opened orders_get_order")


def test_workbench_view_of_an_unknown_name_lists_what_it_has() -> None:
    wb = Workbench()
    with pytest.raises(KeyError, match="nothing"):
        wb.view("missing")


def test_workbench_is_the_lazy_public_name() -> None:
    assert tk.Workbench is Workbench


def test_json_edits_update_the_form_controls_that_can_hold_them() -> None:
    playground = Playground(samples.order_tool())
    playground.set_arguments({"orderId": "ord_aaaaaaaaaaaa", "limit": 7, "expand": "payments", "amount": 2})
    assert playground.fields["orderId"].value == "ord_aaaaaaaaaaaa"
    assert playground.fields["limit"].value == 7
    assert playground.fields["expand"].value == "payments"
    assert playground.fields["amount"].value == 2.0
    assert json.loads(playground.editor.value)["amount"] == 2, "syncing the form must not rewrite the JSON"


def test_json_of_the_wrong_type_stays_in_the_editor_only() -> None:
    playground = Playground(samples.order_tool())
    playground.set_arguments('{"limit": "10", "expand": "ITEMS", "include_archived": 1}')
    assert playground.fields["limit"].value == 20
    assert playground.fields["expand"].value is None
    assert playground.fields["include_archived"].value is False
    assert playground.editor.value == '{"limit": "10", "expand": "ITEMS", "include_archived": 1}'


WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def test_a_view_honours_include_and_exclude() -> None:
    view = LintsView(samples.order_tool())
    full = view._repr_mimebundle_()
    assert list(full) == ["text/plain", WIDGET_VIEW]
    assert full[WIDGET_VIEW]["model_id"] == view.widget.model_id
    assert view._repr_mimebundle_(exclude=[WIDGET_VIEW]) == {"text/plain": repr(view)}
    assert view._repr_mimebundle_(include=[WIDGET_VIEW]) == {WIDGET_VIEW: full[WIDGET_VIEW]}


def test_the_workbench_displays_its_tools_through_the_protocol() -> None:
    wb = Workbench()
    tool = wb.add(look_up, namespace="sample", effect="read")
    bundle = wb._repr_mimebundle_()
    assert bundle["text/plain"] == repr(wb)
    size = len(json.dumps(tool.declaration, separators=(",", ":"), ensure_ascii=False).encode())
    approx = -(-size // 4)
    assert repr(wb).splitlines() == [
        f"Workbench: 1 tools, 0 toolsets; declarations {size:,} bytes, ~{approx:,} tokens",
        f"  sample_look_up (read): {len(tool.losses)} losses, 0 lints, {size:,} bytes, ~{approx:,} tokens",
    ]
    assert re.search(rf"<td[^>]*>{tool.name}</td><td[^>]*>read</td>", bundle["text/html"])
    assert wb._repr_mimebundle_(include=["text/plain"]) == {"text/plain": repr(wb)}
    assert wb._repr_mimebundle_(exclude=["text/plain"]) == {"text/html": bundle["text/html"]}


def look_up(query: str) -> list[str]:
    """Find the records whose title contains a text. Use when the user names a record but not its id.

    Args:
        query: Text the record title contains, e.g. "invoice 42".
    """
    return [query]
