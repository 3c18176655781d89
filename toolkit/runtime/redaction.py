"""Redaction by value: every secret toolkit inserted or read is replaced by a marker that names it.

Toolkit knows each secret it handles: the credential values it fills into a request (from the environment or a
provider callable), the static headers of an :class:`~toolkit.runtime.http.HttpConfig` that carry one, and the
userinfo and credential query parameters of a base URL. A :class:`Redactor` holds them, each under a name
(``SLACK_TOKEN``), and rewrites any text, JSON value or envelope so that none appears: the value itself, its
URL-encoded, JSON-escaped and base64 forms (Basic auth sends ``base64(user:password)``), and a cut-off prefix
(a message trimmed to its limit ends with one), each become ``[SLACK_TOKEN]``. Every output channel goes
through this one module: envelopes (and so ledger rows and MCP replies), notices, error messages, ``repr``,
and the HTTP stack's log records (httpx logs each request's URL, query credentials included).

Text whose secrets toolkit cannot know (an exception a function tool raised) goes through
:func:`scrub_urls`, which hides URL credentials by shape: userinfo (``https://user:pw@host``) and query
parameters named like a credential (``key=``, ``token=``, ``api_key=``, ``sig=``...).
"""

from __future__ import annotations

import base64
import json
import re
import weakref
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import parse_qsl, quote, quote_plus, urlsplit

from toolkit._envelope import FieldError, Notice, ToolResult
from toolkit._regex import lazy

if TYPE_CHECKING:
    import logging

__all__ = [
    "SECRET_HEADER",
    "Redactor",
    "config_secrets",
    "marker_name",
    "redact_result",
    "scrub_result",
    "scrub_urls",
]

MIN_SECRET = 4
"""Shorter values are not treated as secrets: redacting ``"ab"`` everywhere would garble every message."""
_MIN_PARTIAL = 4
"""A cut-off prefix at least this long, at the end of a text or before ``…``, is redacted too."""

_CREDENTIAL_PARAM = (
    r"(?:(?:[a-z0-9]+[_.-])*(?:api|access|auth|refresh|id|session)?"
    r"(?:key|token|secret|password|passwd|pwd|sig|signature|auth|credential)s?)"
)
SECRET_HEADER = lazy(
    r"authorization|proxy-authorization|cookie|.*(?:key|token|secret|password|auth|session|signature).*",
    re.IGNORECASE,
)
"""A header name whose value is a secret (a static header in ``HttpConfig.headers`` with such a name is one)."""
_SECRET_QUERY = lazy(_CREDENTIAL_PARAM, re.IGNORECASE)
_URL_USERINFO = lazy(r"(?P<scheme>[a-z][a-z0-9+.-]*://)(?P<user>[^\s/@:?#'\"]*)(?::[^\s/@?#'\"]*)?@", re.I)
_URL_QUERY_SECRET = lazy(rf"(?P<name>(?<![a-z0-9_.-])(?:{_CREDENTIAL_PARAM}))=(?P<value>[^\s&#'\"<>]+)", re.I)

T = TypeVar("T")


def marker_name(text: str) -> str:
    """``text`` as a marker's name: upper case, runs of anything but letters and digits as ``_``."""
    return re.sub(r"[^A-Z0-9]+", "_", text.upper()).strip("_") or "SECRET"


def _forms(value: str) -> set[str]:
    """The ways ``value`` is spelled in text toolkit writes: raw, URL-encoded, JSON-escaped, base64."""
    raw = value.encode("utf-8")
    found = {
        value,
        quote(value, safe=""),
        quote(value),
        quote_plus(value),
        json.dumps(value)[1:-1],
        base64.b64encode(raw).decode("ascii"),
        base64.urlsafe_b64encode(raw).decode("ascii"),
        base64.b64encode(raw).decode("ascii").rstrip("="),
    }
    found |= {re.sub(r"%[0-9A-F]{2}", lambda m: m.group(0).lower(), form) for form in found}
    return {form for form in found if len(form) >= MIN_SECRET}


