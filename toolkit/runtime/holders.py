"""Who holds a ledger claim, whether that process is still alive, and the host clock ages are measured with.

A claim records its holder as ``boot/pid-namespace/pid/start``: the kernel's boot id, the pid namespace, the
process id and the process's start time in clock ticks since boot (``/proc/<pid>/stat``). Another process on
the same kernel and in the same pid namespace can then tell for certain whether the holder is gone: no such
pid, a zombie, or a pid reused by a younger process. From another pid namespace (another container) or another
kernel the pid means nothing, and :func:`verdict` answers ``"unknown"``: the ledger falls back to the claim's
lease (see :mod:`toolkit.runtime.idempotency`).

Ages are measured on a *timeline*: the boot id and the time namespace, read with ``CLOCK_BOOTTIME`` (seconds
since boot, counting suspend). Every process on one kernel reads the same value, and neither NTP steps nor a
wrong wall clock move it, so two processes that disagree on the wall clock still agree on how old a record is.
Where there is no ``/proc`` (not Linux) the timeline is ``""`` and only the wall clock is used.
"""

from __future__ import annotations

import os
import socket
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

__all__ = ["BOOT_ID", "PID_NAMESPACE", "TIMELINE", "Holder", "boot_seconds", "this_process", "verdict"]

Verdict = Literal["alive", "dead", "unknown"]


def _read(path: str) -> str:
    try:
        return Path(path).read_text().strip()
    except OSError:
        return ""


def _namespace(kind: str) -> str:
    try:
        return os.readlink(f"/proc/self/ns/{kind}")
    except OSError:
        return ""


BOOT_ID = _read("/proc/sys/kernel/random/boot_id")
"""This kernel's boot id (``""`` where the system does not expose one)."""
PID_NAMESPACE = _namespace("pid")
"""This process's pid namespace, e.g. ``pid:[4026531836]`` (``""`` where unknown)."""
TIMELINE = f"{BOOT_ID}|{_namespace('time')}" if BOOT_ID else ""
"""The clock :func:`boot_seconds` reads: equal values mean the readings of two processes are comparable."""
_CLOCK = getattr(time, "CLOCK_BOOTTIME", None)


def boot_seconds() -> float:
    """Seconds on :data:`TIMELINE` (``CLOCK_BOOTTIME``; the process's monotonic clock where that is missing)."""
    return time.clock_gettime(_CLOCK) if _CLOCK is not None else time.monotonic()


def _start_ticks(pid: int) -> str | None:
    """The start time of process ``pid`` in clock ticks since boot; ``None`` if it is gone or a zombie;
    ``""`` if it exists but the system cannot say when it started."""
    stat = _read(f"/proc/{pid}/stat")
    if stat:
        fields = stat[stat.rfind(")") + 2 :].split()  # the command name may hold spaces and parentheses
        return None if fields[0] in ("Z", "X", "x") else fields[19]
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return None
    except PermissionError:  # exists, owned by someone else
        return ""
    return ""


@dataclass(frozen=True, slots=True)
class Holder:
    """The process that holds a claim (``host`` is informative: the boot id is what identifies the kernel)."""

    boot: str
    namespace: str
    pid: int
    started: str
    host: str = ""

    def encode(self) -> str:
        return "/".join((self.boot, self.namespace, str(self.pid), self.started, self.host))

    @classmethod
    def decode(cls, text: str | None) -> Holder | None:
        parts = (text or "").split("/")
        if len(parts) != 5 or not parts[2].isdigit():
            return None
        return cls(parts[0], parts[1], int(parts[2]), parts[3], parts[4])

    def describe(self) -> str:
        return f"pid {self.pid} on {self.host or 'an unknown host'}"


def this_process() -> Holder:
    """This process as a claim holder (read anew each time: a forked child is another holder)."""
    pid = os.getpid()
    return Holder(BOOT_ID, PID_NAMESPACE, pid, _start_ticks(pid) or "", socket.gethostname())


def verdict(holder: Holder) -> Verdict:
    """``"alive"`` or ``"dead"`` when ``holder`` runs on this kernel in this pid namespace, else ``"unknown"``."""
    if not holder.boot or holder.boot != BOOT_ID or holder.namespace != PID_NAMESPACE:
        return "unknown"
    started = _start_ticks(holder.pid)
    if started is None:
        return "dead"
    if holder.started and started and started != holder.started:
        return "dead"  # the pid now belongs to a younger process
    return "alive"
