"""Targets: the strings that name where tools come from, for the CLI, golden manifests and notebooks.

* ``specs/orders.yaml`` (``.yaml``, ``.yml`` or ``.json``): an OpenAPI spec, through :func:`toolkit.from_openapi`
  (``namespace`` defaults to the file name's leading letters);
* ``path/to/file.py:function`` or ``package.module:function``: a function through
  :func:`toolkit.from_function` (or a ready ``Tool``/``Toolset`` object of that name);
* ``package.module`` or ``file.py``: every ``Tool`` and ``Toolset`` defined at the module's top level.

Every mistake in a target is a :class:`~toolkit.TargetError` (or the loader's ``SpecError``) whose message
names the file and line: a missing file, a syntax error (with the offending text), an exception raised while
the user's file is imported (located at the user's line, never toolkit's or importlib's frames), an unknown
function (with the names the file does define).
"""

from __future__ import annotations

import difflib
import hashlib
import importlib
import importlib.util
import inspect
import re
import sys
import sysconfig
import traceback
from collections.abc import Iterable
from dataclasses import replace
from enum import Enum
from pathlib import Path
from types import ModuleType, TracebackType
from typing import Any

from toolkit._exceptions import (
    NotCallableError,
    SignatureError,
    SpecError,
    TargetError,
    ToolkitError,
    UnknownOperationError,
)
from toolkit._openapi import from_openapi
from toolkit._openapi._parse import parse_text
from toolkit._openapi._pin import stale_pin
from toolkit._openapi._select import load_overrides, override_key
from toolkit._tool import Tool, Toolset

__all__ = [
    "SPEC_SUFFIXES",
    "default_namespace",
    "find_object",
    "import_location",
    "is_spec",
    "is_tool_target",
    "load_spec",
    "load_tools",
    "pick",
    "source_failure",
    "split_target",
    "tools_of",
]

SPEC_SUFFIXES = (".yaml", ".yml", ".json")
_DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")
_FORMS = "file.py:function, module:function, a module, or a spec (.yaml, .yml, .json)"
_MAIN_GUARD = 'if __name__ == "__main__":'


def is_spec(target: str) -> bool:
    return ":" not in target.replace("\\", "/").split("/")[-1] and target.lower().endswith(SPEC_SUFFIXES)


def split_target(target: str) -> tuple[str, str | None]:
    """``"tools.py:ping"`` → ``("tools.py", "ping")``; a target without a function part → ``(target, None)``."""
    location, sep, attribute = target.rpartition(":")
    if not sep or "/" in attribute or "\\" in attribute:
        return target, None
    return location, attribute


def is_tool_target(target: str) -> bool:
    """True for the Python forms: ``file.py``, ``file.py:function`` and ``module:function``."""
    return not is_spec(target) and (split_target(target)[1] is not None or target.endswith(".py"))


def default_namespace(path: str | Path) -> str:
    """``specs/orders.yaml`` → ``orders``; ``openai-3.1.json`` → ``openai`` (so two versions share names)."""
    match = re.match(r"[A-Za-z][A-Za-z0-9]*", Path(path).stem)
    return match.group(0).lower() if match else "api"


# -- specs -------------------------------------------------------------------------------------------------


def load_spec(path: str, namespace: str | None, *, select: str = "extension", overrides: str | None = None) -> Toolset:
    """Build the toolset of one spec file (the file must exist); errors name the spec or overrides file.

    A pinned spec whose bytes changed is read all the same (its ``source["pin"]`` is ``"stale"``), so the change
    can be reviewed; :func:`toolkit.from_openapi` itself refuses it."""
    file = Path(path)
    if file.is_dir():
        raise SpecError(f"{path} is a folder; pass an OpenAPI spec file (.yaml, .yml or .json)", slug="not_found")
    if not file.is_file():
        raise SpecError(f"spec file {path!r} not found; pass the path of an OpenAPI .yaml/.json file", slug="not_found")
    options: dict[str, Any] = {"select": select}
    if overrides:
        options["overrides"] = _read_overrides(overrides)
    stale = stale_pin(file)
    if stale is None:
        return from_openapi(file, namespace or default_namespace(path), **options)
    # a pinned spec that changed is read for review (the CLI says its pin is stale; `golden check` fails)
    toolset = from_openapi(file.read_bytes(), namespace or default_namespace(path), **options)
    return replace(toolset, source={**toolset.source, "path": str(file), "pin": "stale"})


