"""The renderers behind ``_repr_mimebundle_``: deterministic text, escaped HTML, never raising.

Each renderer's text and HTML output is pinned by a golden file in ``tests/golden/display/``; rewrite them
with ``TOOLKIT_UPDATE_GOLDEN=1`` (or ``--update-golden`` when the golden plugin is active) and review the diff.

Internals: ``_display.mimebundle`` and the renderers' helpers (``highlight_json``, the fixture report rows), whose
output the golden files pin.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import display_samples as samples
import pytest
from locations import TESTS

import toolkit as tk
from toolkit._display import mimebundle
from toolkit._display._markup import highlight_json

GOLDEN = TESTS / "golden" / "display"

CASES: dict[str, Callable[[], Any]] = {
    "tool_openapi": samples.order_tool,
    "tool_without_arguments": samples.bare_tool,
    "toolset_with_refusals": samples.toolset,
    "result_invalid_arguments": samples.invalid_result,
    "result_ok_with_notices": samples.ok_result,
    "result_replay": samples.replayed_result,
    "batch_partial": samples.batch,
    "saga_outstanding": samples.saga,
    "field_error": lambda: samples.invalid_result().errors[0],
    "notice_clamped": lambda: samples.ok_result().notices[0],
    "lint": lambda: samples.LINTS[0],
    "loss": lambda: samples.LOSSES[1],
    "rejection": lambda: samples.toolset().rejected[1],
    "fixture_report": samples.fixture_report,
    "declaration_diff": samples.declaration_diff,
}


def _updating(request: pytest.FixtureRequest) -> bool:
    return bool(os.environ.get("TOOLKIT_UPDATE_GOLDEN")) or bool(request.config.getoption("--update-golden", False))


def assert_golden(request: pytest.FixtureRequest, name: str, text: str) -> None:
    path = GOLDEN / name
    if _updating(request):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.is_file(), f"no golden file {path}; create it with TOOLKIT_UPDATE_GOLDEN=1"
    assert text == path.read_text(encoding="utf-8"), f"{name} drifted from its golden file"


@pytest.mark.parametrize("case", sorted(CASES))
def test_renderer_output_matches_golden_files(request: pytest.FixtureRequest, case: str) -> None:
    bundle = mimebundle(CASES[case]())
    assert set(bundle) == {"text/plain", "text/html"}
    assert_golden(request, f"{case}.txt", bundle["text/plain"] + "\n")
    assert_golden(request, f"{case}.html", bundle["text/html"] + "\n")


@pytest.mark.parametrize("case", sorted(CASES))
def test_rendering_is_deterministic_and_free_of_addresses(case: str) -> None:
    first, second = mimebundle(CASES[case]()), mimebundle(CASES[case]())
    assert first == second
    assert not re.search(r"0x[0-9a-f]{6,}|[0-9a-f]{32}", first["text/plain"] + first["text/html"])


@pytest.mark.parametrize("case", sorted(CASES))
def test_markup_is_escaped_once_never_twice(case: str) -> None:
    html = mimebundle(CASES[case]())["text/html"]
    assert "&lt;span" not in html
    assert "&amp;lt;" not in html
    assert "&lt;b&gt;" not in html


def test_every_public_type_displays_through_the_protocol() -> None:
    for case in (
        "tool_openapi",
        "toolset_with_refusals",
        "result_invalid_arguments",
        "batch_partial",
        "saga_outstanding",
    ):
        obj = CASES[case]()
        assert obj._repr_mimebundle_() == mimebundle(obj)


def test_hostile_description_cannot_inject_markup() -> None:
    tool = samples.order_tool(description=samples.HOSTILE)
    html = mimebundle(tool)["text/html"]
    assert "<script" not in html
    assert "<img" not in html
    assert "&lt;script&gt;" in html
    assert json.dumps(samples.HOSTILE)[1:-1] in mimebundle(tool)["text/plain"]


@pytest.mark.parametrize(
    "envelope",
    [
        tk.ToolResult("invalid_arguments", errors=(tk.FieldError(samples.HOSTILE, "x", samples.HOSTILE, "y"),)),
        tk.ToolResult("ok", data={"html": samples.HOSTILE}, notices=(tk.Notice("f", samples.HOSTILE),)),
        tk.BatchResult((tk.BatchItem(samples.HOSTILE, "failed", reason=samples.HOSTILE),)),
    ],
    ids=["field-error", "data-and-notice", "batch-item"],
)
def test_hostile_envelope_text_is_escaped(envelope: Any) -> None:
    html = mimebundle(envelope)["text/html"]
    assert "<script" not in html
    assert "<img" not in html


def test_json_highlighter_keeps_the_text_and_colours_tokens() -> None:
    text = '{\n  "a": "b:c",\n  "n": -1.5e3,\n  "t": [true, null]\n}'
    html = highlight_json(text)
    assert re.sub(r"<[^>]+>", "", html).replace("&quot;", '"') == text
    assert 'class="tk-json-key"' in html
    assert 'class="tk-json-number"' in html
    assert html.count('class="tk-json-literal"') == 2


def test_broken_object_falls_back_to_its_repr() -> None:
    class Broken:
        name = "broken"

        def __repr__(self) -> str:
            return "<Broken tool>"

    broken = tk.Toolset(namespace="x", tools=(Broken(),))  # type: ignore[arg-type]
    bundle = mimebundle(broken)
    assert bundle["text/plain"] == repr(broken)
    assert "&lt;Toolset" in bundle["text/html"]


def test_unknown_object_renders_its_escaped_repr() -> None:
    bundle = mimebundle(["<b>", 1])
    assert bundle["text/plain"] == "['<b>', 1]"
    assert "&lt;b&gt;" in bundle["text/html"]


def test_repr_that_raises_still_gives_a_bundle() -> None:
    class Hopeless:
        def __repr__(self) -> str:
            raise RuntimeError("no")

    assert mimebundle(Hopeless())["text/plain"] == "<Hopeless>"


def test_tool_without_lints_says_so() -> None:
    text = mimebundle(samples.bare_tool())["text/plain"]
    assert "lints: none" in text
    assert "losses: none" in text


def test_golden_report_lists_stale_missing_and_orphaned_files(tmp_path: Path) -> None:
    report = samples.golden_report(tmp_path)
    bundle = mimebundle(report)
    assert bundle["text/plain"] == report.to_text()
    html = bundle["text/html"]
    for name, state in (("orders_get", "stale"), ("clock_now", "missing"), ("retired_tool", "orphaned")):
        assert re.search(rf"<td[^>]*>{name}</td><td[^>]*>{state}</td>", html), (name, state)
    assert "golden → now" in html
    assert "behavioural" in html


def test_fixture_report_marks_failures_and_the_selected_row() -> None:
    from toolkit._display._reports import fixture_rows, fixture_table_html

    rows = fixture_rows(samples.fixture_report())
    html = fixture_table_html(rows, selected="expand.enum_wrong_case")
    assert "<b>▶ expand.enum_wrong_case</b>" in html
    assert html.count("tk-row tk-fail") == 1
    assert html.count("tk-row tk-pass") == 1


def test_declaration_diff_text_is_the_diff_own_text() -> None:
    diff = samples.declaration_diff()
    assert mimebundle(diff)["text/plain"] == diff.to_text()


SPEC_V1 = """
openapi: 3.1.0
info: {title: Orders, version: "1"}
paths:
  /orders/{orderId}:
    get:
      operationId: getOrder
      x-agent-tool: true
      description: Look up one order by id. Use before answering any question about an order.
      parameters:
        - {name: orderId, in: path, required: true, description: "The order id, ord_ and 12 characters.",
           schema: {type: string}}
"""
SPEC_V2 = (
    SPEC_V1.replace("Look up one order by id.", "Look up one order.")
    + """
  /orders:
    get:
      operationId: listOrders
      x-agent-tool: true
      description: List the caller's orders, newest first. Use when the user does not know an order id.
"""
)


def test_spec_diff_shows_added_tools_and_classified_changes() -> None:
    diff = tk.diff_specs(SPEC_V1, SPEC_V2, "orders")
    bundle = mimebundle(diff)
    assert bundle["text/plain"] == diff.to_text()
    html = bundle["text/html"]
    assert re.search(r"<td[^>]*>added</td><td[^>]*>orders_list_orders</td>", html)
    assert "tool_description_changed" in html
    assert "tk-behavioural" in html
