"""Sagas and reservations: multi-step effects that fail half-way, reported honestly.

A :class:`Saga` runs forward steps in order. When one fails, the compensations of the steps that committed run
in reverse, and the :class:`~toolkit.SagaReport` says which steps committed, which were compensated and which
are **outstanding**: a compensation that itself failed, or a step marked ``irreversible``, appears there with a
reference the user can quote to support (the step's receipt id, or a stable ``sup_…`` reference).

Steps that should lapse rather than be undone use a reservation (:func:`reserve`, or
:meth:`Saga.reservation`): a hold with a TTL stored in the ledger database. It is confirmed (made permanent)
only when the whole saga succeeded; otherwise it is released, and if even the release fails it lapses at its
expiry anyway — whether or not this process survives. :meth:`~toolkit.runtime.Ledger.sweep` marks expired
holds as lapsed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

from toolkit._display import displayed_by
from toolkit._display._envelopes import SAGA_RENDERER, SAGA_STEP_RENDERER
from toolkit._envelope import Notice, Status, _Envelope
from toolkit.runtime.ledger import Ledger, iso_time
from toolkit.runtime.redaction import scrub_urls

__all__ = [
    "Reservation",
    "ReservationLapsed",
    "ReservationUnavailable",
    "Saga",
    "SagaReport",
    "SagaStep",
    "reserve",
]


SagaStepStatus = Literal["committed", "compensated", "outstanding", "not_started"]


@displayed_by(SAGA_STEP_RENDERER)
@dataclass(frozen=True, slots=True)
class SagaStep(_Envelope):
    """One forward step of a saga and where it ended."""

    name: str
    status: SagaStepStatus
    reference: str = ""
    detail: str = ""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"step": self.name, "status": self.status}
        if self.reference:
            out["reference"] = self.reference
        if self.detail:
            out["detail"] = self.detail
        return out


@displayed_by(SAGA_RENDERER)
@dataclass(frozen=True, slots=True)
class SagaReport(_Envelope):
    """Which steps committed, which were compensated, which are still outstanding (need a human)."""

    steps: tuple[SagaStep, ...]
    error: str = ""
    data: Any = None
    notices: tuple[Notice, ...] = field(default=())

    def _named(self, status: str) -> list[dict[str, Any]]:
        return [s.to_dict() for s in self.steps if s.status == status]

    @property
    def status(self) -> Status:
        if not self.error:
            return "ok"
        return "partial" if any(s.status == "outstanding" for s in self.steps) else "error"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "status": self.status,
            "data": self.data,
            "committed": self._named("committed"),
            "compensated": self._named("compensated"),
            "outstanding": self._named("outstanding"),
        }
        if self.error:
            out["error"] = self.error
        if self.notices:
            out["notices"] = [n.to_dict() for n in self.notices]
        return out


class ReservationUnavailable(Exception):
    """The resource is already held by an unexpired or confirmed reservation (worth retrying later)."""

    retryable = True


class ReservationLapsed(Exception):
    """The reservation expired or was released before it was confirmed; reserve again."""

    retryable = False


@dataclass(frozen=True, slots=True)
class Reservation:
    """A hold on ``resource`` until ``expires_at`` (epoch seconds) unless confirmed."""

    id: str
    resource: str
    holder: str
    state: str
    expires_at: float
    ledger: Ledger = field(repr=False, compare=False)

    def confirm(self) -> Reservation:
        """Make the hold permanent; raises :class:`ReservationLapsed` if it already expired or was released."""
        with self.ledger.transaction() as conn:
            now = self.ledger.now()
            row = conn.execute("SELECT state, expires_at FROM reservations WHERE id = ?", (self.id,)).fetchone()
            state, expires_at = row if row else ("released", 0.0)
            if state == "confirmed":
                return _with_state(self, "confirmed")
            if state == "held" and expires_at > now:
                conn.execute("UPDATE reservations SET state = 'confirmed', settled_at = ? WHERE id = ?", (now, self.id))
                return _with_state(self, "confirmed")
            if state == "held":
                conn.execute("UPDATE reservations SET state = 'lapsed', settled_at = ? WHERE id = ?", (now, self.id))
        raise ReservationLapsed(f"reservation {self.id} of {self.resource!r} is no longer held; reserve it again")

    def release(self) -> bool:
        """Give the reservation up now (held, or confirmed and being undone) instead of waiting for it to lapse;
        ``False`` if it had already lapsed or been released."""
        with self.ledger.transaction() as conn:
            changed = conn.execute(
                "UPDATE reservations SET state = 'released', settled_at = ?"
                " WHERE id = ? AND state IN ('held', 'confirmed')",
                (self.ledger.now(), self.id),
            ).rowcount
        return changed == 1

    def current_state(self) -> str:
        """The state stored now (``held``, ``confirmed``, ``released`` or ``lapsed``; expiry counts as lapsed)."""
        conn = self.ledger.connect()
        try:
            row = conn.execute("SELECT state, expires_at FROM reservations WHERE id = ?", (self.id,)).fetchone()
        finally:
            conn.close()
        if row is None:
            return "released"
        state, expires_at = row
        return "lapsed" if state == "held" and expires_at <= self.ledger.now() else str(state)

    def to_dict(self) -> dict[str, Any]:
        return {
            "reservation_id": self.id,
            "resource": self.resource,
            "holder": self.holder,
            "state": self.state,
            "expires_at": iso_time(self.expires_at),
        }


def _with_state(reservation: Reservation, state: str) -> Reservation:
    return Reservation(
        reservation.id, reservation.resource, reservation.holder, state, reservation.expires_at, reservation.ledger
    )


def reserve(ledger: Ledger, resource: str, *, ttl: float, holder: str = "") -> Reservation:
    """Hold ``resource`` for ``ttl`` seconds; raises :class:`ReservationUnavailable` if someone else holds it."""
    with ledger.transaction() as conn:
        now = ledger.now()
        active = conn.execute(
            "SELECT id FROM reservations"
            " WHERE resource = ? AND (state = 'confirmed' OR (state = 'held' AND expires_at > ?))",
            (resource, now),
        ).fetchone()
        if active is not None:
            raise ReservationUnavailable(f"{resource!r} is already reserved ({active[0]}); try again after it lapses")
        seen = conn.execute("SELECT COUNT(*) FROM reservations WHERE resource = ?", (resource,)).fetchone()[0]
        digest = hashlib.sha256(f"{resource}|{holder}|{now}|{seen}".encode()).hexdigest()
        reservation_id = f"rsv_{digest[:12]}"
        conn.execute(
            "INSERT INTO reservations (id, resource, holder, state, created_at, expires_at)"
            " VALUES (?, ?, ?, 'held', ?, ?)",
            (reservation_id, resource, holder, now, now + ttl),
        )
    return Reservation(reservation_id, resource, holder, "held", now + ttl, ledger)


# -- sagas ---------------------------------------------------------------------------------------------
Action = Callable[[Mapping[str, Any]], Any]
"""A forward step: receives the results of the earlier steps by name, returns its own result (receipt)."""


@dataclass(frozen=True, slots=True)
class _Step:
    name: str
    action: Action
    compensate: Callable[[Any], Any] | None = None
    reference: Callable[[Any], str] | None = None
    irreversible: bool = False
    lapses_at: Callable[[Any], float] | None = None
    finalize: Callable[[Any], Any] | None = None


def _support_reference(saga: str, step: str, result: Any) -> str:
    digest = hashlib.sha256(f"{saga}|{step}|{result!r}".encode()).hexdigest()
    return f"sup_{digest[:10]}"


def _default_reference(result: Any) -> str:
    """A receipt id found in the step's result, if it has an obvious one."""
    if isinstance(result, Reservation):
        return result.id
    if isinstance(result, Mapping):
        for key in ("reference", "receipt_id", "id"):
            if isinstance(result.get(key), str | int):
                return str(result[key])
        for key, value in sorted(result.items()):
            if str(key).endswith("_id") and isinstance(value, str | int):
                return str(value)
    return ""


