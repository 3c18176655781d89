"""Pinned specs: a lock file beside the specs records each file's sha256 and OpenAPI version.

``specs/specs.lock.json`` maps a file name to ``{"sha256": ..., "openapi": ...}``. Loading a file listed
there whose bytes no longer match fails with :class:`~toolkit.ChecksumMismatch`, naming both digests, so a
spec cannot change under the golden files without a deliberate re-pin (:func:`pin`, ``toolkit pin SPEC``).
The command line reviews such a change instead of refusing it: :func:`stale_pin` says whether a file's pin is
stale, the CLI shows a notice, and ``toolkit golden check`` fails until the file is re-pinned.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolkit._exceptions import ChecksumMismatch, SpecError
from toolkit._openapi._parse import parse_text

__all__ = ["LOCK_NAME", "StalePin", "lock_entry", "pin", "read_lock", "stale_pin", "verify_pinned"]

LOCK_NAME = "specs.lock.json"


def read_lock(directory: Path) -> dict[str, Any]:
    """The lock file's entries (an empty dict when there is no lock file)."""
    lock = directory / LOCK_NAME
    if not lock.is_file():
        return {}
    try:
        entries = json.loads(lock.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise SpecError(
            f"cannot read {lock}: {exc}; fix it, or delete it and re-pin with `toolkit pin SPEC`", slug="bad_lock"
        ) from None
    if not isinstance(entries, dict):
        raise SpecError(f"{lock} must hold a JSON object keyed by file name", slug="bad_lock")
    return entries


@dataclass(frozen=True, slots=True)
class StalePin:
    """A pinned spec whose bytes changed since it was pinned: both digests."""

    path: Path
    pinned: str
    actual: str

    @property
    def message(self) -> str:
        return (
            f"{self.path} changed since it was pinned in {LOCK_NAME} (sha256 {self.pinned} then, {self.actual} now); "
            f"review the change (`toolkit diff --git HEAD {self.path}`), then re-pin it with `toolkit pin {self.path}`"
        )


def stale_pin(path: Path, data: bytes | None = None) -> StalePin | None:
    """The stale pin of ``path`` (its bytes are ``data``, read when not given), or None when the file is not
    pinned or still matches its lock entry."""
    entry = read_lock(path.parent).get(path.name)
    if not isinstance(entry, dict) or "sha256" not in entry:
        return None
    actual = hashlib.sha256(path.read_bytes() if data is None else data).hexdigest()
    return None if actual == entry["sha256"] else StalePin(path, str(entry["sha256"]), actual)


def verify_pinned(path: Path, data: bytes) -> None:
    """Raise :class:`~toolkit.ChecksumMismatch` when ``path`` is pinned and ``data`` is not what was pinned."""
    stale = stale_pin(path, data)
    if stale is not None:
        raise ChecksumMismatch(stale.message)


def lock_entry(path: Path) -> dict[str, str]:
    """The lock entry for one spec file: its sha256 and its ``openapi``/``swagger`` version."""
    data = path.read_bytes()
    root = parse_text(data.decode("utf-8-sig"))
    version = str(root.get("openapi") or root.get("swagger") or "fragment") if isinstance(root, dict) else "?"
    return {"sha256": hashlib.sha256(data).hexdigest(), "openapi": version}


def pin(*paths: Path) -> dict[str, Any]:
    """Record (or refresh) the lock entries of ``paths`` in their directory's lock file; return the lock."""
    if not paths:
        raise SpecError("pinning needs at least one spec path (`toolkit pin SPEC...`)", slug="bad_lock")
    directory = paths[0].parent
    if any(p.parent != directory for p in paths):
        raise SpecError(
            "pinning takes spec files from one folder at a time (each folder has its own lock file)", slug="bad_lock"
        )
    entries = read_lock(directory)
    for path in paths:
        entries[path.name] = lock_entry(path)
    text = json.dumps(dict(sorted(entries.items())), indent=2, sort_keys=True) + "\n"
    (directory / LOCK_NAME).write_text(text, encoding="utf-8")
    return entries
