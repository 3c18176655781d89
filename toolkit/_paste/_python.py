"""A Python function's source, pasted: run it in a fresh module, and turn the functions it defines into tools.

The pasted code is the author's own, run in their own kernel, as importing their file would run it. It runs in
a fresh module (seeded, when editing an existing tool, with a copy of that tool's module globals so the names
it uses resolve), registered in ``sys.modules`` and ``linecache`` under a name derived from the text, so
pydantic resolves string annotations, ``inspect.getsource`` finds the functions, and error locations show the
line. A mistake is located by the same helper that locates a failing import of a target
(:func:`toolkit._targets.source_failure`). Code that keeps running past ``time_limit`` seconds while the module
is executed (a stray ``while True``) is interrupted on the main thread of a POSIX system and reported as
``preview_timeout`` at the pasted line it was running (the slug a killed preview process gets too).
"""

from __future__ import annotations

import hashlib
import inspect
import linecache
import signal
import sys
import threading
import time
import traceback
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from types import FrameType, ModuleType
from typing import Any

from toolkit._contract import Effect
from toolkit._exceptions import TargetError, ToolkitError
from toolkit._paste._problem import Problem, problem_of
from toolkit._targets import source_failure
from toolkit._tool import Tool, Toolset

__all__ = ["MODULE_PREFIX", "function_tools", "run_source"]

MODULE_PREFIX = "_toolkit_paste_"


class _TooLong(BaseException):
    """Raised into the pasted code when it runs past its time limit (a BaseException, so ``except Exception``
    in the pasted code cannot swallow it)."""


def _names(text: str) -> tuple[str, str]:
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:12]
    return f"{MODULE_PREFIX}{digest}", f"<paste:{digest}>"


def run_source(text: str, seed: Mapping[str, Any] | None = None, time_limit: float = 2.0) -> ModuleType | Problem:
    """Compile and run ``text`` as a fresh module; the module, or the author's mistake located at its line."""
    name, filename = _names(text)
    try:
        code = compile(text, filename, "exec", dont_inherit=True)
    except (SyntaxError, ValueError) as error:  # ValueError: a NUL byte in the source
        return _failure(error, filename)
    module = ModuleType(name)
    if seed:
        module.__dict__.update({k: v for k, v in seed.items() if not (k.startswith("__") and k.endswith("__"))})
    module.__dict__.update({"__name__": name, "__file__": filename, "__builtins__": __builtins__})
    linecache.cache[filename] = (len(text), None, text.splitlines(keepends=True), filename)
    previous = sys.modules.get(name)
    sys.modules[name] = module
    try:
        with _time_limit(time_limit):
            exec(code, module.__dict__)
    except _TooLong as stopped:
        _restore(name, previous)
        return _too_long(stopped, filename, time_limit)
    except (Exception, SystemExit) as error:
        _restore(name, previous)
        return _failure(error, filename)
    return module


def _restore(name: str, previous: ModuleType | None) -> None:
    if previous is None:
        sys.modules.pop(name, None)
    else:
        sys.modules[name] = previous


def _failure(error: BaseException, filename: str) -> Problem:
    return problem_of(source_failure(error, filename, filename), filename)


def _too_long(stopped: _TooLong, filename: str, time_limit: float) -> Problem:
    """Pasted code interrupted at its time limit: a ``preview_timeout`` at the pasted line it was running."""
    lines = [frame.f_lineno for frame, _ in traceback.walk_tb(stopped.__traceback__)
             if frame.f_code.co_filename == filename]  # fmt: skip
    message = (
        f"the pasted code was still running after {time_limit:g} s (a loop that never ends?); "
        "code at the top level runs on every edit: put it inside a function"
    )
    error = TargetError(message, slug="preview_timeout", path=filename, line=lines[-1] if lines else None)
    return problem_of(error, filename)


@contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    """Interrupt the block after ``seconds`` with :class:`_TooLong` (main thread on POSIX only; elsewhere a
    no-op). A timer already armed (pytest-timeout's, say) is put back with the time it had left."""
    usable = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    if not usable or seconds <= 0:
        yield
        return

    def interrupt(signum: int, frame: FrameType | None) -> None:
        raise _TooLong

    before = signal.signal(signal.SIGALRM, interrupt)
    left, _ = signal.setitimer(signal.ITIMER_REAL, seconds)
    started = time.monotonic()
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)
        if left > 0:
            signal.setitimer(signal.ITIMER_REAL, max(left - (time.monotonic() - started), 0.001))


def _defined(module: ModuleType, seed: Mapping[str, Any] | None) -> list[tuple[str, Any]]:
    """Public functions the pasted code defines, and Tool or Toolset objects it made, in definition order."""
    seeded = seed or {}
    found = []
    for key, value in vars(module).items():
        if key.startswith("_") or (key in seeded and seeded[key] is value):
            continue
        if (inspect.isfunction(value) and value.__module__ == module.__name__) or isinstance(value, Tool | Toolset):
            found.append((key, value))
    return found


def function_tools(
    module: ModuleType,
    *,
    seed: Mapping[str, Any] | None = None,
    namespace: str | None = None,
    effect: Effect = "write",
) -> list[Tool] | Problem:
    """The tools of every public function the pasted module defines (and its Tool and Toolset objects)."""
    found = _defined(module, seed)
    if not found:
        return Problem(
            "no_tools_in_module",
            "the pasted code defines no function: write a typed function with `def` and a docstring",
        )
    # The Python source stage loads pydantic: only when pasted code defines a function.
    from toolkit._from_python import from_function

    tools: list[Tool] = []
    for _, value in found:
        if isinstance(value, Tool | Toolset):
            tools.extend([value] if isinstance(value, Tool) else value.tools)
            continue
        try:
            tools.append(from_function(value, namespace=namespace, effect=effect))
        except ToolkitError as error:
            line = value.__code__.co_firstlineno
            return Problem(error.slug, f"line {line}: {error.message}", line)
    return tools
