"""pydantic-ai tools: ``RunContext[Deps]`` first, dependencies read from it, wrapped in ``Tool``."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Annotated

from pydantic import BaseModel, Field
from pydantic_ai import RunContext, Tool

from framework_tools import case


@dataclass
class Deps:
    """What the application hands every tool run: the clinic and the signed-in patient."""

    clinic: str
    patient_id: str


class Slot(BaseModel):
    """A time range on one day.

    Attributes:
        day: The calendar day (ISO 8601).
        after_hour: Earliest start hour, 0-23, in the clinic's time zone.
    """

    day: date
    after_hour: int = 8


def book_appointment(
    ctx: RunContext[Deps],
    doctor: str,
    slot: Slot,
    reason: Annotated[str, Field(description="Why the patient comes, in their own words.")] = "",
) -> str:
    """Book the first free appointment with a doctor inside a slot.

    Args:
        doctor: The doctor's surname, as the patient said it.
        slot: When the patient can come.
    """
    return (
        f"{ctx.deps.clinic}: {ctx.deps.patient_id} sees {doctor} on {slot.day.isoformat()} "
        f"after {slot.after_hour}h (call {ctx.tool_call_id})"
    )


def list_doctors(ctx: RunContext[Deps], speciality: str = "general") -> list[str]:
    """List the doctors of the patient's clinic.

    :param speciality: Medical speciality to filter by, such as 'general' or 'dermatology'.
    """
    return [f"{ctx.deps.clinic}:{speciality}:martin"]


CASES = {
    "book_appointment": case(Tool(book_appointment), "pydantic-ai", {"ctx"}, {"doctor", "slot", "reason"}),
    "list_doctors": case(Tool(list_doctors), "pydantic-ai", {"ctx"}, {"speciality"}),
}