def _read_overrides(path: str) -> Any:
    file = Path(path)
    if not file.is_file():
        raise SpecError(
            f"overrides file {path!r} not found; pass a YAML file of per-operation options", slug="not_found"
        )
    try:
        value = parse_text(file.read_bytes())
        load_overrides(value)  # checked here, so a mistake names this file rather than the spec
    except SpecError as error:
        raise SpecError(f"{path}: {error.message}", slug=error.slug) from None
    return value


# -- Python files and modules ------------------------------------------------------------------------------


def _shown(filename: str) -> str:
    """A file name as the user typed it: relative to the working folder when inside it."""
    try:
        return Path(filename).resolve().relative_to(Path.cwd().resolve()).as_posix()
    except (ValueError, OSError):
        return filename


def _library_roots() -> tuple[str, ...]:
    paths = sysconfig.get_paths()
    roots = {paths[key] for key in ("stdlib", "platstdlib", "purelib", "platlib") if key in paths}
    roots.add(str(Path(__file__).resolve().parent))  # toolkit's own frames
    return tuple(str(Path(root).resolve()) + "/" for root in roots)


def _user_frame(tb: TracebackType | None, own: str | None = None) -> traceback.FrameSummary | None:
    """The deepest frame in the user's own code: not importlib's, the standard library's, a package's or ours.

    ``own`` names the file the user's source was compiled as, when it is not a file on disk (pasted code):
    its frames are the user's even though the name is not a path.
    """
    frames = traceback.extract_tb(tb)
    roots = _library_roots()
    mine = [
        f
        for f in frames
        if f.filename == own
        or (not f.filename.startswith("<") and not str(Path(f.filename).resolve()).startswith(roots))
    ]
    return mine[-1] if mine else None


def _syntax_failure(error: SyntaxError, label: str) -> TargetError:
    file = _shown(error.filename) if error.filename else label
    text = (error.text or "").rstrip("\r\n")
    code = text.lstrip()
    where = f"{file}:{error.lineno}" if error.lineno else file
    shown = ""
    if code:
        column = (error.offset or 0) - 1 - (len(text) - len(code))
        shown = f"\n    {code}" + (f"\n    {' ' * column}^" if 0 <= column <= len(code) else "")
    also = "" if file == _shown(label) else f" (imported by {label})"
    message = f"{where}: {type(error).__name__}: {error.msg}{also}{shown}"
    return TargetError(message, slug="target_syntax_error", path=error.filename, line=error.lineno)


def _located(error: ToolkitError, where: str) -> ToolkitError:
    """The same error (class and slug kept), its message prefixed with the user's file and line."""
    error.args = (f"{where}: {error.message}",)
    return error


def _import_failure(error: BaseException, label: str, own: str | None = None) -> ToolkitError:
    """Why importing ``label`` failed, located at the user's line, as one message without a traceback."""
    if isinstance(error, SyntaxError):
        return _syntax_failure(error, label)
    frame = _user_frame(error.__traceback__, own)
    where = f"{_shown(frame.filename)}:{frame.lineno}" if frame and frame.lineno else label
    code = f"\n    {frame.line}" if frame and frame.line else ""
    path, line = (frame.filename, frame.lineno) if frame else (None, None)
    if isinstance(error, ToolkitError):
        return _located(error, f"{where} (while importing {label})")
    if isinstance(error, ModuleNotFoundError):
        missing = (error.name or str(error)).split(".")[0]
        message = (
            f"{where}: no module named {error.name or missing!r} (while importing {label}){code}\n"
            f"  install the package that provides {missing!r} into the Python that runs toolkit ({sys.executable}),"
            " or fix the import"
        )
    elif isinstance(error, SystemExit):
        message = (
            f"{where}: {label} calls sys.exit() while being imported{code}\n  put script code under `{_MAIN_GUARD}`"
        )
    else:
        message = (
            f"{where}: {type(error).__name__}: {error} (while importing {label}){code}\n"
            f"  fix that line, or move code that should not run on import under `{_MAIN_GUARD}`"
        )
    return TargetError(message, slug="target_import_error", path=path, line=line)


