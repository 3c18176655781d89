"""The workbench views, instantiated headless: what they contain, how they react, and their stable text.

Internals: ``starting_arguments``, ``env_name`` and the dialect table ``_lowering.DIALECTS``, to compute what a view
must show."""

from __future__ import annotations

import json
import re
from datetime import date
from pathlib import Path
from typing import Any

import display_samples as samples
import ipywidgets as widgets
import pytest
from locations import TESTS

import toolkit as tk
from toolkit._form import starting_arguments
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
from toolkit.widgets._controls import Group, Items, Scalar
from toolkit.widgets.binding import BindingView
from toolkit.widgets.wire import WireView

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
def test_declaration_view_shows_the_exact_json_and_one_copy_control() -> None:
    tool = samples.order_tool()
    view = DeclarationView(tool)
    assert json.loads(view.text) == tool.declaration
    assert "tk-json-key" in view.code.value
    assert view.code.value.count("<button") == 1
    assert "navigator.clipboard.writeText" in view.code.value
    assert not any(isinstance(child, widgets.Button) for child in view.widget.children)
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
    kinds = {name: type(control.widget) for name, control in playground.root.children.items()}
    assert kinds == {
        "orderId": widgets.Text,
        "limit": widgets.IntText,
        "expand": widgets.Dropdown,
        "include_archived": widgets.Checkbox,
        "amount": widgets.FloatText,
    }
    assert [label for label, _ in playground.root.children["expand"].widget.options] == ["items", "payments"]
    assert playground.root.children["orderId"].widget.description == "orderId *", "required fields are marked"
    assert set(playground.root.sent) == {"limit", "expand", "include_archived", "amount"}


def test_playground_starts_from_arguments_the_tool_accepts() -> None:
    tool = samples.order_tool()
    args = starting_arguments(tool.args_schema)
    assert args["limit"] == 20
    assert args["include_archived"] is False
    assert re.fullmatch(r"ord_[a-z0-9]{12}", args["orderId"]), "a made value that meets the pattern"
    assert tool.validate(args).status == "ok"
    assert json.loads(Playground(tool).editor.value) == args


def test_form_edits_write_into_the_json_editor() -> None:
    playground = Playground(samples.order_tool())
    playground.root.children["limit"].widget.value = 55
    playground.root.children["expand"].widget.value = "payments"
    args = json.loads(playground.editor.value)
    assert args["limit"] == 55
    assert args["expand"] == "payments", "editing an optional field sends it"
    assert playground.root.sent["expand"].value
    playground.root.sent["expand"].value = False
    assert "expand" not in json.loads(playground.editor.value), "unticking an optional field stops sending it"


def test_form_edit_replaces_unparsable_editor_text() -> None:
    playground = Playground(samples.order_tool())
    playground.set_arguments("{not json")
    playground.root.children["orderId"].widget.value = "ord_000000000000"
    assert json.loads(playground.editor.value) == {"orderId": "ord_000000000000"}


def test_playground_text_has_no_result_until_validated() -> None:
    playground = Playground(samples.order_tool())
    assert _text(playground) == "Playground for orders_get: 5 fields (1 required), not validated yet"
    _assert_stable_widget_bundle(playground)


def _ship_playground() -> Playground:
    import test_form

    return Playground(tk.from_function(test_form.ship, namespace="shop"))


def test_enums_dates_objects_and_lists_get_their_own_controls() -> None:
    root = _ship_playground().root
    assert isinstance(root.children["speed"].widget, widgets.Dropdown), "an Enum gets a dropdown"
    assert isinstance(root.children["mode"].widget, widgets.Dropdown), "a Literal gets a dropdown"
    assert isinstance(root.children["ship_on"].widget, widgets.DatePicker)
    assert isinstance(root.children["pick_up_at"].widget, widgets.DatetimePicker)
    assert isinstance(root.children["address"], Group)
    assert isinstance(root.children["lines"], Items)
    assert isinstance(root.children["extras"], Scalar)
    assert root.children["extras"].widget.placeholder == "JSON"


def test_a_nested_sub_form_edit_reaches_the_json_and_validates() -> None:
    playground = _ship_playground()
    address = playground.root.children["address"]
    assert isinstance(address, Group)
    address.children["country"].widget.value = "fr"
    lines = playground.root.children["lines"]
    assert isinstance(lines, Items)
    lines.add_button.click()
    lines.items[1].children["sku"].widget.value = "SKU-7"
    playground.root.children["ship_on"].widget.value = date(2031, 2, 3)
    args = json.loads(playground.editor.value)
    assert args["address"]["country"] == "fr"
    assert [line["sku"] for line in args["lines"]] == ["SKU-42", "SKU-7"]
    assert args["ship_on"] == "2031-02-03"
    assert playground.validate().status == "ok"
    assert playground.inspector.arguments == args


