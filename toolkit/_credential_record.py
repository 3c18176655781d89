"""Credentials on a tool: the request parameters a spec declares that the runtime fills and the model never sees.

A :class:`Credential` records one parameter (or body field) taken out of the arguments because it carries a
secret: what it is (``name`` and ``location`` on the wire), why it was taken out (``reason``, one of
:data:`REASONS`, and ``detail`` in words), and where its value comes from at run time: the configuration key
``key`` (``HttpConfig.credentials[key]``: an environment variable name or a provider callable) or, when the
configuration does not name it, the environment variable ``env`` (by default ``<NAMESPACE>_<KEY>``, see
:func:`env_name`). A credential that implements a security scheme the operation uses (``scheme``) is filled
by that scheme, where the scheme says; the others are filled where the spec declared them.

The rule that finds them lives in :mod:`toolkit._openapi._credential_rule`; filling them in
:mod:`toolkit.runtime.credentials`. This module is data only, shared by the contract, the renderers, code
generation and the runtime.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from toolkit._regex import lazy

__all__ = ["REASONS", "Credential", "CredentialLocation", "CredentialReason", "env_name"]

CredentialLocation = Literal["header", "query", "cookie", "body"]

CredentialReason = Literal[
    "security_scheme",
    "auth_header",
    "credential_name",
    "credential_description",
    "bearer_access_token",
    "declared",
]

REASONS: Mapping[str, str] = {
    "security_scheme": "it implements an apiKey security scheme (same name, in any location or letter case)",
    "auth_header": "it is an HTTP header that carries credentials (Authorization, Proxy-Authorization, Cookie)",
    "credential_name": "its name is a credential's (token, api_key, client_secret, ...: a whole-word match)",
    "credential_description": "its description says it is a credential (an API key, an access token, ...)",
    "bearer_access_token": "an access_token query parameter under an oauth2, openIdConnect or bearer scheme",
    "declared": "the overrides or x-agent-tool list it under credentials.secret",
}
"""Why a parameter was taken out of the arguments, with a one-line meaning (what the summary explains)."""

_WORD = lazy(r"[A-Z]*[a-z]+[0-9]*|[A-Z]+[0-9]*(?![a-z])|[0-9]+")
"""Words of a name for an environment variable: ``apiKey`` → api, Key; ``OAuth2Security`` → OAuth2, Security."""


def env_name(namespace: str, key: str) -> str:
    """The default environment variable of a credential: ``<NAMESPACE>_<KEY>`` in upper case, words split.

    ``("orders", "apiKey")`` → ``ORDERS_API_KEY``; ``("slack", "token")`` → ``SLACK_TOKEN``;
    ``("corpus", "X-Auth-Token")`` → ``CORPUS_X_AUTH_TOKEN``. A key with no ASCII word gets a digest of it.
    """
    named = _WORD.findall(key) or ["CREDENTIAL", hashlib.sha256(key.encode()).hexdigest()[:8]]  # no ASCII word
    return "_".join(word.upper() for word in _WORD.findall(namespace) + named)


@dataclass(frozen=True, slots=True)
class Credential:
    """One parameter taken out of a tool's arguments because it carries a secret (see the module docstring)."""

    name: str
    """The parameter's name as the spec spells it (the header, query, cookie or body field name)."""
    location: CredentialLocation
    reason: CredentialReason
    detail: str
    """Why, in words: which scheme, table entry or description made it a credential."""
    env: str
    """The environment variable read when the configuration names no source for ``key``."""
    scheme: str | None = None
    """The security scheme it implements (its name in the spec), if any: its value is that scheme's secret."""
    required: bool = False
    """The spec requires it: a call without a value is refused (``missing_credential``) rather than sent."""

    @property
    def key(self) -> str:
        """The configuration key: the scheme's name when it implements one, else the parameter's name."""
        return self.scheme if self.scheme is not None else self.name

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "location": self.location,
            "reason": self.reason,
            "detail": self.detail,
            "key": self.key,
            "env": self.env,
            "scheme": self.scheme,
            "required": self.required,
        }
