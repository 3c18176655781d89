"""String formats the validator checks, each with the phrase that tells the model what to send.

JSON Schema 2020-12 makes ``format`` an annotation by default; at the tool boundary we *assert* the formats
below, because a free-text date ("next Tuesday") is exactly the mistake the boundary exists to catch.
Formats not listed here (``binary``, ``unix-time``, vendor formats) are annotations and are not checked.

Each format follows the RFC that 2020-12 names for it, written out from its grammar (ASCII digits only, no
final newline):

* ``date`` is RFC 3339 ``full-date`` (``YYYY-MM-DD``, a real calendar day); ``20260807`` is refused.
* ``date-time`` is RFC 3339 ``date-time``: ``T`` between date and time (``t`` too, never a space), seconds,
  an optional fraction and an offset (``Z`` or ``+02:00``: a naive timestamp is ambiguous). A leap second
  (``:60``) is valid only where it falls at 23:59:60 UTC (``2016-12-31T23:59:60Z``, ``00:59:60+01:00``).
* ``time`` accepts an optional offset (``14:02:00`` or ``14:02:00Z``), because a wall-clock time without a
  zone is what most tool functions mean by a ``time`` parameter; a leap second needs the offset.
* ``email`` is an RFC 5321 ``Mailbox``: a dot-string or quoted local part (at most 64 characters) and a
  domain of letter-digit-hyphen labels or an address literal (``a@[127.0.0.1]``, ``a@[IPv6:::1]``);
  ``a..b@c.d`` is refused. No library fits: ``email-validator`` judges deliverability (it refuses ``a@b``,
  ``localhost`` and, by default, quoted local parts and address literals) and reads RFC 6531 addresses
  (``é@x.y``, which is format ``idn-email``).
* ``uri`` / ``uri-reference`` are RFC 3986 (ASCII only: a non-ASCII host or path is an IRI, format ``iri``).
* ``ipv6`` is the RFC 4291 text form without a zone identifier (``fe80::1%eth0`` is refused: zones belong
  to URIs, RFC 6874); ``ipv4`` is dotted decimal without leading zeros.
* ``duration`` is RFC 3339 appendix A: whole numbers only, units in order without gaps (``P1Y2M3D``,
  ``PT1H30M``), weeks alone (``P2W``); ``PT1.5S`` and ``P1Y2D`` are refused.
* ``regex`` is an ECMA-262 regular expression (what :mod:`toolkit._validation._pattern` compiles).
* ``int32`` / ``int64`` (OpenAPI) check the integer range.
"""

from __future__ import annotations

import datetime as _dt
import ipaddress
import re
from collections.abc import Callable

from toolkit._exceptions import SchemaError
from toolkit._regex import lazy
from toolkit._validation._pattern import compile_pattern

__all__ = ["FORMAT_CHECKS", "FORMAT_EXAMPLES", "FORMAT_PHRASES", "INTEGER_FORMATS", "check_format"]

_DATE = lazy(r"([0-9]{4})-([0-9]{2})-([0-9]{2})", re.ASCII)
_TIME = r"([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.[0-9]+)?"
_OFFSET = r"(?:([Zz])|([+-])([0-9]{2}):([0-9]{2}))"
_DATETIME = lazy(r"([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt]" + _TIME + _OFFSET, re.ASCII)
_TIME_RE = lazy(_TIME + _OFFSET + "?", re.ASCII)
_UUID = lazy(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}", re.ASCII)
_HOSTNAME = lazy(
    r"(?=.{1,253}\Z)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*",
    re.ASCII,
)
_D = "[0-9]+"
_DUR_TIME = rf"T(?:{_D}H(?:{_D}M(?:{_D}S)?)?|{_D}M(?:{_D}S)?|{_D}S)"
_DUR_DATE = rf"(?:{_D}D|{_D}M(?:{_D}D)?|{_D}Y(?:{_D}M(?:{_D}D)?)?)(?:{_DUR_TIME})?"
_DURATION = lazy(rf"P(?:{_DUR_DATE}|{_DUR_TIME}|{_D}W)", re.ASCII)

# -- RFC 5321 Mailbox ----------------------------------------------------------------------------------------
_ATOM = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"
_QUOTED = r'"(?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\[\x20-\x7e])*"'
_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_MAILBOX = lazy(rf"({_ATOM}(?:\.{_ATOM})*|{_QUOTED})@(?:({_LABEL}(?:\.{_LABEL})*)|\[([^\[\]]*)\])", re.ASCII)

