"""Credentials for HTTP tools: from configuration, never from the model.

An OpenAPI ``securityScheme`` becomes a :class:`SecurityScheme` on the tool's contract (and a literal in the
generated module): an API key in a header, query parameter or cookie, or an HTTP bearer / basic token. The
*value* comes from the runtime configuration, keyed by the scheme's name in the spec: either the name of an
environment variable, or a provider callable (for tokens that rotate).
The declaration never shows these, so the model cannot invent a token.
"""

from __future__ import annotations

import base64
from collections.abc import Callable, Mapping

from toolkit._contract import SecurityScheme
from toolkit._exceptions import RuntimeConfigError

__all__ = ["CredentialSource", "SecurityScheme", "apply_credentials"]

CredentialSource = str | Callable[[], str]
"""An environment variable name, or a callable returning the secret (called on every request)."""


def _secret(scheme: SecurityScheme, source: CredentialSource, environ: Mapping[str, str]) -> str:
    value = _raw_secret(scheme, source, environ)
    if not value.isascii() or not value.isprintable():
        raise RuntimeConfigError(
            f"the secret for {scheme.key!r} holds control or non-ASCII characters (a stray newline?); fix its value",
            slug="bad_credential",
        )
    return value


def _raw_secret(scheme: SecurityScheme, source: CredentialSource, environ: Mapping[str, str]) -> str:
    if callable(source):
        value = source()
        if not isinstance(value, str) or not value:
            raise RuntimeConfigError(
                f"the credential provider for {scheme.key!r} returned {type(value).__name__}, not a non-empty "
                "string; make it return the secret text",
                slug="bad_credential_provider",
            )
        return value
    value = environ.get(source, "")
    if not value:
        raise RuntimeConfigError(
            f"credential {scheme.key!r} is configured to come from the environment variable {source!r}, "
            f"which is unset or empty; export {source}=... or pass a provider callable",
            slug="missing_credential",
        )
    return value


def apply_credentials(
    schemes: tuple[SecurityScheme, ...],
    sources: Mapping[str, CredentialSource],
    environ: Mapping[str, str],
    headers: dict[str, str],
    query: list[tuple[str, str]],
    cookies: dict[str, str],
) -> None:
    """Add each configured scheme's secret to the request parts (schemes without a source are skipped).

    Raises :class:`RuntimeConfigError` when a configured source yields nothing: that is a deployment
    problem, and the caller turns it into an ``error`` envelope without calling the API.
    """
    for scheme in schemes:
        if scheme.key not in sources:
            continue
        secret = _secret(scheme, sources[scheme.key], environ)
        if scheme.kind == "bearer":
            headers["Authorization"] = f"Bearer {secret}"
        elif scheme.kind == "basic":
            headers["Authorization"] = "Basic " + base64.b64encode(secret.encode("utf-8")).decode("ascii")
        elif scheme.location == "header":
            headers[scheme.name] = secret
        elif scheme.location == "query":
            query.append((scheme.name, secret))
        else:
            cookies[scheme.name] = secret