def _jsonable(result: Any) -> Any:
    return result.to_dict() if hasattr(result, "to_dict") else result


class Saga:
    """Forward steps with compensations, run in reverse on failure, reported step by step::

    saga = Saga("checkout")
    saga.reservation("hold_stock", ledger, "sku-42", ttl=300)
    saga.step("charge", charge_card, compensate=refund)
    saga.step("notify", send_email, irreversible=True)
    report = saga.run()   # SagaReport: committed / compensated / outstanding
    """

    def __init__(self, name: str = "saga") -> None:
        self.name = name
        self._steps: list[_Step] = []

    def step(
        self,
        name: str,
        action: Action,
        compensate: Callable[[Any], Any] | None = None,
        *,
        reference: Callable[[Any], str] | None = None,
        irreversible: bool = False,
    ) -> Saga:
        """Add a forward step. ``compensate(result)`` undoes it; without one the step stands as committed,
        unless ``irreversible=True`` (an email sent): then a later failure lists it as outstanding."""
        self._steps.append(_Step(name, action, compensate, reference, irreversible))
        return self

    def reservation(self, name: str, ledger: Ledger, resource: str, *, ttl: float, holder: str = "") -> Saga:
        """Add a step that reserves ``resource``: released on failure (lapses if even that fails), confirmed
        when every step succeeded."""
        self._steps.append(
            _Step(
                name,
                action=lambda _results: reserve(ledger, resource, ttl=ttl, holder=holder or self.name),
                compensate=lambda held: held.release(),
                lapses_at=lambda held: float(held.expires_at),
                finalize=lambda held: held.confirm(),
            )
        )
        return self

    def run(self) -> SagaReport:
        """Run the steps; on the first failure compensate the committed ones in reverse and report."""
        results: dict[str, Any] = {}
        committed: list[_Step] = []
        for step in self._steps:
            try:
                results[step.name] = step.action(MappingProxyType(results))
            except Exception as error:
                return self._unwind(committed, results, f"step {step.name!r} failed: {_describe(error)}")
            committed.append(step)
        for step in committed:
            if step.finalize is not None:
                try:
                    results[step.name] = step.finalize(results[step.name])
                except Exception as error:
                    return self._unwind(
                        committed, results, f"step {step.name!r} could not be confirmed: {_describe(error)}"
                    )
        steps = tuple(SagaStep(s.name, "committed", self._reference(s, results[s.name])) for s in committed)
        return SagaReport(steps=steps, data={name: _jsonable(value) for name, value in results.items()})

    def _reference(self, step: _Step, result: Any) -> str:
        found = step.reference(result) if step.reference is not None else _default_reference(result)
        return found or _support_reference(self.name, step.name, result)

    def _unwind(self, committed: list[_Step], results: dict[str, Any], error: str) -> SagaReport:
        undone = {step.name: self._compensate(step, results[step.name]) for step in reversed(committed)}
        return SagaReport(steps=tuple(undone[step.name] for step in committed), error=error)

    def _compensate(self, step: _Step, result: Any) -> SagaStep:
        reference = self._reference(step, result)
        if step.compensate is None:
            if step.irreversible:
                return SagaStep(step.name, "outstanding", reference, "took effect and cannot be undone automatically")
            return SagaStep(step.name, "committed", reference)
        try:
            step.compensate(result)
        except Exception as error:
            if step.lapses_at is not None:
                lapse = iso_time(step.lapses_at(result))
                return SagaStep(step.name, "compensated", reference, f"release failed; lapses at {lapse}")
            detail = f"compensation failed ({_describe(error)}); needs manual reversal, quote {reference}"
            return SagaStep(step.name, "outstanding", reference, detail)
        return SagaStep(step.name, "compensated", reference)


def _describe(error: BaseException) -> str:
    message = scrub_urls(str(error))
    return f"{type(error).__name__}: {message}" if message else type(error).__name__
