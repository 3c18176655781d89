"""Credentials for HTTP tools: from configuration, never from the model.

An OpenAPI ``securityScheme`` becomes a :class:`SecurityScheme` in the generated module (API key in a header
or query parameter, or an HTTP bearer / basic token). The *value* comes from the runtime configuration,
keyed by the scheme's name in the spec: either the name of an environment variable, or a provider callable
(for tokens that rotate). The declaration never shows these, so the model cannot invent a token.
"""

from __future__ import annotations

import base64
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from toolkit._exceptions import RuntimeConfigError

__all__ = ["CredentialSource", "SecurityScheme", "apply_credentials", "schemes_from_spec"]

CredentialSource = str | Callable[[], str]
"""An environment variable name, or a callable returning the secret (called on every request)."""


@dataclass(frozen=True, slots=True)
class SecurityScheme:
    """Where one credential goes: ``kind`` api_key (``location`` header/query/cookie, ``name``) or bearer/basic."""

    key: str
    kind: Literal["api_key", "bearer", "basic"]
    location: Literal["header", "query", "cookie"] = "header"
    name: str = "Authorization"


def _scheme(key: str, raw: Mapping[str, Any]) -> SecurityScheme | None:
    kind = str(raw.get("type", "")).lower()
    if kind == "apikey" and raw.get("in") in ("header", "query", "cookie") and isinstance(raw.get("name"), str):
        return SecurityScheme(key=key, kind="api_key", location=raw["in"], name=raw["name"])
    scheme = str(raw.get("scheme", "")).lower()
    if kind == "http" and scheme in ("bearer", "basic"):
        return SecurityScheme(key=key, kind=scheme)  # type: ignore[arg-type]
    if kind == "basic":  # Swagger 2.0
        return SecurityScheme(key=key, kind="basic")
    if kind in ("oauth2", "openidconnect"):
        return SecurityScheme(key=key, kind="bearer")
    return None


def schemes_from_spec(document: Mapping[str, Any], method: str, path: str) -> tuple[SecurityScheme, ...]:
    """The schemes one operation uses: its own ``security`` or the document's, first alternative only.

    Only the first requirement object is used (OpenAPI lists alternatives); unsupported scheme types
    (mutual TLS, ...) are skipped. Swagger 2.0 ``securityDefinitions`` are read too.
    """
    components = document.get("components")
    defined = components.get("securitySchemes") if isinstance(components, Mapping) else None
    if not isinstance(defined, Mapping):
        defined = document.get("securityDefinitions")
    if not isinstance(defined, Mapping):
        return ()
    operation: Any = {}
    paths = document.get("paths")
    if isinstance(paths, Mapping) and isinstance(paths.get(path), Mapping):
        operation = paths[path].get(method.lower(), {})
    requirements = operation.get("security") if isinstance(operation, Mapping) else None
    if requirements is None:
        requirements = document.get("security")
    if not isinstance(requirements, list) or not requirements or not isinstance(requirements[0], Mapping):
        return ()
    out: list[SecurityScheme] = []
    for key in sorted(requirements[0]):
        raw = defined.get(key)
        if isinstance(raw, Mapping) and (found := _scheme(str(key), raw)) is not None:
            out.append(found)
    return tuple(out)


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
