"""Batches report per item, with a retry classification and a hint naming exactly the ids to re-call."""

from __future__ import annotations

import pytest

from toolkit import RuntimeConfigError, ToolResult
from toolkit.runtime import ItemFailure, default_retryable, run_batch

USERS = ["u_1", "u_2", "u_3", "u_4", "u_5"]


def invite(user: str) -> dict[str, str]:
    if user == "u_3":
        raise ItemFailure("mailbox_full", retryable=True)
    return {"invited": user}


def test_third_of_five_failing_reports_four_succeeded_one_failed_and_a_hint_for_it() -> None:
    attempted: list[str] = []

    def tracked(user: str) -> dict[str, str]:
        attempted.append(user)
        return invite(user)

    result = run_batch(USERS, tracked)
    assert attempted == USERS  # documented: every item is attempted after a failure
    assert result.status == "partial"
    assert result.summary == {"total": 5, "succeeded": 4, "failed": 1}
    assert [i.id for i in result.failed] == ["u_3"]
    assert result.failed[0].reason == "mailbox_full"
    assert result.retry_ids == ("u_3",)
    assert result.to_dict()["retry_hint"] == 'Re-call with ids: ["u_3"]'
    assert result.items[4].data == {"invited": "u_5"}


def test_stop_on_failure_skips_the_rest_and_names_them_for_retry() -> None:
    result = run_batch(USERS, invite, stop_on_failure=True)
    assert [i.status for i in result.items] == ["ok", "ok", "failed", "skipped", "skipped"]
    assert result.summary == {"total": 5, "succeeded": 2, "failed": 1, "skipped": 2}
    assert result.retry_ids == ("u_3", "u_4", "u_5")


@pytest.mark.parametrize(
    ("error", "retryable"),
    [
        (TimeoutError("slow"), True),
        (ConnectionError("reset"), True),
        (ValueError("bad address"), False),
        (ItemFailure("invalid_address"), False),
        (ItemFailure("rate_limited", retryable=True), True),
    ],
    ids=["timeout", "connection", "value-error", "permanent-failure", "transient-failure"],
)
def test_exceptions_are_classified_for_retry(error: Exception, retryable: bool) -> None:
    assert default_retryable(error) is retryable

    def fail(_item: str) -> None:
        raise error

    [item] = run_batch(["x"], fail).items
    assert (item.status, item.retryable) == ("failed", retryable)
    assert item.reason


def test_plain_exception_reason_names_its_kind_and_message() -> None:
    def fail(_item: str) -> None:
        raise KeyError("missing")

    assert run_batch(["x"], fail).items[0].reason == "key_error: 'missing'"


def test_tool_result_items_keep_status_errors_and_retryable() -> None:
    outcomes = {
        "a": ToolResult(status="ok", data=1),
        "b": ToolResult(status="timeout", message="slow upstream"),
        "c": ToolResult(status="rejected", message="over budget", retryable=False),
    }
    result = run_batch(outcomes, outcomes.__getitem__)
    assert [i.status for i in result.items] == ["ok", "failed", "failed"]
    assert result.items[1].retryable is True
    assert result.items[1].reason == "timeout: slow upstream"
    assert result.retry_ids == ("b",)


def test_custom_ids_and_classifier_are_used() -> None:
    orders = [{"order": 10}, {"order": 11}]

    def fail_second(order: dict[str, int]) -> int:
        if order["order"] == 11:
            raise ValueError("out of stock")
        return order["order"]

    result = run_batch(orders, fail_second, id_of=lambda o: f"ord_{o['order']}", retryable=lambda e: True)
    assert result.retry_ids == ("ord_11",)


def test_all_failed_is_error_not_partial() -> None:
    assert run_batch(["a", "b"], lambda _item: 1 / 0).status == "error"


def test_duplicate_ids_are_refused() -> None:
    with pytest.raises(RuntimeConfigError, match="id_of=") as caught:
        run_batch(["a", "a"], str)
    assert caught.value.slug == "duplicate_batch_id"
