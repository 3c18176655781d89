"""Pure text and HTML renderers behind every public object's ``_repr_mimebundle_``.

:func:`mimebundle` looks the object's class up in a registry and returns ``{"text/plain", "text/html"}``.
Types from modules that load lazily (fixture reports, diffs, golden reports, ``Lowered``) are registered by
class name, so rendering never imports a heavy module and a renderer exists before its type is defined.

Two promises, because notebooks and nbval depend on them:

* **deterministic**: the same object gives the same bytes (sorted keys, no ids, no addresses, no clocks);
* **never raises**: a renderer that fails falls back to the object's ``repr`` (escaped), so a broken
  display never hides a result.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from toolkit._display._markup import esc, wrap

__all__ = ["Renderer", "mimebundle", "register", "renderer_for"]


@dataclass(frozen=True, slots=True)
class Renderer:
    """A pair of pure functions: one for ``text/plain``, one for ``text/html``."""

    text: Callable[[Any], str]
    html: Callable[[Any], str]


_BY_NAME: dict[str, Renderer] = {}


def register(class_name: str, renderer: Renderer) -> None:
    """Register ``renderer`` for the toolkit class called ``class_name`` (and its subclasses)."""
    _BY_NAME[class_name] = renderer


def renderer_for(obj: Any) -> Renderer | None:
    """The renderer for ``obj``'s class or its nearest toolkit base class, or ``None``."""
    _load_renderers()
    for cls in type(obj).__mro__:
        if cls.__module__.split(".")[0] == "toolkit" and cls.__name__ in _BY_NAME:
            return _BY_NAME[cls.__name__]
    return None


def mimebundle(obj: Any) -> dict[str, str]:
    """``{"text/plain": ..., "text/html": ...}`` for ``obj``: deterministic, escaped, never raising."""
    renderer = renderer_for(obj)
    if renderer is None:
        return _fallback(obj)
    try:
        return {"text/plain": renderer.text(obj), "text/html": renderer.html(obj)}
    except Exception:  # a display must never hide the value it was asked to show
        return _fallback(obj)


def _fallback(obj: Any) -> dict[str, str]:
    try:
        text = repr(obj)
    except Exception:
        text = f"<{type(obj).__name__}>"
    return {"text/plain": text, "text/html": wrap("repr", f"<pre>{esc(text)}</pre>")}


_loaded = False


def _load_renderers() -> None:
    """Import the renderer modules once (they register themselves); kept lazy to keep imports cheap."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    from toolkit._display import _core, _envelopes, _reports  # noqa: F401
