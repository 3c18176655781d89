"""Decimal strings: what a numeric value sent as a string (a ``Decimal``) can be held to, and how.

A ``Decimal`` parameter travels as a decimal string (``"19.99"``): ``type: string`` with ``format: decimal``
(OpenAPI) or a pattern that takes plain decimals (toolkit's own, from a Python ``Decimal``). JSON Schema cannot
bound a string's value, so a promised sign or number of decimal places is enforced either by a tighter
``pattern`` (which the validator checks) or, for a Python ``Decimal``, by pydantic when the argument is
converted (``Field(gt=0, decimal_places=2)``, recorded as a loss of ``args_schema``). :func:`refuses` asks the
field's own pattern whether it turns away a value the words rule out; :func:`pattern_for` writes the pattern
that would.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from typing import Any

from toolkit._contract import DECIMAL_ARGUMENTS

__all__ = ["is_decimal_string", "pattern_for", "python_bounds", "refuses"]

_SAMPLES = ("19.99", "7", "-1.5")


@functools.lru_cache(maxsize=1024)
def _compiled(pattern: str) -> re.Pattern[str] | None:
    try:
        return re.compile(pattern)
    except (re.error, RecursionError, OverflowError):
        return None  # a pattern only the ECMA-262 engine reads: trusted to enforce what it says


def is_decimal_string(branch: Mapping[str, Any]) -> bool:
    """Whether a string ``branch`` carries a number: ``format: decimal``, or a pattern every plain decimal fits."""
    if branch.get("format") == "decimal":
        return True
    pattern = branch.get("pattern")
    compiled = _compiled(pattern) if isinstance(pattern, str) else None
    return compiled is not None and all(compiled.search(s) for s in _SAMPLES) and not compiled.search("x")


def refuses(branch: Mapping[str, Any], values: list[str]) -> bool:
    """Whether the branch's pattern turns away every one of ``values`` (no pattern: it refuses nothing)."""
    pattern = branch.get("pattern")
    if not isinstance(pattern, str):
        return False
    compiled = _compiled(pattern)
    return compiled is None or not any(compiled.search(value) for value in values)


def pattern_for(*, positive: bool | None, places: int | None) -> str | None:
    """A pattern for plain decimals with a sign rule (``True``: above 0, ``False``: 0 or above, ``None``: any)
    and at most ``places`` decimal places; ``None`` when there is nothing to hold."""
    if positive is None and places is None:
        return None
    sign = "-?" if positive is None else ""
    nonzero = "(?!0(\\.0+)?$)" if positive else ""
    fraction = "(\\.[0-9]+)?" if places is None else "" if places == 0 else f"(\\.[0-9]{{1,{places}}})?"
    return f"^{nonzero}{sign}(0|[1-9][0-9]*){fraction}$"


def python_bounds(keywords: list[tuple[str, Any]]) -> str:
    """The ``Field(...)`` arguments of a ``Decimal`` parameter that enforce ``keywords`` on conversion."""
    return ", ".join(f"{DECIMAL_ARGUMENTS[key]}={value}" for key, value in keywords if key in DECIMAL_ARGUMENTS)
