"""The credential rule: which declared parameters carry a secret, so they never become arguments.

A parameter (or a top-level body field) is a credential when, first match wins:

1. ``security_scheme``: its name is a security scheme's (an apiKey scheme's ``name``, or a scheme's own key
   in the spec), compared trimmed and in any letter case, **in any location** (a key declared in the query
   although the scheme says header is still the key);
2. ``auth_header``: it is the ``Authorization``, ``Proxy-Authorization`` or ``Cookie`` header;
3. ``bearer_access_token``: it is ``access_token`` in the query (or a body) of an operation secured by an
   oauth2, openIdConnect or HTTP bearer scheme (RFC 6750's query form of the same token);
4. ``credential_name``: its name is in :data:`TABLE`, matched on **whole words** (``X-API-Key``, ``apiKey``
   and ``api_key`` are one name; ``token_count`` and ``page_token`` are not ``token``). Headers match on their
   last words too (``X-Vault-Token``, ``X-Shopify-Access-Token``), query and cookie names only on a
   ``strong`` entry's last words (``user_access_token``), never after a paging word (``next_page_token``).
   Body fields match whole ``strong`` names only: a ``password`` or ``token`` field of a JSON or form body is
   usually data (a SIP password to set, a token to revoke);
5. ``credential_description``: its description starts by calling it a credential ("Authentication token.",
   "Your API key", "An optional access token that ...").

Rules 3 to 5 guess, so they take only values that can be a secret: a string, or a value of no declared type
(an object named ``client_secret`` is the configuration of one, not one). A name that is a credential word in
the plural (``access_tokens``, ``api_keys``) holds several: it also takes an array of them, or an object whose
values are them (``{"openai": "sk-..."}``), or an array of objects with a credential field (``[{token: ...}]``).

Rules 4 and 5 read intent: a name that only *mentions* a credential is not one. A word beside the credential
word that makes the name about it (:data:`MENTIONS`: ``key_alias``, ``refresh_interval``, ``token_ttl``,
``api_key_hash``, ``token_count``, ``api_key_id``, ``changed_by_api_key``) keeps it an argument, and so does a
description that starts by calling it a filter or an identifier, a hash or an alias of one ("Filter by the
hash of the API key ...").

Path parameters are never credentials (they name resources: an invite's token, an API key's id). An author
overrides a false positive per operation with ``credentials: {keep: [name, ...]}`` in the overrides or the
``x-agent-tool`` extension, and adds one the rule misses with ``credentials: {secret: [name, ...]}``
(:func:`credential_options` reads and checks that value). The rule also recognises an idempotency key
(:func:`is_idempotency_key`), which the runtime fills from the ledger instead.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from toolkit._contract import SecurityScheme
from toolkit._credential_record import Credential, CredentialLocation, CredentialReason, env_name
from toolkit._exceptions import SpecError
from toolkit._openapi._security import defined_schemes

__all__ = [
    "MENTIONS",
    "TABLE",
    "CredentialOptions",
    "DocumentCredentials",
    "OperationCredentials",
    "Verdict",
    "classify",
    "credential_options",
    "document_credentials",
    "is_idempotency_key",
    "words",
]

Tier = Literal["strong", "weak"]

TABLE: Mapping[str, Tier] = {
    # weak: a credential in a header, query or cookie; data in a body unless its description says otherwise
    "token": "weak",
    "secret": "weak",
    "password": "weak",
    "passwd": "weak",
    # strong: a credential wherever it appears (except a path)
    "apikey": "strong",
    "apitoken": "strong",
    "apisecret": "strong",
    "appsecret": "strong",
    "accesstoken": "strong",
    "refreshtoken": "strong",
    "idtoken": "strong",
    "authtoken": "strong",
    "bearertoken": "strong",
    "oauthtoken": "strong",
    "sessiontoken": "strong",
    "clientsecret": "strong",
    "secretkey": "strong",
    "privatekey": "strong",
    "subjecttoken": "strong",
    "actortoken": "strong",
}
"""Credential names, as their words joined in lower case (``api_key``, ``apiKey``, ``X-API-Key`` → ``apikey``)."""

MENTIONS = frozenset(
    {
        "alias", "interval", "ttl", "hash", "hashed", "count", "counts", "id", "ids", "uuid", "name", "names",
        "prefix", "suffix", "last", "expiry", "expires", "expiration", "expired", "lifetime", "duration", "age",
        "type", "types", "length", "scope", "scopes", "owner", "by", "status", "enabled", "required", "rotation",
        "limit", "max", "min", "timeout", "format", "hint", "label", "created", "updated", "changed", "at",
    }
)  # fmt: skip
"""Words that make a name *about* a credential rather than one (``key_alias``, ``changed_by_api_key``)."""

_NOT_BEFORE = frozenset({"page", "next", "continuation", "sync", "cursor", "pagination", "poll", "resume"})
"""Words that make a following ``token`` a position in a listing, not a secret (``next_page_token``)."""

_AUTH_HEADERS = {"authorization": "Authorization", "proxy-authorization": "Proxy-Authorization", "cookie": "Cookie"}
_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")
_IDEMPOTENCY = frozenset({"idempotencykey"})
_DESCRIBED = re.compile(
    r"\W*(?:(?:the|your|a|an|optional|valid|user'?s?|app'?s?)\s+)*"
    r"(?:authentication|authorization|auth|access|api|bearer|oauth\s?2?(?:\.0)?|session|refresh|client)"
    r"\s+(?:token|key|secret)(?!['’]s)\b"
    r"(?!\s*(?:ids?|identifiers?|names?|types?|hints?|prefix(?:es)?|counts?|expir\w*|scopes?|owners?)\b)",
    re.IGNORECASE,
)
_DESCRIPTION_HEAD = 160
_ABOUT = re.compile(
    r"\W*(?:(?:the|a|an|optional|only)\s+)*(?:filters?|filtering|filtered|identifiers?|hash(?:es|ed)?|alias(?:es)?)\b",
    re.IGNORECASE,
)


@functools.lru_cache(maxsize=4096)  # a document repeats its parameter names across many operations
def words(name: str) -> tuple[str, ...]:
    """The lower-case words of a name: split at separators and camelCase (``X-APIKey`` → ``x, api, key``)."""
    return tuple(word.lower() for word in _WORD.findall(name))


@dataclass(frozen=True, slots=True)
class Verdict:
    """Why one parameter is a credential, and the scheme whose secret it carries (if any)."""

    reason: CredentialReason
    detail: str
    scheme: str | None = None


@dataclass(frozen=True, slots=True)
class DocumentCredentials:
    """What one document says about credentials: scheme names and keys, trimmed and lower-cased."""

    names: Mapping[str, str]
    """Lower-cased apiKey scheme ``name`` (or any scheme's key) → the scheme's key in the spec."""
    described: Mapping[str, str]
    """The same keys → how the scheme declares them, for the detail text."""
    verdicts: dict[tuple[Any, ...], Verdict | None] = field(default_factory=dict, compare=False, repr=False)
    """:func:`classify`'s verdicts so far, by what they depend on (a document repeats its parameters)."""

    def verdict(
        self, name: str, location: str, description: Any, bearer: SecurityScheme | None, schema: Any
    ) -> Verdict | None:
        """:func:`classify` of one parameter or body field, once per name, location, description, bearer scheme
        and whether its values can be text or hold several texts (all that the verdict reads)."""
        text = description if isinstance(description, str) else None
        key = (name, location, text, bearer, _textual(schema), _holds_several(schema))
        try:
            return self.verdicts[key]
        except KeyError:
            found = self.verdicts[key] = classify(self, name, location, description, bearer, schema)
            return found


def document_credentials(root: Mapping[str, Any]) -> DocumentCredentials:
    """Read the document's security schemes once (OpenAPI 3 or Swagger 2.0)."""
    names: dict[str, str] = {}
    described: dict[str, str] = {}
    for raw_key, scheme in defined_schemes(root).items():
        key = str(raw_key).strip()
        if not isinstance(scheme, Mapping):
            continue
        kind = str(scheme.get("type", "")).strip()
        name = scheme.get("name")
        if kind.lower() == "apikey" and isinstance(name, str) and name.strip():
            where = str(scheme.get("in", "")).strip().lower() or "?"
            names.setdefault(name.strip().lower(), key)
            described.setdefault(name.strip().lower(), f"apiKey scheme {key!r} ({where} {name.strip()!r})")
        if key:
            names.setdefault(key.lower(), key)
            described.setdefault(key.lower(), f"{kind or 'security'} scheme {key!r} (its key in the spec)")
    return DocumentCredentials(names, described)


def _table_match(tokens: tuple[str, ...], location: str) -> tuple[str, bool] | None:
    """The table entry the name's words make, by the location's rule (see the module docstring), and whether the
    name holds it in the plural; ``None`` when no entry matches or a word beside it is a :data:`MENTIONS` word."""
    if tokens[:1] == ("x",) and len(tokens) > 1:
        tokens = tokens[1:]
    for start in range(len(tokens)):
        if start and location == "body":
            return None
        tail = "".join(tokens[start:])
        plural = tail not in TABLE and tail.endswith("s") and tail[:-1] in TABLE
        entry = tail[:-1] if plural else tail
        tier = TABLE.get(entry)
        if tier is None or (start and tokens[start - 1] in _NOT_BEFORE):
            continue
        if location == "body" and tier != "strong":
            return None
        if start and location != "header" and tier != "strong":
            continue
        return None if MENTIONS.intersection(tokens[:start]) else (entry, plural)
    return None


def _described(description: Any) -> str | None:
    return _described_text(description) if isinstance(description, str) else None


@functools.lru_cache(maxsize=4096)
def _described_text(description: str) -> str | None:
    found = _DESCRIBED.match(description[:_DESCRIPTION_HEAD])
    return found.group(0).strip(" \t\n.:,;") if found else None


def _textual(schema: Any) -> bool:
    """A schema whose values can be a secret's text: a string, or a schema that declares no type."""
    kind = schema.get("type") if isinstance(schema, Mapping) else None
    return kind is None or kind == "string" or (isinstance(kind, list) and "string" in kind)


def _holds_several(schema: Any) -> bool:
    """An array of texts (or of objects with a credential field), or an object whose values are texts."""
    if not isinstance(schema, Mapping):
        return False
    kind = schema.get("type")
    if kind == "array":
        items = schema.get("items")
        return _textual(items) or _has_credential_field(items)
    if kind == "object":
        values = schema.get("additionalProperties")
        fields = schema.get("properties")
        texts = isinstance(fields, Mapping) and bool(fields) and all(_textual(sub) for sub in fields.values())
        return (isinstance(values, Mapping) and _textual(values)) or texts or _has_credential_field(schema)
    return False


def _has_credential_field(schema: Any) -> bool:
    fields = schema.get("properties") if isinstance(schema, Mapping) else None
    return isinstance(fields, Mapping) and any(
        _textual(sub) and (found := _table_match(words(str(name)), "header")) is not None and not found[1]
        for name, sub in fields.items()
    )


def _mentions(name: str) -> bool:
    """The name's words hold a :data:`MENTIONS` word: it is about a credential, not one."""
    return not MENTIONS.isdisjoint(words(name))


def classify(
    doc: DocumentCredentials,
    name: str,
    location: str,
    description: Any,
    bearer: SecurityScheme | None,
    schema: Any = None,
) -> Verdict | None:
    """The verdict for one parameter or body field (``location``: header, query, cookie or body), or ``None``.

    ``bearer`` is the first oauth2, openIdConnect or HTTP bearer scheme the operation uses, if any; ``schema``
    the parameter's or field's schema (a Swagger 2.0 parameter holds its own ``type``).
    """
    if location == "path":
        return None
    lowered = name.strip().lower()
    key = doc.names.get(lowered)
    if key is not None:
        return Verdict("security_scheme", f"named like the {doc.described[lowered]}", key)
    if location == "header" and lowered in _AUTH_HEADERS:
        scheme = bearer.key if bearer is not None and lowered == "authorization" else None
        return Verdict("auth_header", f"the {_AUTH_HEADERS[lowered]} header carries credentials", scheme)
    textual = _textual(schema)
    if textual and lowered == "access_token" and location in ("query", "body") and bearer is not None:
        said = f"the {location} form of the bearer token (RFC 6750) of the scheme {bearer.key!r}"
        return Verdict("bearer_access_token", said, bearer.key)
    if isinstance(description, str) and _ABOUT.match(description[:_DESCRIPTION_HEAD]):
        return None  # "Filter by the hash of the API key": about a key, not one
    match = _table_match(words(name), location)
    if match is not None and (textual or (match[1] and _holds_several(schema))):
        entry, plural = match
        said = f"the name is the credential word {entry!r}" + (" in the plural (several of them)" if plural else "")
        return Verdict("credential_name", said)
    called = _described(description) if textual and not _mentions(name) else None
    if called is not None:
        return Verdict("credential_description", f"its description calls it {called!r}")
    return None


@functools.lru_cache(maxsize=4096)
def is_idempotency_key(name: str, location: str) -> bool:
    """``Idempotency-Key`` (or ``X-Idempotency-Key``, ``IdempotencyKey``) in a header, query or body."""
    tokens = words(name)
    if tokens[:1] == ("x",):
        tokens = tokens[1:]
    return location != "path" and "".join(tokens) in _IDEMPOTENCY


# -- the author's word ---------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class CredentialOptions:
    """An operation's ``credentials`` option: names (lower-cased) to ``keep`` as arguments or to treat as
    a ``secret`` although the rule does not catch them."""

    keep: frozenset[str] = frozenset()
    secret: frozenset[str] = frozenset()

    def __bool__(self) -> bool:
        return bool(self.keep or self.secret)


_OPTION_KEYS = ("keep", "secret")


def credential_options(value: Any, where: str) -> CredentialOptions:
    """Read ``{keep: [name, ...], secret: [name, ...]}`` (both optional); a wrong shape is ``bad_overrides``."""
    if value is None:
        return CredentialOptions()
    if not isinstance(value, Mapping) or not set(value) <= set(_OPTION_KEYS):
        raise SpecError(
            f"{where}.credentials must be a mapping with keys among {list(_OPTION_KEYS)}, each a list of parameter "
            "names, e.g. {keep: [page_token]} (an argument the rule took for a credential) or {secret: [sid]}",
            slug="bad_overrides",
        )
    lists: dict[str, frozenset[str]] = {}
    for key in _OPTION_KEYS:
        names = value.get(key) or []
        if not isinstance(names, list) or not all(isinstance(n, str) and n.strip() for n in names):
            raise SpecError(f"{where}.credentials.{key} must be a list of parameter names", slug="bad_overrides")
        lists[key] = frozenset(n.strip().lower() for n in names)
    both = lists["keep"] & lists["secret"]
    if both:
        raise SpecError(f"{where}.credentials lists {sorted(both)} under both keep and secret", slug="bad_overrides")
    return CredentialOptions(lists["keep"], lists["secret"])


# -- one operation -------------------------------------------------------------------------------------
@dataclass(slots=True)
class OperationCredentials:
    """Collects one operation's credentials and idempotency key while it is flattened (mutable only there)."""

    doc: DocumentCredentials
    namespace: str
    schemes: tuple[SecurityScheme, ...] = ()
    options: CredentialOptions = field(default_factory=CredentialOptions)
    found: list[Credential] = field(default_factory=list)
    idempotency_key: str | None = None
    used: set[str] = field(default_factory=set)

    @property
    def bearer(self) -> SecurityScheme | None:
        return next((s for s in self.schemes if s.kind == "bearer"), None)

    def take(
        self, name: str, location: CredentialLocation, description: Any, *, required: bool, schema: Any = None
    ) -> bool:
        """Whether the runtime fills this parameter (then it is recorded here) rather than the model."""
        lowered = name.strip().lower()
        if lowered in self.options.keep:
            self.used.add(lowered)
            return False
        if self.idempotency_key is None and is_idempotency_key(name, location):
            self.idempotency_key = f"{location}.{name}"
            return True
        verdict = self.doc.verdict(name, location, description, self.bearer, schema)
        if lowered in self.options.secret:
            self.used.add(lowered)
            verdict = verdict or Verdict("declared", "the author lists it under credentials.secret")
        if verdict is None:
            return False
        env = env_name(self.namespace, verdict.scheme if verdict.scheme is not None else name)
        self.found.append(Credential(name, location, verdict.reason, verdict.detail, env, verdict.scheme, required))
        return True

    def check(self, where: str) -> None:
        """Every name the author listed met a parameter: a stale ``keep`` or ``secret`` entry is an error."""
        stale = sorted((self.options.keep | self.options.secret) - self.used)
        if stale:
            raise SpecError(
                f"{where}: credentials lists {stale}, which the operation does not declare as a header, query, "
                "cookie or body field; fix the name or drop the entry",
                slug="bad_overrides",
            )