def test_json_edits_rebuild_lists_and_tick_optional_fields() -> None:
    playground = _ship_playground()
    args = json.loads(playground.editor.value)
    args["lines"] = [{"sku": "A", "quantity": 2}, {"sku": "B"}, {"sku": "C"}]
    args["note"] = "fragile"
    args["pick_up_at"] = "2031-02-03T09:30:00Z"
    playground.set_arguments(args)
    lines = playground.root.children["lines"]
    assert isinstance(lines, Items)
    assert [item.get() for item in lines.items] == [{"sku": "A", "quantity": 2}, {"sku": "B"}, {"sku": "C"}]
    assert playground.root.sent["note"].value
    assert playground.root.children["note"].widget.value == "fragile"
    assert playground.root.children["pick_up_at"].get() == "2031-02-03T09:30:00Z"
    assert json.loads(playground.editor.value) == args, "syncing the form must not rewrite the JSON"


# -- golden -------------------------------------------------------------------------------------------------
def test_golden_view_without_a_folder_works_in_a_labelled_temporary_one_until_a_real_one_is_named(
    tmp_path: Path,
) -> None:
    view = GoldenView(samples.order_tool(), None)
    assert _text(view) == "Golden for orders_get: missing (a temporary folder: no golden_dir given)"
    assert "temporary folder" in view.body.value
    view.accept_button.click()
    assert view.state == "matches"
    assert (view.directory / "orders_get.json").is_file()
    view.folder.value = str(tmp_path / "golden")
    view.use_button.click()
    assert view.state == "missing"
    assert "temporary folder" not in view.body.value
    view.accept()
    assert (tmp_path / "golden" / "orders_get.json").is_file()


def test_the_fixture_table_shows_the_value_each_fixture_is_about_at_its_path() -> None:
    report = tk.fire(samples.order_tool())
    cells = {row["id"]: row["cells"][-1] for row in FixturesView(report).table.rows}
    fields = {row.fixture.id: row.fixture.field for row in report.rows if row.fixture.field}
    assert len(set(cells.values())) > len(report.rows) // 2, "not the same prefix on every row"
    for fixture_id, field in fields.items():
        assert cells[fixture_id].startswith((f"{field} = ", f"{field} absent")), (fixture_id, cells[fixture_id])
    assert cells["limit.above_max"] == "limit = 101"


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
    assert [row["cells"][5] for row in view.table.rows] == ["pass", "FAIL"]
    assert view.table.selected == ""
    view.table.selected = "limit.numeric_as_string"  # what a click (or an arrow key) in the browser sets
    assert view.selected is not None
    assert view.selected.id == "limit.numeric_as_string"
    assert inspector.envelope.status == "invalid_arguments"
    assert "wrong_type" in inspector.body.value
    assert inspector.arguments == {"orderId": "ord_0123456789ab", "limit": "10"}
    assert _text(view).splitlines()[0] == (
        "Fixtures of orders_get: 2 fired, 1 passed, 1 failed (expand.enum_wrong_case); selected limit.numeric_as_string"
    )
    assert _text(view).splitlines()[1:] == _text(inspector).splitlines()


def test_fixture_filters_by_verdict_and_family() -> None:
    view = FixturesView(samples.fixture_report())
    assert [r.id for r in view.filter("fail")] == ["expand.enum_wrong_case"]
    assert [row["id"] for row in view.table.rows] == ["expand.enum_wrong_case"]
    assert [r.id for r in view.filter("all", "numeric_as_string")] == ["limit.numeric_as_string"]
    assert view.filter("pass", "enum_wrong_case") == []
    assert len(view.filter()) == 2


def test_long_cells_are_cut_and_shown_whole_in_the_inspector(search_tool: tk.Tool) -> None:
    view = FixturesView(tk.fire(search_tool))
    long_row = next(row for row in view.table.rows if row["id"] == "query.overlong_string")
    assert max(len(cell) for cell in long_row["cells"]) < 120
    assert long_row["cells"][-1].endswith("characters)")
    view.select("query.overlong_string")
    assert len(view.inspector.arguments["query"]) > 1000
    assert "tk-arguments" in view.inspector.sent.value


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
        "Playground",
        "Wire",
        "Golden",
    ]
    assert titles[3].startswith("Fixtures (")
    assert view.golden.state == "missing"
    assert view.binding is None
    _assert_stable_widget_bundle(view)
    assert _text(view).splitlines()[0] == "Workbench view of issues_search_issues (read)"


