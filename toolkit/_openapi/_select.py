"""Choose which operations become tools, before anything is resolved.

An operation is selected when it carries ``x-agent-tool`` (``true`` or ``{name, description, confirm,
credentials}``), when the overrides side file names it, or always with ``select="all"``. Selection only peeks at
each operation's own keys, so one tool from a 1,000-operation document costs one operation's work.
Deprecated operations are skipped (recorded with the slug ``deprecated``) unless ``include_deprecated``.

The overrides name an operation by its operationId, or by its **location**, ``"METHOD /path"`` (the method
in any case, the path as the document writes it: ``"GET /api/v1/cluster-info": true``), whose options win
over the operationId's. Operations that share an operationId are refused (``duplicate_operation_id``) unless
the overrides name some of them by location: those are built (each needs its own tool name: two with the
same one are a ``name_collision``, so rename one with ``name``), the others are left out with that slug and a
message naming the kept ones. The refusal says when the mounts are the same operation (the same parameters
and request body: a gateway serving one call under two prefixes) and gives the entry to write.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from toolkit._contract import Policy
from toolkit._exceptions import SpecError
from toolkit._openapi._credential_rule import CredentialOptions, credential_options
from toolkit._openapi._definitions import Resolver
from toolkit._openapi._load import HTTP_METHODS
from toolkit._openapi._parse import parse_text
from toolkit._openapi._plain import plain_document
from toolkit._openapi._refusal import Refusal, RefusalSlug
from toolkit._tool import Rejection

__all__ = ["Candidate", "Options", "Selection", "load_overrides", "override_key", "select_operations"]

_OPTION_KEYS = frozenset({"name", "description", "confirm", "policy", "domain", "credentials"})
_LOCATION = re.compile(rf"({'|'.join(HTTP_METHODS)})[ \t]+(/.*)", re.IGNORECASE | re.DOTALL)
"""An overrides key that names an operation by its method and path (``"GET /items/{id}"``)."""


@dataclass(frozen=True, slots=True)
class Options:
    """What the extension and the overrides say about one operation (overrides win)."""

    name: str | None = None
    description: str | None = None
    confirm: bool | None = None
    policy: Policy | None = None
    domain: tuple[Mapping[str, Any], ...] = ()
    credentials: CredentialOptions = field(default_factory=CredentialOptions)


@dataclass(frozen=True, slots=True)
class Candidate:
    """A selected operation, not yet resolved."""

    method: str
    path: str
    operation: Mapping[str, Any]
    path_item: Mapping[str, Any]
    options: Options

    @property
    def operation_id(self) -> str | None:
        value = self.operation.get("operationId")
        return value if isinstance(value, str) and value else None

    @property
    def location(self) -> str:
        """``"METHOD /path"``: how the overrides name this operation by where it is mounted."""
        return f"{self.method} {self.path}"

    def reject(self, slug: RefusalSlug, message: str) -> Rejection:
        return Rejection(self.operation_id, self.method, self.path, slug, message)


@dataclass(frozen=True, slots=True)
class Selection:
    candidates: tuple[Candidate, ...]
    rejected: tuple[Rejection, ...]
    total: int


def load_overrides(overrides: Any) -> dict[str, Options]:
    """Read the overrides side file (a dict, YAML/JSON text, or a path) into options keyed by operationId, or by
    location (``"METHOD /path"``, the method upper-cased)."""
    if overrides is None:
        return {}
    if isinstance(overrides, (str, os.PathLike)):
        is_path = isinstance(overrides, os.PathLike) or _is_file(overrides)
        overrides = parse_text(_read_overrides(Path(overrides)) if is_path else str(overrides))
    if not isinstance(overrides, Mapping):
        raise SpecError("overrides must map operationIds to options (or to true)", slug="bad_overrides")
    try:
        overrides = plain_document(overrides)  # what JSON can hold: no cycles, huge ints, raising objects
    except SpecError as exc:
        raise SpecError(f"overrides: {exc.message}", slug="bad_overrides") from None
    return {override_key(str(op_id)): _options(value, f"overrides[{op_id!r}]") for op_id, value in overrides.items()}


def override_key(key: str) -> str:
    """An overrides key (or ``--op``) as selection looks it up: a location with its method upper-cased, else as
    written."""
    found = _LOCATION.fullmatch(key)
    return f"{found.group(1).upper()} {found.group(2)}" if found else key


def _read_overrides(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise SpecError(f"cannot read the overrides file {str(path)[:200]!r}: {exc}", slug="bad_overrides") from None


def _shown(value: Any) -> str:
    return repr(value)[:80] if isinstance(value, str) else f"a {type(value).__name__}"


def _is_file(text: str) -> bool:
    try:
        return "\n" not in text and Path(text).is_file()
    except (OSError, ValueError):  # far too long for a path, or a NUL byte: it is text
        return False


def _options(value: Any, where: str) -> Options:
    if value is True or value is None:
        return Options()
    if not isinstance(value, Mapping):
        raise SpecError(f"{where} must be true or a mapping of {sorted(_OPTION_KEYS)}", slug="bad_overrides")
    unknown = set(value) - _OPTION_KEYS
    if unknown:
        raise SpecError(f"{where} has unknown keys {sorted(unknown)}; use {sorted(_OPTION_KEYS)}", slug="bad_overrides")
    for key in ("name", "description"):
        if key in value and not isinstance(value[key], str):
            raise SpecError(f"{where}.{key} must be a string", slug="bad_overrides")
    if "confirm" in value and not isinstance(value["confirm"], bool):
        raise SpecError(f"{where}.confirm must be true or false", slug="bad_overrides")
    domain = value.get("domain") or ()
    if not isinstance(domain, (list, tuple)):
        raise SpecError(f"{where}.domain must be a list of rules", slug="bad_overrides")
    return Options(
        value.get("name"),
        value.get("description"),
        value.get("confirm"),
        _policy(value, where),
        tuple(domain),
        credential_options(value.get("credentials"), where),
    )


def _policy(value: Mapping[str, Any], where: str) -> Policy | None:
    raw = value.get("policy")
    if raw is None:
        return None
    allowed = {
        "enum_case": ("strict", "insensitive"),
        "null_optional": ("absent", "reject"),
        "clamp": (None, True, False),
        "declaration_budget": (),  # a positive integer of bytes
    }
    if not isinstance(raw, Mapping) or not set(raw) <= set(allowed):
        raise SpecError(f"{where}.policy must be a mapping with keys among {sorted(allowed)}", slug="bad_overrides")
    for key, choice in raw.items():
        if key == "declaration_budget":
            if isinstance(choice, bool) or not isinstance(choice, int) or choice <= 0:
                raise SpecError(f"{where}.policy.{key} must be a positive number of bytes", slug="bad_overrides")
        elif choice not in allowed[key] or (key != "clamp" and not isinstance(choice, str)):
            raise SpecError(f"{where}.policy.{key} must be one of {allowed[key]}", slug="bad_overrides")
    return Policy(**raw)


def _extension(operation: Mapping[str, Any], where: str) -> Options | None:
    """The operation's ``x-agent-tool`` as options; ``None`` when absent or false. A bad shape is ignored,
    except in ``credentials``: a secret left in the arguments is worse than a build that stops (``bad_overrides``)."""
    ext = operation.get("x-agent-tool")
    if ext is None or ext is False:
        return None
    if not isinstance(ext, Mapping):
        return Options()
    name, description, confirm = ext.get("name"), ext.get("description"), ext.get("confirm")
    return Options(
        name if isinstance(name, str) else None,
        description if isinstance(description, str) else None,
        confirm if isinstance(confirm, bool) else None,
        credentials=credential_options(ext.get("credentials"), where),
    )


def _merge(ext: Options | None, override: Options | None) -> Options:
    if override is None:
        return ext or Options()
    if ext is None:
        return override
    return Options(
        override.name or ext.name,
        override.description or ext.description,
        override.confirm if override.confirm is not None else ext.confirm,
        override.policy if override.policy is not None else ext.policy,
        override.domain or ext.domain,
        override.credentials or ext.credentials,
    )


def _operations(root: Mapping[str, Any], resolver: Resolver, rejected: list[Rejection]) -> list[Candidate]:
    """Every (method, path, operation) in the document, options not yet decided. A path item or an operation
    written as a ``$ref`` is followed when it is local; one to another document (an unbundled spec's
    ``get: {$ref: paths/x.yml}``) is refused with the reader's slug (``remote_ref``), naming the reference,
    whatever the selection: what it would opt in cannot be read."""
    found: list[Candidate] = []
    paths = root.get("paths") or {}
    for path, raw_item in paths.items():
        try:
            item = resolver.deref(raw_item)
        except Refusal as refusal:
            rejected.append(Rejection(None, "", str(path), refusal.slug, f"path item: {refusal.message}"))
            continue
        if not isinstance(item, dict):
            continue
        for method in HTTP_METHODS:
            operation = item.get(method)
            if operation.__class__ is dict and "$ref" in operation:
                try:
                    operation = resolver.deref(operation)
                except Refusal as refusal:
                    where = (None, method.upper(), str(path), refusal.slug, f"operation: {refusal.message}")
                    rejected.append(Rejection(*where))
                    continue
            if isinstance(operation, dict):
                found.append(Candidate(method.upper(), str(path), operation, item, Options()))
    return found


def select_operations(
    root: Mapping[str, Any],
    resolver: Resolver,
    *,
    select: str,
    overrides: Mapping[str, Options],
    include_deprecated: bool,
) -> Selection:
    """Pick the operations to build, and refuse duplicates and deprecated ones up front."""
    if not isinstance(select, str) or select not in ("extension", "all"):
        raise SpecError(f"select={_shown(select)}: use 'extension' (opted-in operations) or 'all'", slug="bad_select")
    rejected: list[Rejection] = []
    every = _operations(root, resolver, rejected)
    mounts: dict[str, list[Candidate]] = {}
    for op in every:
        if op.operation_id:
            mounts.setdefault(op.operation_id, []).append(op)
    chosen: list[Candidate] = []
    for op in every:
        label = f"x-agent-tool of {op.operation_id or op.location}"
        ext, here = _extension(op.operation, label), overrides.get(op.location)
        by_id = overrides.get(op.operation_id or "")
        if select == "extension" and ext is None and by_id is None and here is None:
            continue
        op = replace(op, options=_merge(_merge(ext, by_id), here))
        same = mounts[op.operation_id] if op.operation_id else ()
        if len(same) > 1 and here is None:
            rejected.append(op.reject("duplicate_operation_id", _duplicate(op, same, overrides)))
        elif op.operation.get("deprecated") is True and not include_deprecated:
            rejected.append(op.reject("deprecated", "deprecated operation skipped; pass include_deprecated=True"))
        else:
            chosen.append(op)
    rejected += _unknown(overrides, mounts, {op.location for op in every})
    return Selection(tuple(chosen), tuple(rejected), len(every))


def _duplicate(op: Candidate, mounts: Sequence[Candidate], overrides: Mapping[str, Options]) -> str:
    """Why ``op`` is refused for sharing its operationId with ``mounts``, and the overrides entry that builds it."""
    others = ", ".join(m.location for m in mounts if m.location != op.location)
    kept = [m.location for m in mounts if m.location in overrides]
    if kept:
        return (
            f"operationId {op.operation_id!r} is also {others}; left out: the overrides keep {', '.join(kept)}. To "
            f'build this one too, name it by location with its own tool name: "{op.location}": {{name: ...}}'
        )
    twins = [m for m in mounts if _signature(m) == _signature(op)]
    if len(twins) > 1:
        again = " and ".join(m.location for m in twins if m.location != op.location)
        return (
            f"operationId {op.operation_id!r} is also {others}; {again} is this same operation mounted again (the "
            "same parameters and body): keep one by naming it by method and path in the overrides, "
            f'"{twins[0].location}": true'
        )
    return (
        f"operationId {op.operation_id!r} is also {others}: name the mounts to build by method and path in the "
        f'overrides, "{op.location}": true, each with its own tool name when several are kept '
        f'("{op.location}": {{name: ...}})'
    )


def _signature(op: Candidate) -> tuple[Any, ...]:
    """What a call to the operation sends: the path item's and the operation's parameters, and the body."""
    return (op.path_item.get("parameters"), op.operation.get("parameters"), op.operation.get("requestBody"))


def _unknown(
    overrides: Mapping[str, Options], mounts: Mapping[str, Sequence[Candidate]], locations: set[str]
) -> list[Rejection]:
    """The overrides entries that name no operation of the document (``unknown_operation``)."""
    refused: list[Rejection] = []
    for key in overrides:
        found = _LOCATION.fullmatch(key)
        if found is not None and key not in locations:
            message = f"no operation at {key}: name an operation by its method and the path as the document writes it"
            refused.append(Rejection(None, found.group(1), found.group(2), "unknown_operation", message))
        elif found is None and key not in mounts:
            refused.append(Rejection(key, "", "", "unknown_operation", f"no operation has operationId {key!r}"))
    return refused
