"""What every view shares: it wraps ipywidgets around core data, and displays with a stable text fallback.

A view is attached to a core object, not inherited by it (the object stays plain frozen data). Its
``widget`` is what the notebook draws; its ``summary()`` is the ``text/plain`` that nbval compares, GitHub's
preview shows and plain IPython prints. ipywidgets' own text is a truncated repr of the widget tree, so a
view replaces it with a short, deterministic description of what it shows (no model ids, no addresses).
Views display through the package's one protocol (:mod:`toolkit._display`): ``text/plain`` is the summary,
and the widget's own view reference is what the notebook draws.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets

from toolkit._display import Displayable, Renderer, displayed_by

__all__ = ["View", "html_widget"]

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def html_widget(value: str = "") -> Any:
    """An ipywidgets ``HTML`` whose content stretches to the width of the cell."""
    return widgets.HTML(value=value, layout=widgets.Layout(width="100%"))


def _widget_view(view: View) -> Any:
    """The reference to the widget that the notebook draws (``None`` for a widget without a view)."""
    return (view.widget._repr_mimebundle_() or {}).get(WIDGET_VIEW)


@displayed_by(Renderer(repr, extra=((WIDGET_VIEW, _widget_view),)))
class View(Displayable):
    """Base of the workbench views: ``widget`` (drawn) and ``summary()`` (the stable text fallback)."""

    widget: Any

    def summary(self) -> str:  # pragma: no cover - every view overrides it
        raise NotImplementedError

    def __repr__(self) -> str:
        try:
            return self.summary()
        except Exception:  # a repr must never raise
            return f"<{type(self).__name__}>"
