"""Pasted source built in a disposable process, never in the author's kernel.

    previewer = Previewer()                   # nothing starts yet
    draft = previewer.build(text, "python")   # the first build starts the worker (about a second); later ones
                                              # fork a fresh child of it (milliseconds on top of the build)
    previewer.close()

Every half-typed version of pasted Python is imported by the preview, so the preview runs it away from the
kernel. A worker process (started with ``subprocess``, the ``spawn`` way: nothing of the kernel is inherited)
imports toolkit once and stays warm; for each build it forks a child, which builds the text in a clean copy of
the worker's state, sends the detached draft back and exits. What the pasted code does stays in that child:
top-level side effects (relative paths land in a temporary working folder), threads (they end with the child),
``os._exit``, changes to ``sys.modules`` or ``os.environ``, processes it starts (the child leads a process group
that is killed after the build). The child bounds its address space (``resource.setrlimit``, POSIX). Pasted code
still running after ``time_limit`` seconds is interrupted inside the child and located; the kernel waits
``grace`` seconds more, then kills the child's process group (``except:`` cannot swallow a ``SIGKILL``). The
worker's caches (fixture reports, parsed YAML blocks) grow from what each child sends back with its draft. The
worker enforces the same deadline itself, so no child outlives a kernel that died mid-build, and it runs in a
session of its own, so interrupting the kernel (a signal to the kernel's process group) does not stop it.

The draft comes back with its tools detached: declarations, schemas, lints, losses and fixture reports, without
the pasted functions (those existed only in the child). Keeping a draft builds the final text once in the kernel
(:func:`toolkit._paste.paste`), on the author's request.
"""

from __future__ import annotations

import atexit
import contextlib
import importlib
import io
import os
import pickle
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import weakref
from collections.abc import Mapping
from dataclasses import dataclass, replace
from multiprocessing.connection import Connection
from types import ModuleType
from typing import Any

if sys.platform != "win32":  # the worker forks a child per build: POSIX only
    import resource

from toolkit._contract import Effect
from toolkit._paste import FIRED_LIMIT, Draft, paste
from toolkit._paste._chunks import CACHE_LIMIT
from toolkit._paste._detect import Kind, detect
from toolkit._paste._problem import Problem

__all__ = ["MEMORY_LIMIT", "Previewer", "seed_spec", "shared_previewer"]

MEMORY_LIMIT = 2 << 30
"""A build's address space in bytes (``RLIMIT_AS``): pasted code that allocates more gets a MemoryError."""

START_LIMIT = 60.0
"""Seconds a new worker may take to import toolkit (a busy machine)."""

_SEED_BYTES = 1 << 20
"""A seeded global whose pickle is larger than this is not sent to the worker."""


@dataclass(frozen=True, slots=True)
class _Request:
    text: str
    kind: Kind | None
    namespace: str | None
    effect: Effect
    select: str
    seed: tuple[tuple[str, str, Any], ...]
    time_limit: float
    number: int = 0
    deadline: float = 60.0
    """Seconds after which the worker kills the child itself (so a child outlives no kernel that died)."""


def seed_spec(seed: Mapping[str, Any] | None) -> tuple[tuple[str, str, Any], ...]:
    """``seed`` (a module's globals) as the worker can rebuild it: an importable module by name, else each
    global as a module name or a pickle; globals that cannot cross a process boundary are left out."""
    if not seed:
        return ()
    name = seed.get("__name__")
    module = sys.modules.get(name) if isinstance(name, str) else None
    if module is not None and name != "__main__" and getattr(module, "__file__", None):
        return (("", "import", name),)
    spec: list[tuple[str, str, Any]] = []
    for key, value in seed.items():
        if key.startswith("__") and key.endswith("__"):
            continue
        if isinstance(value, ModuleType):
            spec.append((key, "import", value.__name__))
            continue
        try:
            data = pickle.dumps(value)
        except Exception:  # a lambda, an open file, ...: the preview runs without it
            continue
        if len(data) <= _SEED_BYTES:
            spec.append((key, "pickle", data))
    return tuple(spec)


def _seed(spec: tuple[tuple[str, str, Any], ...]) -> dict[str, Any] | None:
    found: dict[str, Any] = {}
    for key, how, value in spec:
        try:
            if how == "import" and not key:
                return dict(vars(importlib.import_module(value)))
            found[key] = importlib.import_module(value) if how == "import" else pickle.loads(value)
        except Exception:  # defined only in the kernel (a notebook's function): the preview runs without it
            continue
    return found or None


