"""What every view shares: it wraps ipywidgets around core data, and displays with a stable text fallback.

A view is attached to a core object, not inherited by it (the object stays plain frozen data). Its
``widget`` is what the notebook draws; its ``summary()`` is the ``text/plain`` that nbval compares, GitHub's
preview shows and plain IPython prints. ipywidgets' own text is a truncated repr of the widget tree, so a
view replaces it with a short, deterministic description of what it shows (no model ids, no addresses).
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets

__all__ = ["View", "html_widget"]


def html_widget(value: str = "") -> Any:
    """An ipywidgets ``HTML`` whose content stretches to the width of the cell."""
    return widgets.HTML(value=value, layout=widgets.Layout(width="100%"))


class View:
    """Base of the workbench views: ``widget`` (drawn) and ``summary()`` (the stable text fallback)."""

    widget: Any

    def summary(self) -> str:  # pragma: no cover - every view overrides it
        raise NotImplementedError

    def __repr__(self) -> str:
        try:
            return self.summary()
        except Exception:  # a repr must never raise
            return f"<{type(self).__name__}>"

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        bundle: dict[str, Any] = dict(self.widget._repr_mimebundle_() or {})
        bundle["text/plain"] = repr(self)
        return bundle
