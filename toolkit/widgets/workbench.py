"""The notebook facade: collect tools from functions and OpenAPI text, and open their views.

    wb = tk.Workbench(golden_dir="../golden")
    search = wb.add(examples.search_issues, namespace="issues", effect="read")
    wb.view(search)                      # tabs: declaration, lints, losses, fixtures, envelope, playground, golden
    orders = wb.add_openapi(spec_text, namespace="orders")
    wb.view(orders)                      # tools, refused operations, and a picker that opens each tool
    box = wb.editor()                    # the paste box: type a function or a fragment, watch it rebuild
    wb.editor(search)                    # ... starting from an existing tool's source; Keep adds the result
    wb.eval("evals/issues.yaml", {"golden": [old], "edited": [search]}, "openai", replay="evals/x.json")

The workbench only calls the public functions (``from_function``, ``from_openapi``, ``fire``, ``golden``,
``evaluate``) and
the paste stage (:mod:`toolkit._paste`); the views it returns hold no logic of their own.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from toolkit._contract import Effect
from toolkit._display import Displayable, Renderer, displayed_by
from toolkit._display._markup import esc, html_table, wrap
from toolkit._eval import evaluate
from toolkit._from_python import from_function
from toolkit._lowering._size import tokens
from toolkit._openapi import from_openapi
from toolkit._paste import Draft, Source, source_of
from toolkit._tool import Tool, Toolset
from toolkit.widgets.editor import PasteBox
from toolkit.widgets.evaluation import EvalView
from toolkit.widgets.tool import ToolView
from toolkit.widgets.toolset import ToolsetView

__all__ = ["Workbench"]


def _workbench_html(workbench: Workbench) -> str:
    head = f"<b>{esc(repr(workbench).splitlines()[0])}</b>"
    headers = ("tool", "effect", "losses", "lints", "bytes", "~tokens")
    table = html_table(headers, workbench._rows()) if workbench.tools else ""
    return wrap("workbench", head + table)


@displayed_by(Renderer(repr, _workbench_html))
class Workbench(Displayable):
    """Tools and toolsets by name, and their views. ``golden_dir`` is where golden files live (optional)."""

    def __init__(self, golden_dir: str | os.PathLike[str] | None = None) -> None:
        self.golden_dir = None if golden_dir is None else Path(golden_dir)
        self.tools: dict[str, Tool] = {}
        self.toolsets: dict[str, Toolset] = {}
        self.texts: dict[str, str] = {}
        """The OpenAPI text each toolset was built from, by namespace (the paste box starts from it)."""

    def add(self, fn: Callable[..., Any], **from_function_kwargs: Any) -> Tool:
        """Turn ``fn`` into a tool with :func:`toolkit.from_function` (same keyword arguments) and keep it."""

        tool = from_function(fn, **from_function_kwargs)
        self.tools[tool.name] = tool
        return tool

    def add_openapi(self, source: Any, namespace: str, **from_openapi_kwargs: Any) -> Toolset:
        """Turn OpenAPI text, a path or a dict into a toolset with :func:`toolkit.from_openapi` and keep it."""

        toolset = from_openapi(source, namespace, **from_openapi_kwargs)
        if isinstance(source, str) and "\n" in source:
            self.texts[toolset.namespace] = source
        self.toolsets[toolset.namespace] = toolset
        self.tools.update({tool.name: tool for tool in toolset.tools})
        return toolset

    def view(self, item: Tool | Toolset | str, **options: Any) -> ToolView | ToolsetView:
        """A tabbed view of a tool, or the view of a toolset; ``item`` may be a kept tool or toolset's name."""
        if isinstance(item, str):
            item = self._named(item)
        golden_dir = options.pop("golden_dir", self.golden_dir)
        if isinstance(item, Toolset):
            return ToolsetView(item, golden_dir=golden_dir)
        if isinstance(item, Tool):
            return ToolView(item, golden_dir=golden_dir, **options)
        raise TypeError(f"Workbench.view takes a Tool, a Toolset or a name, not {type(item).__name__}")

    def editor(
        self,
        item: Tool | Toolset | Callable[..., Any] | str | None = None,
        *,
        namespace: str | None = None,
        effect: Effect = "write",
        **options: Any,
    ) -> PasteBox:
        """The paste box, empty or starting from ``item``'s source (a tool, a toolset, a function, or a kept
        name); the tool it starts from is the previous version its diff compares with. An empty box names its
        tools with ``namespace`` and gives function tools ``effect``. ``options`` go to
        :class:`~toolkit.widgets.editor.PasteBox` (``delay``, ``golden_dir``)."""
        if isinstance(item, str):
            item = self._named(item)
        if item is None:
            return PasteBox(self, Source("", "python", namespace, effect), **options)
        source = source_of(item, self.toolsets.values(), self.texts)
        baseline = options.pop("baseline", None)
        if baseline is None and isinstance(item, Tool | Toolset):
            baseline = [item] if isinstance(item, Tool) else list(item.tools)
        return PasteBox(self, source, baseline=baseline, **options)

    def eval(self, cases: Any, variants: Any, provider: str = "gemini", **options: Any) -> EvalView:
        """Run :func:`toolkit.evaluate` (same arguments) and open its Eval view: the variants x measures table,
        and a picker that shows each case's calls, envelopes and the model's correction. ``variants`` may name
        kept tools (``{"edited": ["issues_search_issues"]}``)."""
        if isinstance(variants, Mapping):
            variants = {
                name: [self._named(tool) if isinstance(tool, str) else tool for tool in tools]
                for name, tools in variants.items()
            }
        return EvalView(evaluate(cases, variants, provider, **options))

    def keep(self, draft: Draft, text: str = "", namespace: str | None = None) -> None:
        """Add a paste box's draft: its tools by name, and for a fragment its toolset (and text, to edit again)."""
        self.tools.update({tool.name: tool for tool in draft.tools})
        if draft.kind == "openapi":
            space = namespace or "api"
            self.toolsets[space] = Toolset(space, draft.tools, draft.rejected)
            if text:
                self.texts[space] = text

    def _named(self, name: str) -> Tool | Toolset:
        found: Mapping[str, Tool | Toolset] = {**self.tools, **self.toolsets}
        if name not in found:
            raise KeyError(f"nothing named {name!r} in this workbench; have: {', '.join(sorted(found)) or 'nothing'}")
        return found[name]

    def _rows(self) -> list[tuple[str, ...]]:
        """Each tool: name, effect, losses, lints, its declaration's bytes and approximate tokens."""
        return [
            (
                t.name,
                t.effect,
                str(len(t.losses)),
                str(len(t.lints)),
                f"{t.declaration_bytes:,}",
                f"{t.declaration_tokens:,}",
            )
            for t in self.tools.values()
        ]

    def __repr__(self) -> str:
        total = sum(tool.declaration_bytes for tool in self.tools.values())
        lines = [
            f"Workbench: {len(self.tools)} tools, {len(self.toolsets)} toolsets; "
            f"declarations {total:,} bytes, ~{tokens(total):,} tokens"
        ]
        lines += [
            f"  {name} ({effect}): {losses} losses, {lints} lints, {size} bytes, ~{approx} tokens"
            for name, effect, losses, lints, size, approx in self._rows()
        ]
        return "\n".join(lines)
