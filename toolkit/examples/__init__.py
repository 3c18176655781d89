"""Example function tools: two good ones and one that shows every common trap.

These are plain functions; turn them into tools with :func:`toolkit.from_function`::

    import toolkit as tk
    from toolkit import examples

    search = tk.from_function(examples.search_issues, namespace="issues", effect="read")
    transfer = tk.from_function(examples.transfer_funds, namespace="payments", confirm=True)
    invoice = tk.from_function(examples.create_invoice, namespace="billing")
    invoice.lints          # float money, string date, vague descriptions, SCREAMING_SNAKE enum, untyped map

* :func:`search_issues` is a read tool with a bounded page size (Google-style docstring).
* :func:`transfer_funds` is a write tool that takes money as :class:`~decimal.Decimal`, a real
  :class:`~datetime.date` and an injected :class:`~toolkit.ToolContext` (NumPy-style docstring).
* :func:`create_invoice` is deliberately flawed so the lints have something to say (reST-style docstring).

The bodies compute deterministic results from their arguments only: nothing here touches the network, a
database or the clock, and importing the module has no side effects.
"""

from __future__ import annotations

import hashlib
from datetime import date
from decimal import Decimal
from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import Field

from toolkit._context import ToolContext

__all__ = ["InvoiceStatus", "IssueState", "create_invoice", "search_issues", "transfer_funds"]

IssueState = Literal["open", "closed", "all"]
"""Which issues :func:`search_issues` returns, by state."""


def search_issues(
    query: str,
    limit: Annotated[int, Field(ge=1, le=100)] = 20,
    state: IssueState = "open",
    labels: list[str] | None = None,
    updated_since: date | None = None,
) -> dict[str, Any]:
    """Search the issue tracker and return matching issues, newest first.

    Use this before answering any question about a bug, feature request or incident. Results are
    summaries; the issue number identifies an issue in every other issues tool.

    Args:
        query: Free-text search over issue titles and bodies, for example "login timeout".
        limit: Maximum number of issues to return, an integer between 1 and 100.
        state: Issue state to match: "open", "closed" or "all".
        labels: Only issues carrying every one of these labels, for example ["bug", "p1"].
        updated_since: Only issues updated on or after this calendar day (ISO 8601, YYYY-MM-DD).

    Returns:
        A dict with the matching issues and the total count.
    """
    states = ("open", "closed") if state == "all" else (state,)
    issues = [
        {
            "number": 100 + i,
            "title": f"{query} ({n})",
            "state": states[i % len(states)],
            "labels": sorted(labels or []),
            "updated_on": (updated_since or date(2026, 1, 1)).isoformat(),
        }
        for i, n in enumerate(range(1, min(limit, 3) + 1))
    ]
    return {"total": len(issues), "issues": issues}


def transfer_funds(
    from_account: Annotated[str, Field(pattern=r"^acc_[0-9]{8}$")],
    to_account: Annotated[
        str,
        Field(pattern=r"^acc_[0-9]{8}$", description="Destination account id (acc_ and 8 digits), not the source."),
    ],
    amount: Annotated[Decimal, Field(gt=0, decimal_places=2)],
    currency: Literal["eur", "usd", "gbp"],
    execute_on: date,
    context: ToolContext,
    reference: Annotated[str, Field(max_length=140)] = "",
) -> dict[str, Any]:
    """Move money between two accounts of the same customer on a given day.

    The transfer is irreversible once executed. Ask the user to confirm the amount, currency and both
    accounts before calling it.

    Parameters
    ----------
    from_account
        Source account id, as returned by lookup_account: "acc_" followed by 8 digits.
    to_account
        Destination account id; the Field description in the signature wins over this line.
    amount
        Amount to move, a positive decimal number in the currency's major unit with at most two
        decimal places (for example "19.99").
    currency
        Lowercase ISO 4217 currency code of the amount: "eur", "usd" or "gbp".
    execute_on
        Calendar day the transfer executes (ISO 8601, YYYY-MM-DD); today or later.
    context
        Injected by the runtime; never shown to the model.
    reference
        Free-text reference shown on both statements, at most 140 characters.

    Returns
    -------
    dict
        A receipt with the transfer id, the amount as a string, and the execution day.
    """
    digest = hashlib.sha256(
        f"{context.session_id}|{from_account}|{to_account}|{amount}|{currency}|{execute_on}".encode()
    ).hexdigest()
    return {
        "transfer_id": f"tr_{digest[:12]}",
        "amount": str(amount.quantize(Decimal("0.01"))),
        "currency": currency,
        "execute_on": execute_on.isoformat(),
        "reference": reference,
    }


class InvoiceStatus(StrEnum):
    """Invoice states in the style of a Java enum: SCREAMING_SNAKE, which models rarely emit."""

    DRAFT_ONLY = "DRAFT_ONLY"
    SEND_NOW = "SEND_NOW"
    MARK_PAID = "MARK_PAID"


def create_invoice(
    customer: str,
    amount: float,
    due_date: str,
    status: InvoiceStatus = InvoiceStatus.DRAFT_ONLY,
    metadata: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Creates an invoice.

    :param customer: The customer.
    :param amount: Amount.
    :param due_date: When.
    :param status: Status.
    :param metadata: Extra data.
    :returns: The invoice.
    """
    return {
        "invoice_id": "inv_" + hashlib.sha256(f"{customer}|{amount}|{due_date}".encode()).hexdigest()[:10],
        "customer": customer,
        "amount": amount,
        "due_date": due_date,
        "status": status.value,
        "metadata": dict(metadata or {}),
    }
