"""Read an OpenAPI document safely: text (YAML or JSON), a path, or a dict; whole specs or pasted fragments.

Safety rules: YAML is parsed with the safe loader only (no arbitrary tags), alias expansion is bounded (the
expanded size of the node graph is measured before anything is constructed, so a "billion laughs" document
is refused in milliseconds), recursive aliases are refused, integer and boolean mapping keys keep their
source text (``200`` → ``"200"``), and YAML dates stay strings. Documents over :data:`~._parse.MAX_BYTES`, nesting
deeper than the parser can follow and integers longer than 4,000 digits are refused with a
:class:`~toolkit.SpecError`. A dict source is walked once before anything reads it (:mod:`._plain`): it must
hold what JSON text can, with no object cycles.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolkit._exceptions import SpecError
from toolkit._openapi._parse import parse_text, strip_bom
from toolkit._openapi._pin import verify_pinned
from toolkit._openapi._plain import plain_document

__all__ = ["Document", "load_document"]

HTTP_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")


@dataclass(frozen=True, slots=True)
class Document:
    """A parsed OpenAPI document and where it came from.

    ``version`` is the ``openapi``/``swagger`` field (``"fragment"`` for a pasted fragment, read as 3.1);
    ``major`` is ``"2"``, ``"3.0"`` or ``"3.1"`` (3.2 and fragments read as 3.1).
    """

    root: Mapping[str, Any]
    version: str
    major: str
    sha256: str
    path: str | None


# -- sources -----------------------------------------------------------------------------------------------
def _looks_like_path(source: str) -> bool:
    return "\n" not in source and len(source) < 4096 and source.rstrip().endswith((".yaml", ".yml", ".json"))


def _read(source: str | os.PathLike[str] | bytes | Mapping[str, Any]) -> tuple[Any, str, str | None]:
    """Return (parsed value, sha256 of the bytes, path or None)."""
    if isinstance(source, Mapping):
        value = plain_document(source)
        text = json.dumps(value, sort_keys=True)
        return value, hashlib.sha256(text.encode()).hexdigest(), None
    if isinstance(source, os.PathLike) or (isinstance(source, str) and _looks_like_path(source)):
        path = Path(source)
        data = _read_file(path)
        verify_pinned(path, data)
        return parse_text(strip_bom(data)), hashlib.sha256(data).hexdigest(), str(path)
    if isinstance(source, bytes):
        return parse_text(strip_bom(source)), hashlib.sha256(source).hexdigest(), None
    if isinstance(source, str):
        try:
            data = source.encode()
        except UnicodeEncodeError as exc:
            raise SpecError(
                f"the text holds {exc.object[exc.start : exc.end]!r} at character {exc.start}, a lone surrogate "
                "that is not Unicode text; fix the text (or pass the file's bytes)",
                slug="parse_error",
            ) from None
        return parse_text(source), hashlib.sha256(data).hexdigest(), None
    raise SpecError(
        f"cannot read an OpenAPI document from a {type(source).__name__}; pass text, a path or a dict",
        slug="bad_source",
    )


def _read_file(path: Path) -> bytes:
    try:
        if path.is_file():
            return path.read_bytes()
    except OSError as exc:
        raise SpecError(f"cannot read {str(path)[:200]!r}: {exc.strerror or exc}", slug="not_found") from None
    raise SpecError(f"no OpenAPI file at {str(path)[:200]!r}; pass a path, the text, or a dict", slug="not_found")


# -- versions and fragments --------------------------------------------------------------------------------
def _version(root: Mapping[str, Any]) -> tuple[str, str]:
    if "swagger" in root:
        version = str(root["swagger"])
        if version.startswith("2."):
            return version, "2"
        raise SpecError(f"swagger {version!r} is not supported; use Swagger 2.0 or OpenAPI 3.x", slug="bad_version")
    version = str(root["openapi"])
    if version.startswith("3.0"):
        return version, "3.0"
    if version.startswith(("3.1", "3.2")):
        return version, "3.1"
    raise SpecError(f"openapi {version!r} is not supported; use 3.0.x, 3.1.x, 3.2.x or Swagger 2.0", slug="bad_version")


def _as_fragment(root: Mapping[str, Any]) -> dict[str, Any] | None:
    """Wrap a pasted fragment into a document: ``paths`` (+ ``components``), a paths map, or one path item."""
    if "paths" in root:
        return dict(root)
    if root and all(isinstance(k, str) and k.startswith("/") for k in root):
        return {"paths": dict(root)}
    if any(k in root for k in HTTP_METHODS):
        return {"paths": {"/": dict(root)}}
    return None


_KINDS = {"NoneType": "empty", "list": "a list", "str": "a plain string", "int": "a number", "float": "a number"}


def load_document(source: str | os.PathLike[str] | bytes | Mapping[str, Any]) -> Document:
    """Parse ``source`` into a :class:`Document`, or raise :class:`~toolkit.SpecError` saying why not
    (a message about a file starts with its path)."""
    try:
        return _document(source)
    except SpecError as error:
        path = (
            str(source)
            if isinstance(source, os.PathLike) or (isinstance(source, str) and _looks_like_path(source))
            else None
        )
        if path is None or path in error.message:
            raise
        raise type(error)(f"{path}: {error.message}", slug=error.slug) from None


def _document(source: str | os.PathLike[str] | bytes | Mapping[str, Any]) -> Document:
    value, digest, path = _read(source)
    if not isinstance(value, Mapping):
        kind = _KINDS.get(type(value).__name__, f"a {type(value).__name__}")
        raise SpecError(
            f"the document is {kind}; an OpenAPI document is a mapping with `openapi` and `paths` at the top",
            slug="not_a_mapping",
        )
    if "openapi" in value or "swagger" in value:
        version, major = _version(value)
        root: Mapping[str, Any] = value
    else:
        fragment = _as_fragment(value)
        if fragment is None:
            raise SpecError(
                "this is not an OpenAPI document or fragment: expected an `openapi`/`swagger` field, a `paths` "
                "map (with optional `components`), a map of paths, or one path item with HTTP methods",
                slug="not_openapi",
            )
        version, major, root = "fragment", "3.1", fragment
    if not isinstance(root.get("paths", {}), Mapping):
        raise SpecError("`paths` must be a mapping of path templates to path items", slug="bad_paths")
    return Document(root=root, version=version, major=major, sha256=digest, path=path)
