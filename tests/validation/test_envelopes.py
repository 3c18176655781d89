"""Golden tests pinning the JSON shape of every envelope the model reads back.

Each case is stored in ``tests/golden/envelopes/<case>.json`` as canonical JSON. A shape change fails here
first; regenerate deliberately with ``TOOLKIT_UPDATE_GOLDEN=1 pytest tests/validation/test_envelopes.py`` and review the
diff, because every change is a change in what the model sees.
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
from locations import TESTS

from toolkit import BatchItem, BatchResult, FieldError, Notice, Replay, SagaReport, SagaStep, ToolResult
from toolkit import canonical_json as pretty

GOLDEN = TESTS / "golden" / "envelopes"
RANGE = FieldError("limit", "out_of_range", "out of range: 500", "integer between 1 and 100")
STEPS = (
    SagaStep("reserve_inventory", "compensated", reference="res_81", detail="released"),
    SagaStep("charge_card", "outstanding", reference="ch_42", detail="refund by hand"),
    SagaStep("create_shipment", "not_started"),
    SagaStep("notify", "committed"),
)
CASES: dict[str, Any] = {
    "field_error": RANGE,
    "notice_defaulted": Notice("limit", "defaulted", "absent; default used", to=20),
    "notice_clamped": Notice("limit", "clamped", "500 is out of range; used 100", to=100, from_=500),
    "notice_null_as_absent": Notice("page", "null_as_absent", "null for an optional field read as absent", from_=None),
    "replay": Replay("2026-08-07T14:02:00Z", key="9f2c"),
    "result_ok": ToolResult("ok", data={"query": "q", "limit": 20}, notices=(Notice("limit", "defaulted", to=20),)),
    "result_invalid_arguments": ToolResult("invalid_arguments", errors=(RANGE,)),
    "result_rejected": ToolResult("rejected", errors=(FieldError("since", "domain_rule", "a Saturday", "a weekday"),)),
    "result_needs_confirmation": ToolResult(
        "needs_confirmation", data={"tool": "pay", "args": {"amount": "5"}}, message="ask the user first"
    ),
    "result_error": ToolResult("error", message="ValueError: no such project", retryable=False),
    "result_timeout": ToolResult("timeout", message="TimeoutError: upstream", retryable=True),
    "result_replay": ToolResult("ok", data={"receipt": "r1"}, replay=Replay("2026-08-07T14:02:00Z")),
    "batch_item_ok": BatchItem("u_2201", "ok"),
    "batch_item_failed": BatchItem("u_2202", "failed", reason="mailbox_full", retryable=True),
    "batch_item_invalid": BatchItem("u_2203", "failed", reason="invalid_arguments", errors=(RANGE,)),
    "batch_partial": BatchResult(
        (
            BatchItem("u_2201", "ok", data={"sent": True}),
            BatchItem("u_2202", "failed", reason="mailbox_full", retryable=True),
            BatchItem("u_2203", "failed", reason="no_such_user"),
            BatchItem("u_2204", "skipped", reason="duplicate"),
        )
    ),
    "batch_all_ok": BatchResult((BatchItem("a", "ok"), BatchItem("b", "ok"))),
    "batch_all_failed": BatchResult((BatchItem("a", "failed", reason="down", retryable=True),)),
    "saga_step": STEPS[1],
    "saga_partial": SagaReport(STEPS, error="charge_card failed: card declined"),
    "saga_ok": SagaReport((SagaStep("reserve", "committed"),), data={"order": "o1"}, notices=(Notice("x", "trimmed"),)),
    "saga_compensated": SagaReport((STEPS[0], STEPS[2]), error="payment refused"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_envelope_shape_matches_its_golden_file(case: str) -> None:
    envelope = CASES[case]
    text = pretty(envelope.to_dict())
    path = GOLDEN / f"{case}.json"
    if os.environ.get("TOOLKIT_UPDATE_GOLDEN") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.is_file(), f"missing golden file {path}; run with TOOLKIT_UPDATE_GOLDEN=1 and review it"
    assert text == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("case", sorted(CASES))
def test_to_json_is_the_same_document_as_to_dict(case: str) -> None:
    envelope = CASES[case]
    assert json.loads(envelope.to_json()) == json.loads(json.dumps(envelope.to_dict()))


def test_every_envelope_type_has_a_golden_case() -> None:
    covered = {type(v) for v in CASES.values()}
    assert covered == {FieldError, Notice, Replay, ToolResult, BatchItem, BatchResult, SagaStep, SagaReport}


def test_every_tool_result_carries_the_four_keys() -> None:
    for envelope in CASES.values():
        if isinstance(envelope, ToolResult):
            assert {"status", "data", "errors", "notices"} <= set(envelope.to_dict())


def test_a_batch_retry_hint_names_only_retryable_failures() -> None:
    hint = CASES["batch_partial"].to_dict()["retry_hint"]
    assert hint == 'Re-call with ids: ["u_2202"]'


def test_no_golden_file_is_orphaned() -> None:
    assert {p.stem for p in GOLDEN.glob("*.json")} == set(CASES)


class _Unprintable:
    def __str__(self) -> str:
        raise RuntimeError("str raised")


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


@pytest.mark.parametrize(
    ("data", "read_back"),
    [
        pytest.param({"x": float("nan"), "y": [float("inf"), -float("inf")]}, {"x": None, "y": [None, None]}, id="nan"),
        pytest.param({"s": "\ud800", "\udfff": 1}, {"s": "\ud800", "\udfff": 1}, id="lone-surrogates"),
        pytest.param({"o": _Unprintable()}, {"o": "<_Unprintable object>"}, id="unprintable-object"),
        pytest.param({1: "a", "b": 2}, {"1": "a", "b": 2}, id="int-key"),
    ],
)
def test_to_json_is_always_json_that_encodes_as_utf8(data: Any, read_back: Any) -> None:
    text = ToolResult("ok", data=data).to_json()
    text.encode("utf-8")
    assert json.loads(text, parse_constant=_no_constants)["data"] == read_back


def test_to_json_writes_an_integer_of_any_length() -> None:
    text = ToolResult("ok", data={"n": 10**5000}).to_json()
    assert text == '{"data": {"n": 1' + "0" * 5000 + '}, "errors": [], "notices": [], "status": "ok"}'