_LIVE: weakref.WeakSet[Redactor] = weakref.WeakSet()
_LOGGERS = ("httpx", "httpcore", "httpcore.connection", "httpcore.http11", "httpcore.http2", "httpcore.proxy")
"""The HTTP stack's loggers: httpx logs each request's URL (with its query credentials) at INFO."""


class _LogFilter:
    """Rewrites a record's text through every live :class:`Redactor` (installed once on the HTTP loggers; a
    logging filter is any object with this ``filter`` method)."""

    def filter(self, record: logging.LogRecord) -> bool:
        redactors = list(_LIVE)
        if redactors:
            text = record.getMessage()
            for redactor in redactors:
                text = redactor.text(text)
            record.msg, record.args = text, ()
        return True


_FILTER = _LogFilter()


def _watch_logs(redactor: Redactor) -> None:
    if not _LIVE:
        import logging  # with the first Redactor: the HTTP stack that logs is loading too

        for name in _LOGGERS:
            logger = logging.getLogger(name)
            if _FILTER not in logger.filters:
                logger.addFilter(_FILTER)
    _LIVE.add(redactor)


class Redactor:
    """The secrets known so far, each under a marker name; :meth:`text`, :meth:`value` and :meth:`result` hide them.

    Adding is cheap and idempotent (a rotating provider's new token is added on each request); the pattern is
    rebuilt on the next use.
    """

    def __init__(self, secrets: Mapping[str, str] | None = None) -> None:
        self._markers: dict[str, str] = {}
        self._pattern: re.Pattern[str] | None = None
        for name, value in (secrets or {}).items():
            self.add(name, value)

    def add(self, name: str, value: str) -> None:
        """Know ``value`` (and its encoded forms) as the secret ``name``; values under 4 characters are ignored."""
        if not isinstance(value, str) or len(value) < MIN_SECRET:
            return
        marker = f"[{marker_name(name)}]"
        user, colon, password = value.partition(":")
        forms = _forms(value) | (_forms(password) if colon and user and len(password) >= MIN_SECRET else set())
        for form in forms:
            if form not in self._markers:
                self._markers[form] = marker
                self._pattern = None
        _watch_logs(self)

    def __bool__(self) -> bool:
        return bool(self._markers)

    def __len__(self) -> int:
        return len(self._markers)

    def __repr__(self) -> str:
        return f"<Redactor {len(set(self._markers.values()))} secret(s)>"

    def _compiled(self) -> re.Pattern[str]:
        if self._pattern is None:
            alternatives = []
            for form in sorted(self._markers, key=len, reverse=True):
                cut = _MIN_PARTIAL
                # The whole form, or (for a long one) a prefix cut off at the end of the text or before "…".
                whole = re.escape(form)
                if len(form) > cut:
                    alternatives.append(f"{whole}|{re.escape(form[:cut])}{_rest(form[cut:])}(?=…|\\.\\.\\.|$)")
                else:
                    alternatives.append(whole)
            self._pattern = re.compile("|".join(f"(?:{a})" for a in alternatives))
        return self._pattern

    def _marker(self, found: str) -> str:
        if found in self._markers:
            return self._markers[found]
        return next(marker for form, marker in self._markers.items() if form.startswith(found))

    def text(self, text: str) -> str:
        """``text`` with every known secret (and its forms and cut-off prefixes) replaced by its marker."""
        if not self._markers or not text:
            return text
        return self._compiled().sub(lambda m: self._marker(m.group(0)), text)

    def value(self, value: T) -> T:
        """A JSON-like value (strings, lists, tuples, dict keys and values) with every secret redacted."""
        if not self._markers:
            return value
        return _walk(value, self.text)  # type: ignore[no-any-return]

    def result(self, result: ToolResult) -> ToolResult:
        """An envelope with every secret redacted from its data, message, errors and notices."""
        if not self._markers:
            return result
        return redact_result(result, self.text)


def _rest(tail: str) -> str:
    """A regex matching any prefix (possibly empty) of ``tail``, longest first."""
    pattern = ""
    for char in reversed(tail):
        pattern = f"(?:{re.escape(char)}{pattern})?"
    return pattern


