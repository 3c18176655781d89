"""Credentials for HTTP tools: from configuration, never from the model.

Two things on a tool's contract carry secrets, both filled here just before a request is sent:

* its security schemes (:class:`SecurityScheme`: an API key in a header, query parameter or cookie, or an
  HTTP bearer / basic token), and
* its credential parameters (:class:`Credential`: parameters the spec declares that carry a secret, taken
  out of the arguments by the credential rule). One that implements a scheme the tool uses is filled by
  that scheme; the others go where the spec declared them (a header, the query, a cookie or a body field).

A secret's source is looked up by its configuration key (the scheme's name in the spec, or the credential
parameter's name) in ``HttpConfig.credentials``: the name of an environment variable, or a provider callable
(for tokens that rotate). When the configuration does not name the key, the default environment variable
recorded on the scheme or credential (``<NAMESPACE>_<KEY>``) is read if it is set. A scheme or an optional
credential with no value is skipped (the API answers 401 if it needed one); a required credential with none
stops the call before anything is sent (``missing_credential``). The declaration never shows any of these,
so the model cannot invent a token.
"""

from __future__ import annotations

import base64
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from toolkit._contract import SecurityScheme
from toolkit._credential_record import Credential
from toolkit._exceptions import RuntimeConfigError

__all__ = ["Credential", "CredentialSource", "RequestParts", "SecurityScheme", "fill"]

CredentialSource = str | Callable[[], str]
"""An environment variable name, or a callable returning the secret (called on every request)."""


@dataclass(slots=True)
class RequestParts:
    """The parts of one request being assembled (mutable only while it is built)."""

    headers: dict[str, str] = field(default_factory=dict)
    query: list[tuple[str, str]] = field(default_factory=list)
    cookies: dict[str, str] = field(default_factory=dict)
    body: Any = None
    """The body object, or ``None`` when the request has none yet."""

    def put(self, location: str, name: str, value: str) -> None:
        """Set ``name`` to ``value`` in a header, the query, a cookie or a body field."""
        if location == "header":
            self.headers[name] = value
        elif location == "query":
            self.query.append((name, value))
        elif location == "cookie":
            self.cookies[name] = value
        elif self.body is None:
            self.body = {name: value}
        elif isinstance(self.body, dict):
            self.body[name] = value


def _secret(key: str, source: CredentialSource, environ: Mapping[str, str], reveal: Callable[[str, str], None]) -> str:
    value = _raw_secret(key, source, environ)
    reveal(source if isinstance(source, str) else key, value)
    if not value.isascii() or not value.isprintable():
        raise RuntimeConfigError(
            f"the secret for {key!r} holds control or non-ASCII characters (a stray newline?); fix its value",
            slug="bad_credential",
        )
    return value


def _raw_secret(key: str, source: CredentialSource, environ: Mapping[str, str]) -> str:
    if callable(source):
        value = source()
        if not isinstance(value, str) or not value:
            raise RuntimeConfigError(
                f"the credential provider for {key!r} returned {type(value).__name__}, not a non-empty "
                "string; make it return the secret text",
                slug="bad_credential_provider",
            )
        return value
    value = environ.get(source, "")
    if not value:
        raise RuntimeConfigError(
            f"credential {key!r} is configured to come from the environment variable {source!r}, "
            f"which is unset or empty; export {source}=... or pass a provider callable",
            slug="missing_credential",
        )
    return value


def _source(
    key: str, env: str, sources: Mapping[str, CredentialSource], environ: Mapping[str, str]
) -> CredentialSource | None:
    """The configured source for ``key``, else the default environment variable when it is set, else None."""
    if key in sources:
        return sources[key]
    return env if env and environ.get(env) else None


def _put_scheme(scheme: SecurityScheme, secret: str, parts: RequestParts) -> None:
    if scheme.kind == "bearer":
        parts.headers["Authorization"] = f"Bearer {secret}"
    elif scheme.kind == "basic":
        parts.headers["Authorization"] = "Basic " + base64.b64encode(secret.encode("utf-8")).decode("ascii")
    else:
        parts.put(scheme.location, scheme.name, secret)


def fill(
    schemes: tuple[SecurityScheme, ...],
    credentials: tuple[Credential, ...],
    sources: Mapping[str, CredentialSource],
    environ: Mapping[str, str],
    parts: RequestParts,
    reveal: Callable[[str, str], None] = lambda name, value: None,
) -> None:
    """Add every scheme's and credential's secret to ``parts`` (see the module docstring for the order).

    ``reveal(name, value)`` is told each secret as it is read (``name``: its environment variable, or its
    configuration key for a provider callable), so that a :class:`~toolkit.runtime.redaction.Redactor` can hide
    it from everything the call outputs.

    Raises :class:`RuntimeConfigError` when a configured source yields nothing or a required credential has
    no source: that is a deployment problem, and the caller turns it into an ``error`` envelope without
    calling the API.
    """
    used = {scheme.key for scheme in schemes}
    filled: set[str] = set()
    for scheme in schemes:
        source = _source(scheme.key, scheme.env, sources, environ)
        if source is not None:
            _put_scheme(scheme, _secret(scheme.key, source, environ, reveal), parts)
            filled.add(scheme.key)
    for credential in credentials:
        by_scheme = credential.scheme is not None and credential.scheme in used
        if by_scheme and credential.key in filled:
            continue
        source = None if by_scheme else _source(credential.key, credential.env, sources, environ)
        if source is not None:
            parts.put(credential.location, credential.name, _secret(credential.key, source, environ, reveal))
        elif credential.required:
            raise RuntimeConfigError(
                f"the {credential.location} {credential.name!r} is a required credential and has no value: export "
                f"{credential.env}=... or set HttpConfig(credentials={{{credential.key!r}: ...}})",
                slug="missing_credential",
            )