# -- RFC 3986 URI, URI-reference -------------------------------------------------------------------------------
_PCT = "%[0-9A-Fa-f]{2}"
_UNRESERVED_SUB = r"A-Za-z0-9\-._~!$&'()*+,;="
_PCHAR = rf"(?:[{_UNRESERVED_SUB}:@]|{_PCT})"
_AUTHORITY = (
    rf"(?:(?:[{_UNRESERVED_SUB}:]|{_PCT})*@)?(?:\[([^\[\]/?#@]*)\]|(?:[{_UNRESERVED_SUB}]|{_PCT})*)(?::[0-9]*)?"
)
_TAIL = rf"(?:\?(?:{_PCHAR}|[/?])*)?(?:\#(?:{_PCHAR}|[/?])*)?"
_SEGMENTS = rf"(?:/{_PCHAR}*)*"
_HIER = rf"(?://{_AUTHORITY}{_SEGMENTS}|/(?:{_PCHAR}+{_SEGMENTS})?|{_PCHAR}+{_SEGMENTS}|)"
_NOSCHEME = rf"(?:[{_UNRESERVED_SUB}@]|{_PCT})+{_SEGMENTS}"
_RELATIVE = rf"(?://{_AUTHORITY}{_SEGMENTS}|/(?:{_PCHAR}+{_SEGMENTS})?|{_NOSCHEME}|)"
_URI = lazy(rf"[A-Za-z][A-Za-z0-9+.\-]*:{_HIER}{_TAIL}", re.ASCII)
_URI_REF = lazy(rf"(?:[A-Za-z][A-Za-z0-9+.\-]*:{_HIER}|{_RELATIVE}){_TAIL}", re.ASCII)
_IP_FUTURE = lazy(rf"[vV][0-9A-Fa-f]+\.[{_UNRESERVED_SUB}:]+", re.ASCII)


_from_iso_date = _dt.date.fromisoformat


def _date(value: str) -> bool:
    """``YYYY-MM-DD``, a real calendar day (``_DATE`` is the shape, written out).

    The dashes first: ``fromisoformat`` alone also takes ``20260807`` and ``2026-W32-5``. With them in place it
    takes exactly the shape (it reads ASCII digits only) of a real day;
    ``tests/validation/test_validation_generated.py`` holds the two readings together.
    """
    if len(value) != 10 or value[4] != "-" or value[7] != "-":
        return False
    try:
        _from_iso_date(value)
    except ValueError:
        return False
    return True


def _offset_minutes(sign: str | None, hours: str | None, minutes: str | None) -> int | None:
    """The offset east of UTC in minutes (0 for ``Z``), or None when it is out of range."""
    if sign is None:
        return 0
    h, m = int(hours or 0), int(minutes or 0)
    if h > 23 or m > 59:
        return None
    return (h * 60 + m) * (1 if sign == "+" else -1)


def _clock_ok(hour: str, minute: str, second: str, offset: int | None) -> bool:
    """Hours, minutes and seconds in range; ``:60`` only at 23:59 UTC (a leap second), which needs an offset."""
    h, m, s = int(hour), int(minute), int(second)
    if h > 23 or m > 59 or s > 60:
        return False
    return s < 60 or (offset is not None and (h * 60 + m - offset) % 1440 == 23 * 60 + 59)


def _date_time(value: str) -> bool:
    match = _DATETIME.fullmatch(value)
    if match is None or not _date(match[1]):
        return False
    offset = _offset_minutes(match[6], match[7], match[8])
    return offset is not None and _clock_ok(match[2], match[3], match[4], offset)


def _time(value: str) -> bool:
    match = _TIME_RE.fullmatch(value)
    if match is None:
        return False
    zoned = match[4] is not None or match[5] is not None
    offset = _offset_minutes(match[5], match[6], match[7]) if zoned else None
    if zoned and offset is None:
        return False
    return _clock_ok(match[1], match[2], match[3], offset)


def _ipv4(value: str) -> bool:
    try:
        return value.isascii() and isinstance(ipaddress.ip_address(value), ipaddress.IPv4Address)
    except ValueError:
        return False


def _ipv6(value: str) -> bool:
    if not value.isascii() or "%" in value:  # no zone identifier (RFC 6874 puts those in URIs only)
        return False
    try:
        return isinstance(ipaddress.ip_address(value), ipaddress.IPv6Address)
    except ValueError:
        return False


def _email(value: str) -> bool:
    match = _MAILBOX.fullmatch(value)
    if match is None or len(match[1]) > 64:
        return False
    if match[2] is not None:
        return len(match[2]) <= 255
    literal = match[3]
    if literal[:5].lower() == "ipv6:":
        return _ipv6(literal[5:])
    return _ipv4(literal)


def _ip_literal_ok(literal: str | None) -> bool:
    return literal is None or _ipv6(literal) or _IP_FUTURE.fullmatch(literal) is not None


def _uri(value: str) -> bool:
    match = _URI.fullmatch(value)
    return match is not None and _ip_literal_ok(match[1])


def _uri_reference(value: str) -> bool:
    match = _URI_REF.fullmatch(value)
    return match is not None and _ip_literal_ok(match[1] if match[1] is not None else match[2])


def _regex(value: str) -> bool:
    try:
        compile_pattern(value)
    except SchemaError:
        return False
    return True


FORMAT_CHECKS: dict[str, Callable[[str], bool]] = {
    "date": _date,
    "date-time": _date_time,
    "time": _time,
    "uuid": lambda v: _UUID.fullmatch(v) is not None,
    "email": _email,
    "uri": _uri,
    "uri-reference": _uri_reference,
    "hostname": lambda v: _HOSTNAME.fullmatch(v) is not None,
    "ipv4": _ipv4,
    "ipv6": _ipv6,
    "duration": lambda v: _DURATION.fullmatch(v) is not None,
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


def check_format(name: str, value: str) -> bool:
    """True when ``value`` satisfies the string format ``name`` (unknown formats always pass)."""
    check = FORMAT_CHECKS.get(name)
    return True if check is None else check(value)