def test_an_openapi_tool_gets_a_binding_tab() -> None:
    view = ToolView(samples.order_tool())
    assert "Binding" in view.tabs.titles
    assert view.binding is not None
    assert view.tabs.children[list(view.tabs.titles).index("Binding")] is view.binding.widget


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
    assert view.playground.inspector.envelope is view.playground.result
    assert "invalid_arguments" in view.playground.output.value
    view.playground.root.children["limit"].widget.value = 10
    view.playground.validate_button.click()
    assert view.playground.result.status == "ok"
    assert view.playground.inspector.source == "playground"


def test_each_view_owns_its_inspector(search_tool: tk.Tool) -> None:
    view = ToolView(search_tool)
    row = view.fixtures.rows[-1]
    view.fixtures.select(row.id)
    view.playground.validate()
    assert view.fixtures.inspector is not view.playground.inspector
    assert view.fixtures.inspector.envelope == row.envelope, "validating in the playground leaves the fixtures alone"
    other = ToolView(search_tool)
    other.fixtures.select(view.fixtures.rows[0].id)
    assert view.fixtures.selected is not None
    assert view.fixtures.selected.id == row.id


# -- binding and wire -----------------------------------------------------------------------------------------
def test_binding_view_shows_each_argument_s_location_and_wire_name(repo_root: Path) -> None:
    orders = tk.from_openapi(repo_root / "specs" / "orders.yaml", namespace="orders")
    tool = next(t for t in orders.tools if any("." in v for v in t.binding.values()))
    view = BindingView(tool)
    for argument, value in tool.binding.items():
        location, _, original = value.partition(".")
        assert f"{argument}→{location}" in _text(view)
        assert (
            f"<td style='text-align:left;vertical-align:top;padding:0.15em 0.6em'>{original or argument}</td>"
            in (view.widget.value)
            or original == ""
        )
    assert "apiKey (api_key in header, $ORDERS_API_KEY)" in _text(view)
    assert "X-API-Key" in view.widget.value
    assert "$ORDERS_API_KEY" in view.widget.value
    assert "never sees them" in view.widget.value


CREDENTIAL_FRAGMENT = (TESTS / "specs" / "reports_credentials.yaml").read_text(encoding="utf-8")
"""An operation whose spec declares two credentials as plain parameters."""


def test_binding_view_lists_the_credentials_removed_and_the_variable_that_fills_each() -> None:
    from toolkit._credential_record import env_name

    tool = tk.from_openapi(CREDENTIAL_FRAGMENT, namespace="reports").tools[0]
    removed = {c.name: c for c in tool.contract.credentials}
    assert set(removed) == {"api_token", "X-Auth-Token"}, "the oracle: the spec's own credential parameters"
    assert set(tool.binding) == {"reportId"}
    view = BindingView(tool)
    for name, location in (("api_token", "query"), ("X-Auth-Token", "header")):
        variable = env_name("reports", name)
        assert removed[name].env == variable
        assert f"{name} ({location}, ${variable})" in _text(view)
        row = view.widget.value.split(f">{name}</td>", 1)[1].split("</tr>", 1)[0]
        assert f"${variable}" in row, f"the row of {name} names the variable that fills it"
        assert location in row
    assert "reportId→path" in _text(view)
    assert "No credentials" not in view.widget.value


def test_binding_view_of_a_tool_without_security_says_so() -> None:
    view = BindingView(samples.order_tool())
    assert "No credentials" in view.widget.value
    assert _text(view).startswith("Binding of orders_get: orderId→path, limit→query")
    assert "amount→body;" in _text(view), "a body property keeps its name"


def test_wire_view_shows_each_dialect_s_payload_losses_and_size(search_tool: tk.Tool) -> None:
    view = WireView(search_tool)
    assert [value for _, value in view.picker.options] == list(tk.Payload.__module__ and _dialects())
    assert view.dialect == "gemini"
    for dialect in _dialects():
        payload = view.show(dialect)
        assert payload == search_tool.payload(dialect)
        assert f"{payload.size} bytes" in view.body.value
        assert f"{payload.size} bytes" in _text(view)
        assert payload.name in view.body.value
    assert _text(view).startswith("Wire of issues_search_issues in mcp: sent as issues_search_issues")


def _dialects() -> list[str]:
    from toolkit._lowering import DIALECTS

    return list(DIALECTS)


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
