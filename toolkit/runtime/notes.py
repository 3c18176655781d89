"""Outcomes a claim holder could not write into the ledger, kept beside it until someone can.

When the ledger stays locked (or breaks) between an effect and its completion record, the holder must not lose
the receipt, and the claim must not look "in progress" for ever. The holder keeps a :class:`Note` — the effect
was ``applied`` (with its receipt), was ``not_applied``, or its outcome is ``unknown`` — as one JSON file per
claim in ``<ledger file>.unrecorded/<key>.<token>.json`` (written to a temporary name, then renamed). If that
folder cannot be written either, the note stays in this process's memory. The next call that meets the claim,
in any process, applies the note to the ledger and deletes it; :func:`~toolkit.runtime.reconcile_pending` does
the same.
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Literal

__all__ = ["NOTES_SUFFIX", "Note", "Notes", "Outcome"]

NOTES_SUFFIX = ".unrecorded"
"""Appended to the ledger file's name to get the folder of side notes."""

Outcome = Literal["applied", "not_applied", "unknown"]

_MEMORY: dict[tuple[str, str, str], Note] = {}
_MEMORY_LOCK = threading.Lock()


@dataclass(frozen=True, slots=True)
class Note:
    """What became of one claim (``key``, ``token``) while the ledger could not be written."""

    key: str
    token: str
    tool: str
    outcome: Outcome
    receipt: Any = None
    at: float = 0.0


class Notes:
    """The side notes of one ledger file."""

    def __init__(self, ledger_path: Path) -> None:
        self.folder = ledger_path.with_name(ledger_path.name + NOTES_SUFFIX)
        self._scope = str(ledger_path.absolute())

    def _file(self, key: str, token: str) -> Path:
        return self.folder / f"{key}.{token}.json"

    def keep(self, note: Note) -> str:
        """Write ``note`` to its side file (or keep it in memory) and say where it is."""
        target = self._file(note.key, note.token)
        try:
            self.folder.mkdir(exist_ok=True)
            scratch = target.with_name(f".{target.name}.{os.getpid()}")
            scratch.write_text(json.dumps(asdict(note), sort_keys=True, ensure_ascii=False, default=str))
            os.replace(scratch, target)
            return str(target)
        except OSError:
            with _MEMORY_LOCK:
                _MEMORY[(self._scope, note.key, note.token)] = note
            return f"the memory of process {os.getpid()} (the side folder {self.folder} could not be written)"

    def find(self, key: str, token: str) -> Note | None:
        with _MEMORY_LOCK:
            kept = _MEMORY.get((self._scope, key, token))
        if kept is not None:
            return kept
        try:
            payload = json.loads(self._file(key, token).read_text())
        except (OSError, ValueError):
            return None
        return Note(**payload) if isinstance(payload, dict) and set(payload) == set(Note.__slots__) else None

    def drop(self, key: str, token: str) -> None:
        with _MEMORY_LOCK:
            _MEMORY.pop((self._scope, key, token), None)
        with contextlib.suppress(OSError):  # a note that outlives its claim is never read again: harmless
            self._file(key, token).unlink(missing_ok=True)
