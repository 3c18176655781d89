"""String formats the validator checks, each with the phrase that tells the model what to send.

JSON Schema 2020-12 makes ``format`` an annotation by default; at the tool boundary we *assert* the formats
below, because a free-text date ("next Tuesday") is exactly the mistake the boundary exists to catch.
Formats not listed here (``binary``, ``unix-time``, vendor formats) are annotations and are not checked.

Decisions worth knowing:

* ``date`` is RFC 3339 ``full-date`` (``YYYY-MM-DD``, a real calendar day); ``20260807`` is refused.
* ``date-time`` needs an explicit UTC offset (``Z`` or ``+02:00``): a naive timestamp is ambiguous.
* ``time`` accepts an optional offset (``14:02:00`` or ``14:02:00Z``), because a wall-clock time without a
  zone is what most tool functions mean by a ``time`` parameter.
* ``int32`` / ``int64`` (OpenAPI) check the integer range.
"""

from __future__ import annotations

import datetime as _dt
import ipaddress
import re
from collections.abc import Callable

__all__ = ["FORMAT_CHECKS", "FORMAT_EXAMPLES", "FORMAT_PHRASES", "check_format", "ecma_regex"]

_DATE = re.compile(r"\d{4}-\d{2}-\d{2}", re.ASCII)
_TIME = r"(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?"
_OFFSET = r"(?:[Zz]|[+-](\d{2}):(\d{2}))"
_DATETIME = re.compile(r"^(\d{4})-(\d{2})-(\d{2})[Tt ]" + _TIME + _OFFSET + r"\Z", re.ASCII)
_TIME_RE = re.compile(r"^" + _TIME + _OFFSET + r"?\Z", re.ASCII)
_UUID = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\Z", re.ASCII)
_EMAIL = re.compile(r"^[^@\s\"(),:;<>\[\\\]]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9-]+)*\Z")
_URI = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:[^\s<>\"{}|\\^`]*\Z")
_URI_REF = re.compile(r"^[^\s<>\"{}|\\^`]*\Z")
_HOSTNAME = re.compile(
    r"^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\Z"
)
_DURATION = re.compile(r"^P(?!$)(\d+Y)?(\d+M)?(\d+W)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+(\.\d+)?S)?)?\Z", re.ASCII)


def _date(value: str) -> bool:
    if _DATE.fullmatch(value) is None:  # the shape first: fromisoformat alone also takes "20260807"
        return False
    try:
        _dt.date.fromisoformat(value)
    except ValueError:
        return False
    return True


def _clock_ok(hour: str, minute: str, second: str) -> bool:
    return int(hour) < 24 and int(minute) < 60 and int(second) <= 60


def _offset_ok(hours: str | None, minutes: str | None) -> bool:
    return hours is None or (int(hours) < 24 and int(minutes or 0) < 60)


def _date_time(value: str) -> bool:
    match = _DATETIME.match(value)
    if match is None or not _date(value[:10]):
        return False
    return _clock_ok(match[4], match[5], match[6]) and _offset_ok(match[7], match[8])


def _time(value: str) -> bool:
    match = _TIME_RE.match(value)
    return match is not None and _clock_ok(match[1], match[2], match[3]) and _offset_ok(match[4], match[5])


def _ip(version: int) -> Callable[[str], bool]:
    def check(value: str) -> bool:
        try:
            return ipaddress.ip_address(value).version == version
        except ValueError:
            return False

    return check


def _regex(value: str) -> bool:
    try:
        re.compile(value)
    except re.error:
        return False
    return True


FORMAT_CHECKS: dict[str, Callable[[str], bool]] = {
    "date": _date,
    "date-time": _date_time,
    "time": _time,
    "uuid": lambda v: _UUID.match(v) is not None,
    "email": lambda v: _EMAIL.match(v) is not None,
    "uri": lambda v: _URI.match(v) is not None,
    "uri-reference": lambda v: _URI_REF.match(v) is not None,
    "hostname": lambda v: _HOSTNAME.match(v) is not None,
    "ipv4": _ip(4),
    "ipv6": _ip(6),
    "duration": lambda v: _DURATION.match(v) is not None,
    "regex": _regex,
}
"""String formats that are asserted, by name."""

FORMAT_PHRASES: dict[str, str] = {
    "date": "date as YYYY-MM-DD",
    "date-time": "date-time as YYYY-MM-DDTHH:MM:SS with a UTC offset (Z or +02:00)",
    "time": "time as HH:MM:SS",
    "uuid": "UUID like 123e4567-e89b-12d3-a456-426614174000",
    "email": "email address like name@example.com",
    "uri": "absolute URI like https://example.com/path",
    "uri-reference": "URI reference without spaces",
    "hostname": "hostname like api.example.com",
    "ipv4": "IPv4 address like 192.0.2.1",
    "ipv6": "IPv6 address like 2001:db8::1",
    "duration": "ISO 8601 duration like P3D or PT2H",
    "regex": "regular expression",
}
"""How each format is described to the model when the description does not say it."""

FORMAT_EXAMPLES: dict[str, str] = {
    "date": "2026-08-07",
    "date-time": "2026-08-07T14:02:00Z",
    "time": "14:02:00",
    "uuid": "123e4567-e89b-12d3-a456-426614174000",
    "email": "name@example.com",
    "uri": "https://example.com/path",
    "uri-reference": "/path",
    "hostname": "api.example.com",
    "ipv4": "192.0.2.1",
    "ipv6": "2001:db8::1",
    "duration": "P3D",
    "regex": "^[a-z]+$",
}
"""A valid example of each asserted format (fixture baselines use these)."""

INTEGER_FORMATS: dict[str, tuple[int, int]] = {
    "int32": (-(2**31), 2**31 - 1),
    "int64": (-(2**63), 2**63 - 1),
}


def ecma_regex(pattern: str) -> re.Pattern[str] | None:
    """Compile a JSON Schema (ECMA-262) ``pattern`` for Python, or ``None`` when Python cannot read it.

    Two differences matter at the boundary: ``\\d`` and ``\\w`` are ASCII in ECMA (``re.ASCII``), and ``$``
    means the end of the text, where Python's ``$`` also matches before a final newline (so ``"abc\\n"``
    would pass ``^[a-z]+$``): an unescaped ``$`` outside a character class becomes ``\\Z``.
    """
    out: list[str] = []
    escaped = in_class = False
    for char in pattern:
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == "[":
            in_class = True
        elif char == "]":
            in_class = False
        elif char == "$" and not in_class:
            out.append(r"\Z")
            continue
        out.append(char)
    try:
        return re.compile("".join(out), re.ASCII)
    except (re.error, TypeError, OverflowError, RecursionError):
        return None


def check_format(name: str, value: str) -> bool:
    """True when ``value`` satisfies the string format ``name`` (unknown formats always pass)."""
    check = FORMAT_CHECKS.get(name)
    return True if check is None else check(value)
