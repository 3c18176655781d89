"""Sagas compensate in reverse and report honestly; reservations lapse by expiry."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from toolkit.runtime import Ledger, ManualClock, ReservationLapsed, ReservationUnavailable, Saga, reserve


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(1_767_225_600)


@pytest.fixture
def ledger(tmp_path: Path, clock: ManualClock) -> Ledger:
    return Ledger(tmp_path / "ledger.sqlite3", clock=clock)


class Journal:
    """Records every forward step and compensation in order."""

    def __init__(self) -> None:
        self.entries: list[str] = []

    def forward(self, name: str, receipt: dict[str, Any] | None = None) -> Any:
        def run(_results: Mapping[str, Any]) -> Any:
            self.entries.append(f"do {name}")
            return receipt if receipt is not None else {"id": f"{name}_1"}

        return run

    def undo(self, name: str, *, fails: bool = False) -> Any:
        def run(_result: Any) -> None:
            self.entries.append(f"undo {name}")
            if fails:
                raise ConnectionError("payment provider unavailable")

        return run


def boom(_results: Mapping[str, Any]) -> None:
    raise RuntimeError("carrier rejected the address")


def test_success_commits_every_step_and_returns_their_receipts() -> None:
    journal = Journal()
    saga = Saga("checkout").step("reserve", journal.forward("reserve"), journal.undo("reserve"))
    saga.step("charge", journal.forward("charge", {"charge_id": "ch_9"}), journal.undo("charge"))
    report = saga.run()
    assert report.status == "ok"
    assert [(s.name, s.status, s.reference) for s in report.steps] == [
        ("reserve", "committed", "reserve_1"),
        ("charge", "committed", "ch_9"),
    ]
    assert report.data == {"reserve": {"id": "reserve_1"}, "charge": {"charge_id": "ch_9"}}
    assert journal.entries == ["do reserve", "do charge"]


def test_failure_runs_compensations_in_reverse_and_reports_them() -> None:
    journal = Journal()
    saga = Saga("checkout").step("reserve", journal.forward("reserve"), journal.undo("reserve"))
    saga.step("charge", journal.forward("charge"), journal.undo("charge"))
    saga.step("ship", boom, journal.undo("ship"))
    report = saga.run()
    assert journal.entries == ["do reserve", "do charge", "undo charge", "undo reserve"]
    payload = report.to_dict()
    assert payload["status"] == "error"
    assert [s["step"] for s in payload["compensated"]] == ["reserve", "charge"]
    assert payload["outstanding"] == []
    assert "ship" in payload["error"]
    assert "carrier rejected the address" in payload["error"]


def test_failing_compensation_is_an_outstanding_item_with_a_reference() -> None:
    journal = Journal()
    saga = Saga("checkout").step("reserve", journal.forward("reserve"), journal.undo("reserve"))
    saga.step("charge", journal.forward("charge", {"charge_id": "ch_42"}), journal.undo("charge", fails=True))
    saga.step("ship", boom)
    report = saga.run()
    payload = report.to_dict()
    assert payload["status"] == "partial"
    [outstanding] = payload["outstanding"]
    assert outstanding["step"] == "charge"
    assert outstanding["reference"] == "ch_42"
    assert "manual reversal" in outstanding["detail"]
    assert "ConnectionError" in outstanding["detail"]
    assert [s["step"] for s in payload["compensated"]] == ["reserve"]
    assert journal.entries[-1] == "undo reserve"  # the failure did not stop the remaining compensations


def test_outstanding_item_without_a_receipt_id_gets_a_stable_support_reference() -> None:
    def build() -> Saga:
        saga = Saga("checkout").step("charge", lambda _r: "charged", lambda _r: 1 / 0)
        return saga.step("ship", boom)

    first, second = build().run(), build().run()
    [item] = first.to_dict()["outstanding"]
    assert item["reference"].startswith("sup_")
    assert second.to_dict()["outstanding"][0]["reference"] == item["reference"]


def test_irreversible_step_is_outstanding_and_plain_step_stands_committed() -> None:
    saga = Saga("onboard").step("lookup", lambda _r: {"id": "acct_1"})
    saga.step("email", lambda _r: {"message_id": "m_1"}, irreversible=True)
    saga.step("provision", boom)
    payload = saga.run().to_dict()
    assert [s["step"] for s in payload["committed"]] == ["lookup"]
    assert [(s["step"], s["reference"]) for s in payload["outstanding"]] == [("email", "m_1")]


def test_steps_see_earlier_results() -> None:
    saga = Saga().step("a", lambda _r: {"id": "x"}).step("b", lambda results: {"id": results["a"]["id"] + "y"})
    assert saga.run().data["b"] == {"id": "xy"}


def test_reservation_confirms_when_the_saga_succeeds(ledger: Ledger) -> None:
    report = Saga("checkout").reservation("hold", ledger, "sku-1", ttl=300).run()
    assert report.status == "ok"
    assert report.data["hold"]["state"] == "confirmed"
    with pytest.raises(ReservationUnavailable):
        reserve(ledger, "sku-1", ttl=60)


def test_reservation_is_released_when_the_saga_fails(ledger: Ledger) -> None:
    saga = Saga("checkout").reservation("hold", ledger, "sku-1", ttl=300).step("charge", boom)
    payload = saga.run().to_dict()
    assert [s["step"] for s in payload["compensated"]] == ["hold"]
    assert reserve(ledger, "sku-1", ttl=60).state == "held"  # free again


def test_reservation_lapses_by_expiry_without_any_compensation(ledger: Ledger, clock: ManualClock) -> None:
    held = reserve(ledger, "seat-12A", ttl=120, holder="session-1")
    with pytest.raises(ReservationUnavailable):
        reserve(ledger, "seat-12A", ttl=120)
    clock.advance(120)
    assert held.current_state() == "lapsed"
    assert reserve(ledger, "seat-12A", ttl=120).state == "held"
    with pytest.raises(ReservationLapsed):
        held.confirm()


def test_sweeper_marks_expired_holds_lapsed_and_spares_confirmed_ones(ledger: Ledger, clock: ManualClock) -> None:
    reserve(ledger, "a", ttl=10)
    kept = reserve(ledger, "b", ttl=10).confirm()
    reserve(ledger, "c", ttl=100)
    clock.advance(10)
    assert ledger.sweep().lapsed_reservations == 1
    assert kept.current_state() == "confirmed"


def test_release_is_reported_once(ledger: Ledger) -> None:
    held = reserve(ledger, "a", ttl=10)
    assert held.release() is True
    assert held.release() is False
    assert held.current_state() == "released"


def test_confirm_after_the_ttl_fails_the_saga_and_releases_nothing_twice(ledger: Ledger, clock: ManualClock) -> None:
    def slow_step(_results: Mapping[str, Any]) -> dict[str, str]:
        clock.advance(301)  # the session was abandoned this long
        return {"id": "ch_1"}

    saga = Saga("checkout").reservation("hold", ledger, "sku-1", ttl=300).step("charge", slow_step)
    report = saga.run()
    assert "could not be confirmed" in report.error
    assert report.to_dict()["compensated"][0]["step"] == "hold"


def test_a_later_confirmation_failure_releases_reservations_already_confirmed(
    ledger: Ledger, clock: ManualClock
) -> None:
    def slow(_results: Mapping[str, Any]) -> dict[str, str]:
        clock.advance(100)
        return {"id": "ch_1"}

    saga = Saga("trip").reservation("flight", ledger, "FL-1", ttl=500).reservation("hotel", ledger, "HT-1", ttl=50)
    report = saga.step("charge", slow).run()
    assert "'hotel' could not be confirmed" in report.error
    assert [s["step"] for s in report.to_dict()["compensated"]] == ["flight", "hotel"]
    assert reserve(ledger, "FL-1", ttl=60).state == "held"  # the confirmed flight was given up again
