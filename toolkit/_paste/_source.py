"""Where an edit starts: the source text of an existing tool, function or toolset, ready for the paste box.

A function tool starts from its function's source, run (when edited) with a copy of its module's globals so the
names it uses still resolve; an OpenAPI tool starts from the fragment of its document that holds its operation
(:func:`~toolkit._paste._fragment.cut`); a toolset from its whole document.
"""

from __future__ import annotations

import inspect
import textwrap
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolkit._contract import Effect
from toolkit._exceptions import NotCallableError, TargetError
from toolkit._openapi._parse import parse_text
from toolkit._paste._detect import Kind
from toolkit._paste._fragment import cut
from toolkit._tool import Tool, Toolset

__all__ = ["Source", "source_of"]


@dataclass(frozen=True, slots=True)
class Source:
    """Text to edit and how to build it: its kind, the namespace and effect of its tools, and the module
    globals pasted Python runs with (``seed``)."""

    text: str
    kind: Kind
    namespace: str | None = None
    effect: Effect = "write"
    seed: Mapping[str, Any] | None = None


def _function_source(fn: Callable[..., Any], label: str) -> str:
    try:
        return textwrap.dedent(inspect.getsource(fn))
    except (OSError, TypeError):
        raise TargetError(
            f"the source of {label} cannot be read (a built-in, or defined where no file records it); "
            "paste its source instead",
            slug="target_not_found",
        ) from None


def _namespace(tool: Tool, fn: Callable[..., Any]) -> str | None:
    suffix = "_" + getattr(fn, "__name__", "")
    return tool.name[: -len(suffix)] if tool.name.endswith(suffix) and len(tool.name) > len(suffix) else None


def _document_text(toolset: Toolset, texts: Mapping[str, str]) -> str:
    if toolset.namespace in texts:
        return texts[toolset.namespace]
    path = (toolset.source or {}).get("path")
    if path and Path(path).is_file():
        return Path(path).read_text(encoding="utf-8")
    raise TargetError(
        f"the OpenAPI text of toolset {toolset.namespace!r} is not known: add it with Workbench.add_openapi, "
        "or paste the fragment",
        slug="target_not_found",
    )


def _fragment_text(fragment: Mapping[str, Any]) -> str:
    import yaml  # PyYAML loads only when a fragment is written out for editing

    return str(yaml.safe_dump(dict(fragment), sort_keys=False, allow_unicode=True, width=110))


def source_of(item: Any, toolsets: Iterable[Toolset] = (), texts: Mapping[str, str] | None = None) -> Source:
    """The :class:`Source` an edit of ``item`` (a function, a Tool or a Toolset) starts from.

    An OpenAPI tool is looked up in ``toolsets``; ``texts`` maps a toolset's namespace to the text it was
    built from (a toolset read from a file is read again).
    """
    known = dict(texts or {})
    if isinstance(item, Toolset):
        return Source(_document_text(item, known), "openapi", item.namespace)
    if isinstance(item, Tool) and item.contract.source == "openapi":
        owner = next((t for t in toolsets if any(x is item or x.name == item.name for x in t.tools)), None)
        if owner is None or item.path is None or item.method is None:
            raise TargetError(
                f"tool {item.name!r} comes from OpenAPI, but no toolset given holds it", slug="target_not_found"
            )
        document = parse_text(_document_text(owner, known))
        return Source(_fragment_text(cut(document, [(item.path, item.method.lower())])), "openapi", owner.namespace)
    if isinstance(item, Tool):
        if item.fn is None:
            raise TargetError(f"tool {item.name!r} has no Python function to edit", slug="target_not_found")
        fn = item.fn
        return Source(_function_source(fn, item.name), "python", _namespace(item, fn), item.effect, fn.__globals__)
    if callable(item):
        return Source(_function_source(item, repr(item)), "python", None, "write", getattr(item, "__globals__", None))
    raise NotCallableError(f"cannot edit a {type(item).__name__}: pass a function, a Tool or a Toolset")