def source_failure(error: BaseException, label: str, filename: str) -> ToolkitError:
    """Why running source code compiled as ``filename`` (not a file on disk: pasted code) failed, located at
    the user's line as :func:`load_tools` locates a failing import: a ``TargetError`` with ``line``."""
    return _import_failure(error, label, own=filename)


def _import_file(path: Path, label: str) -> ModuleType:
    if path.is_dir():
        raise TargetError(
            f"{label} is a folder; name a Python file: {label}/tools.py:function", slug="target_not_found"
        )
    if not path.is_file():
        raise TargetError(
            f"no Python file at {label} (looked from {Path.cwd()}); check the path, or write module:function "
            "for an installed module",
            slug="target_not_found",
            path=str(path),
        )
    digest = hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:8]
    name = f"_toolkit_target_{re.sub(r'[^A-Za-z0-9_]', '_', path.stem)}_{digest}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise TargetError(f"cannot import {label} as a Python module", slug="bad_target", path=str(path))
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    folder = str(path.resolve().parent)  # sibling imports work as they do under `python file.py`
    added = folder not in sys.path
    if added:
        sys.path.insert(0, folder)
    try:
        spec.loader.exec_module(module)
    except (Exception, SystemExit) as error:
        sys.modules.pop(name, None)
        raise _import_failure(error, label) from None
    finally:
        if added and folder in sys.path:
            sys.path.remove(folder)
    return module


def import_location(location: str) -> ModuleType:
    """Import ``package.module`` or a ``path/to/file.py``; a failure is a :class:`~toolkit.TargetError`."""
    if location.endswith(".py") or "/" in location or "\\" in location:
        return _import_file(Path(location), location)
    if not location:
        raise TargetError(f"a target needs a file or module before ':'; use {_FORMS}", slug="bad_target")
    if Path(location).is_file() or not _DOTTED.fullmatch(location):
        raise TargetError(f"{location!r} is not a Python file (.py) or a module name; use {_FORMS}", slug="bad_target")
    try:
        return importlib.import_module(location)
    except ModuleNotFoundError as error:
        if error.name and (location == error.name or location.startswith(error.name + ".")):
            file = location.replace(".", "/") + ".py"
            hint = f"write {file}:function" if Path(file).is_file() else "for a file, write path/to/file.py:function"
            raise TargetError(
                f"no module named {location!r} on sys.path"
                + (f" ({error.name!r} is missing)" if error.name != location else "")
                + f"; {hint}",
                slug="target_not_found",
            ) from None
        raise _import_failure(error, location) from None
    except (Exception, SystemExit) as error:
        raise _import_failure(error, location) from None


# -- tools -------------------------------------------------------------------------------------------------


def _defined_names(module: ModuleType) -> list[str]:
    """Functions defined in the module itself (not imported), and its Tool and Toolset objects."""
    names = []
    for name, value in vars(module).items():
        own = inspect.isfunction(value) and value.__module__ == module.__name__ and not name.startswith("_")
        if own or isinstance(value, Tool | Toolset):
            names.append(name)
    return names


def _function_line(value: Any) -> str | None:
    try:
        file, line = inspect.getsourcefile(value), inspect.getsourcelines(value)[1]
    except (OSError, TypeError):
        return None
    return f"{_shown(file)}:{line}" if file else None