def _confine(memory: int) -> None:
    """Bound the worker's address space (POSIX)."""
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = memory if hard == resource.RLIM_INFINITY else min(memory, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


def _detached(draft: Draft) -> Draft:
    """The draft with its tools' Python callables removed (they exist only in the worker)."""
    tools = tuple(replace(t, fn=None, converter=None, domain_checks=()) for t in draft.tools)
    return replace(draft, tools=tools)


def _build(
    request: _Request, fired: dict[str, Any], blocks: dict[str, Any]
) -> tuple[bytes, dict[str, Any], dict[str, Any]]:
    """In the child: the pickled detached draft, and the cache entries this build added."""
    had_fired, had_blocks = set(fired), set(blocks)
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            draft = paste(
                request.text,
                request.kind,
                namespace=request.namespace,
                effect=request.effect,
                select=request.select,
                seed=_seed(request.seed),
                fired=fired,
                blocks=blocks,
                time_limit=request.time_limit,
            )
        data = pickle.dumps(_detached(draft))
    except BaseException as error:  # the build itself failed: the pasted code got in its way
        message = f"the preview could not be built: {type(error).__name__}: {error}"
        data = pickle.dumps(Draft(request.kind or "python", problem=Problem("target_import_error", message)))
    new_fired = {k: v for k, v in fired.items() if k not in had_fired}
    new_blocks = {k: v for k, v in blocks.items() if k not in had_blocks}
    return data, new_fired, new_blocks


def _child(request: _Request, fired: dict[str, Any], blocks: dict[str, Any], back: Connection, memory: int) -> None:
    """In the forked child: build, send the result to the worker, and end without running any cleanup."""
    code = 0
    try:
        os.setpgid(0, 0)
        _confine(memory)
        back.send(_build(request, fired, blocks))
    except BaseException:
        code = 3
    finally:
        os._exit(code)


_WARM_UP = (
    '''
import datetime
from typing import Annotated, Literal

from pydantic import Field


def warm_up(
    query: str, when: datetime.date, kind: Literal["a", "b"] = "a", limit: Annotated[int, Field(ge=1, le=9)] = 3
) -> list[str]:
    """Warm the worker up.

    Args:
        query: text
        when: a day
        kind: a kind
        limit: how many
    """
    return []
''',
    """
paths:
  /things/{id}:
    get:
      operationId: get_thing
      description: Read one thing.
      x-agent-tool: true
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}}
        - {name: limit, in: query, schema: {type: integer, minimum: 1}}
      responses: {"200": {description: ok}}
""",
)
"""Toolkit's own samples the worker builds once at start (a function and a fragment)."""


def _merge(cache: dict[str, Any], new: dict[str, Any], limit: int) -> None:
    cache.update(new)
    while len(cache) > limit:
        cache.pop(next(iter(cache)))


def main() -> None:
    """The worker's loop (see the module): receive a request, fork a child to build it, forward its draft.

    Run as ``python -c "from toolkit._paste._worker import main; main()" READ_FD WRITE_FD MEMORY``. It sends
    ``("ready",)`` once toolkit is imported, then per request ``("started", number, pid)`` and either
    ``("built", number, draft_bytes)`` or ``("ended", number, exit_status)``."""

    for text in _WARM_UP:  # toolkit's own samples: every lazy import and first-use cost is paid once, here
        paste(text)

    inbox = Connection(int(sys.argv[1]), writable=False)
    outbox = Connection(int(sys.argv[2]), readable=False)
    memory = int(sys.argv[3])
    fired: dict[str, Any] = {}
    blocks: dict[str, Any] = {}
    outbox.send(("ready",))
    while True:
        try:
            request: _Request = inbox.recv()
        except (EOFError, OSError):
            return
        mine, theirs = os.pipe()
        pid = os.fork()
        if pid == 0:
            inbox.close()
            outbox.close()
            os.close(mine)
            _child(request, fired, blocks, Connection(theirs, readable=False), memory)
        os.close(theirs)
        with contextlib.suppress(OSError):
            os.setpgid(pid, pid)
        outbox.send(("started", request.number, pid))
        back = Connection(mine, writable=False)
        try:
            data, new_fired, new_blocks = back.recv() if back.poll(request.deadline) else (None, {}, {})
        except (EOFError, OSError):
            data = None
        back.close()
        with contextlib.suppress(OSError):
            os.killpg(pid, signal.SIGKILL)  # whatever the pasted code started goes with the child
        _, status = os.waitpid(pid, 0)
        if data is None:
            outbox.send(("ended", request.number, os.waitstatus_to_exitcode(status)))
            continue
        _merge(fired, new_fired, FIRED_LIMIT)
        _merge(blocks, new_blocks, CACHE_LIMIT)
        outbox.send(("built", request.number, data))


class Previewer:
    """A warm worker process that builds pasted text (see the module). ``started`` counts the workers started,
    ``pid`` is the current one's (``None`` before the first build or after a kill)."""

    def __init__(self, time_limit: float = 2.0, grace: float = 5.0, memory: int = MEMORY_LIMIT) -> None:
        self.time_limit = time_limit
        self.grace = grace
        self.memory = memory
        self.started = 0
        self._process: subprocess.Popen[bytes] | None = None
        self._inbox: Any = None
        self._outbox: Any = None
        self._ready = False
        self._number = 0
        self.folder = tempfile.mkdtemp(prefix="toolkit-preview-")
        """The worker's working folder: relative paths the pasted code writes land here."""
        weakref.finalize(self, shutil.rmtree, self.folder, ignore_errors=True)

    @property
    def pid(self) -> int | None:
        return None if self._process is None else self._process.pid

    def _start(self) -> None:
        inbox, theirs_out = os.pipe()
        theirs_in, outbox = os.pipe()
        paths = [os.path.abspath(p) if p else os.getcwd() for p in sys.path]
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths), "PYTHONUNBUFFERED": "1"}
        command = "from toolkit._paste._worker import main; main()"
        args = [sys.executable, "-c", command, str(theirs_in), str(theirs_out), str(self.memory)]
        self._process = subprocess.Popen(
            args,
            pass_fds=(theirs_in, theirs_out),
            cwd=self.folder,
            env=env,
            stdin=subprocess.DEVNULL,
            start_new_session=True,  # the kernel's interrupts (sent to its process group) are not the worker's
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(theirs_in)
        os.close(theirs_out)
        self._inbox = Connection(inbox, writable=False)
        self._outbox = Connection(outbox, readable=False)
        self._ready = False
        self.started += 1

    def close(self) -> None:
        """Kill the worker (the next build starts another)."""
        process, self._process = self._process, None
        for conn in (self._inbox, self._outbox):
            if conn is not None:
                conn.close()
        self._inbox = self._outbox = None
        if process is not None:
            process.kill()
            process.wait(5)

    def _warm(self) -> bool:
        """Start a worker if none runs, and wait until it has imported toolkit; whether it is ready."""
        if self._process is None or self._process.poll() is not None:
            self.close()
            self._start()
        if not self._ready:
            self._ready = self._receive(0, START_LIMIT) is not None
        return self._ready

    def _receive(self, number: int, seconds: float) -> tuple[Any, ...] | None:
        """The worker's next message about request ``number`` (older ones are dropped); ``None`` on time out."""
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0 and self._inbox.poll(left):
            message: tuple[Any, ...] = self._inbox.recv()
            if message[0] == "ready" or message[1] == number:
                return message
        return None

    def build(
        self,
        text: str,
        kind: Kind | None = None,
        *,
        namespace: str | None = None,
        effect: Effect = "write",
        select: str = "extension",
        seed: tuple[tuple[str, str, Any], ...] = (),
    ) -> Draft:
        """The :class:`~toolkit._paste.Draft` a child of the worker builds from ``text`` (arguments as
        :func:`~toolkit._paste.paste`'s; ``seed`` from :func:`seed_spec`), its tools detached; a draft with a
        problem when the pasted code ran out of time or ended its process."""
        chosen: Kind = kind if kind is not None else detect(text)
        self._number += 1
        limit = self.time_limit + self.grace
        request = _Request(text, chosen, namespace, effect, select, seed, self.time_limit, self._number, limit + 1)
        try:
            if not self._warm():
                raise EOFError
            self._outbox.send(request)
            started = self._receive(self._number, START_LIMIT)
            if started is None:
                raise EOFError
            reply = self._receive(self._number, limit)
        except (EOFError, OSError):
            self.close()
            return Draft(chosen, problem=Problem("target_import_error", _exit_message(None)))
        if reply is None:
            with contextlib.suppress(OSError):
                os.killpg(started[2], signal.SIGKILL)
            return Draft(chosen, problem=Problem("target_import_error", self._timeout_message()))
        if reply[0] == "ended":
            return Draft(chosen, problem=Problem("target_import_error", _exit_message(reply[2])))
        draft: Draft = pickle.loads(reply[2])
        return draft

    def _timeout_message(self) -> str:
        return (
            f"the pasted code was still running {self.time_limit + self.grace:g} s after it started and could "
            "not be interrupted (an `except:` that swallows the interrupt?): its preview process was killed; "
            "your kernel is unaffected"
        )

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self.close()


def _exit_message(code: int | None) -> str:
    if code is None:
        how = "the preview worker stopped unexpectedly; a new one starts on the next edit"
    elif code >= 0:
        how = f"the pasted code ended its preview process with code {code} (os._exit at the top level?)"
    else:
        how = f"the pasted code's preview process was killed by signal {-code} (out of memory?)"
    return how + "; your kernel is unaffected"


_SHARED: list[Previewer] = []


def shared_previewer() -> Previewer:
    """The kernel's one previewer, shared by every paste box (one warm worker; started on the first build)."""
    if not _SHARED:
        _SHARED.append(Previewer())
        atexit.register(_SHARED[0].close)
    return _SHARED[0]