def _walk(value: Any, text: Any) -> Any:
    if isinstance(value, str):
        return text(value)
    if isinstance(value, list):
        return [_walk(item, text) for item in value]
    if isinstance(value, tuple):
        return tuple(_walk(item, text) for item in value)
    if isinstance(value, dict):
        return {_walk(key, text): _walk(item, text) for key, item in value.items()}
    return value


def redact_result(result: ToolResult, text: Any) -> ToolResult:
    """``result`` with ``text`` (a ``str -> str`` filter) applied to every string it carries."""
    errors = tuple(_error(error, text) for error in result.errors)
    notices = tuple(_notice(notice, text) for notice in result.notices)
    return replace(result, data=_walk(result.data, text), message=text(result.message), errors=errors, notices=notices)


def _error(error: FieldError, text: Any) -> FieldError:
    return replace(error, problem=text(error.problem), expected=text(error.expected), field=text(error.field))


def _notice(notice: Notice, text: Any) -> Notice:
    return replace(notice, message=text(notice.message), to=_walk(notice.to, text), from_=_walk(notice.from_, text))


def scrub_urls(text: str) -> str:
    """``text`` with URL credentials hidden by shape: ``scheme://user:password@`` → ``scheme://[USERINFO]@``, and
    ``key=value`` (``token=``, ``api_key=``, ``access_token=``, ``sig=``...) → ``key=[KEY]``."""
    if not text or ("@" not in text and "=" not in text):
        return text
    text = _URL_USERINFO.sub(lambda m: f"{m.group('scheme')}[USERINFO]@", text)
    return _URL_QUERY_SECRET.sub(lambda m: f"{m.group('name')}=[{marker_name(m.group('name'))}]", text)


def scrub_result(result: ToolResult) -> ToolResult:
    """An envelope whose message, errors and notices went through :func:`scrub_urls` (its data is the tool's own)."""
    if result.ok:
        return result
    errors = tuple(_error(error, scrub_urls) for error in result.errors)
    notices = tuple(replace(notice, message=scrub_urls(notice.message)) for notice in result.notices)
    return replace(result, message=scrub_urls(result.message), errors=errors, notices=notices)


def url_secrets(url: str, name: str) -> dict[str, str]:
    """The secrets in a URL, each under a marker name derived from ``name``: the userinfo's password (and
    ``user:password``, which Basic auth encodes), and query parameters named like a credential."""
    found: dict[str, str] = {}
    try:
        parts = urlsplit(url)
        password = parts.password
        username = parts.username
    except ValueError:
        return found
    if password:
        found[f"{name}_PASSWORD"] = password
        found[f"{name}_USERINFO"] = f"{username or ''}:{password}"
    for key, value in parse_qsl(parts.query, keep_blank_values=False):
        if _SECRET_QUERY.fullmatch(key):
            found[f"{name}_{key}"] = value
    return found


def header_secrets(headers: Mapping[str, str], name: str = "HEADER") -> dict[str, str]:
    """Static headers that carry a secret (by name): the whole value and, for ``Bearer x`` / ``Basic x``, ``x``."""
    found: dict[str, str] = {}
    for header, value in headers.items():
        if not SECRET_HEADER.fullmatch(header) or not isinstance(value, str):
            continue
        found[f"{name}_{header}"] = value
        scheme, _, token = value.partition(" ")
        if token and scheme.isalpha():
            found[f"{name}_{header}_{scheme}"] = token.strip()
            if scheme.lower() == "basic":
                found.update(_basic(token.strip(), f"{name}_{header}"))
    return found


def _basic(token: str, name: str) -> dict[str, str]:
    try:
        decoded = base64.b64decode(token, validate=True).decode("utf-8")
    except ValueError:
        return {}
    return {f"{name}_DECODED": decoded, **({f"{name}_PASSWORD": decoded.partition(":")[2]} if ":" in decoded else {})}


def config_secrets(base_url: str, headers: Mapping[str, str]) -> dict[str, str]:
    """The secrets an HTTP configuration states itself: its base URL's and its static headers'."""
    return {**url_secrets(base_url, "BASE_URL"), **header_secrets(headers)}