def tools_of(value: Any, label: str, **options: Any) -> list[Tool]:
    """The tools of an object a target names: a Tool, a Toolset, or a function (``options`` go to
    :func:`toolkit.from_function`; its errors are located at the function's ``def`` line)."""
    if isinstance(value, Tool):
        return [value]
    if isinstance(value, Toolset):
        return list(value.tools)
    if not callable(value):
        shown = repr(value) if len(repr(value)) <= 40 else type(value).__name__ + " value"
        raise NotCallableError(f"{label} is not a function, Tool or Toolset (it is {shown})")
    if isinstance(value, type) and (issubclass(value, Enum | BaseException) or value.__module__ == "builtins"):
        kind = "an Enum" if issubclass(value, Enum) else "an exception" if issubclass(value, BaseException) else "a"
        raise NotCallableError(
            f"{label} is {kind} class, not a function: name a function, Tool or Toolset (a class becomes a tool "
            "only when its constructor takes the tool's arguments, as a dataclass does)"
        )
    # The Python source stage loads pydantic: only when a target names a function.
    from toolkit._from_python import from_function

    try:
        return [from_function(value, **options)]
    except SignatureError as error:  # the function's own mistake: point at its `def` line
        where = _function_line(value)
        raise (_located(error, where) if where else error) from None


def _unknown_function(module: ModuleType, location: str, attribute: str) -> TargetError:
    names = _defined_names(module)
    close = difflib.get_close_matches(attribute, names, n=1)
    hint = f"; did you mean {location}:{close[0]}?" if close else ""
    listed = ", ".join(names[:12]) + (", ..." if len(names) > 12 else "")
    defined = f" (it defines: {listed})" if names else " (it defines no function at all)"
    return TargetError(
        f"{location} has no function, Tool or Toolset named {attribute!r}{hint}{defined}", slug="unknown_function"
    )


def _module_tools(module: ModuleType, label: str) -> list[Tool]:
    found: list[Tool] = []
    for value in vars(module).values():
        if isinstance(value, Tool):
            found.append(value)
        elif isinstance(value, Toolset):
            found += value.tools
    if found:
        return found
    names = _defined_names(module)
    if names:
        example = ", ".join(f"{label}:{n}" for n in names[:3])
        message = f"{label} defines no Tool or Toolset at its top level; name one of its functions: {example}"
    else:
        message = f"{label} defines no function, Tool or Toolset (is it empty?); write a typed function in it"
    raise TargetError(message, slug="no_tools_in_module")


def find_object(target: str) -> Any:
    """The object a ``file.py:function`` or ``module:function`` target names."""
    location, attribute = split_target(target)
    if attribute is None:
        raise TargetError(f"{target!r} names no function; write {target}:function", slug="bad_target")
    if ":" in location.replace("\\", "/").split("/")[-1]:
        raise TargetError(
            f"{target!r} has more than one ':'; write file.py:function or module:function", slug="bad_target"
        )
    if not attribute.isidentifier():
        raise TargetError(
            f"{attribute!r} after ':' in {target!r} is not a Python name; use {_FORMS}", slug="bad_target"
        )
    module = import_location(location)
    if not hasattr(module, attribute):
        raise _unknown_function(module, location, attribute)
    return getattr(module, attribute)


def load_tools(
    target: str, *, namespace: str | None = None, select: str = "extension", overrides: str | None = None
) -> list[Tool]:
    """Every tool a target names (see the module docstring)."""
    if is_spec(target):
        return list(load_spec(target, namespace, select=select, overrides=overrides).tools)
    location, attribute = split_target(target)
    if attribute is None:
        return _module_tools(import_location(location), location)
    return tools_of(find_object(target), target, namespace=namespace)


def pick(tools: Iterable[Tool], op: str | None) -> list[Tool]:
    """The tools matching ``--op`` (an operationId, a tool name, or ``"METHOD /path"``), or all of them."""
    every = list(tools)
    if op is None:
        return every
    location = override_key(op)
    chosen = [t for t in every if op in (t.name, t.operation_id) or location == f"{t.method} {t.path}"]
    if not chosen:
        names = ", ".join(t.operation_id or t.name for t in every) or "none"
        raise UnknownOperationError(f"no operation or tool named {op!r}; choose one of: {names}")
    return chosen
