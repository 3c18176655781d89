"""The one display protocol: every public object shows itself through a pure renderer chosen by its type.

A class that displays inherits :class:`Displayable` and names its :class:`Renderer` where it is defined::

    @displayed_by(TOOL)                  # after @dataclass: slots=True makes a new class object
    @dataclass(frozen=True, slots=True)
    class Tool(Displayable): ...

The registry is keyed by class object (a subclass uses its nearest registered base), so this module imports
no data module and no renderer module: the data modules import it, and the renderer modules
(:mod:`._core`, :mod:`._envelopes`, :mod:`._reports`) are pure functions over the data types, which they
import for type checking only. The import graph stays one-way: data module → renderer → this protocol.

The data modules every first tool loads (the contract, the envelopes, the tool, the lowering) name their
renderer as ``"module:NAME"`` instead (``@displayed_by("toolkit._display._core:TOOL_RENDERER")``): the renderer
module is imported when such an object is first displayed, so building, declaring and validating a tool loads
no renderer. A name that does not resolve to a :class:`Renderer` raises on that first display (a mistake in the
package, never hidden behind the ``repr`` fallback).

Two promises, because notebooks and nbval depend on them:

* **deterministic**: the same object gives the same bytes (sorted keys, no ids, no addresses, no clocks);
* **never raises**: a renderer that fails falls back to the object's ``repr`` (escaped), so a broken
  display never hides a result.

``include`` and ``exclude`` follow IPython's ``_repr_mimebundle_`` protocol: only the mimetypes in
``include`` (all when it is ``None`` or empty, as IPython reads it) and none of those in ``exclude``; a
mimetype left out is not rendered at all.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Collection
from typing import Any, Generic, NamedTuple, Protocol, TypeVar, overload

from toolkit._display._markup import esc, wrap

__all__ = ["Displayable", "Renderer", "displayed_by", "mimebundle", "renderer_for"]


T = TypeVar("T", contravariant=True)


class Renderer(NamedTuple, Generic[T]):
    """Pure functions of a ``T``, one per mimetype: ``text/plain`` always, ``text/html`` usually.

    ``extra`` adds other mimetypes, in order, as ``(mimetype, function)`` pairs; a function there may return
    ``None`` to leave its mimetype out (a widget view with nothing to draw).
    """

    text: Callable[[T], str]
    html: Callable[[T], str] | None = None
    extra: tuple[tuple[str, Callable[[T], Any]], ...] = ()

    def formats(self) -> tuple[tuple[str, Callable[[T], Any]], ...]:
        """Every ``(mimetype, function)`` pair, in the order a bundle lists them."""
        html = (("text/html", self.html),) if self.html is not None else ()
        return (("text/plain", self.text), *html, *self.extra)


class Displayable:
    """Mixin: ``_repr_mimebundle_`` from the renderer registered for the class (see :func:`displayed_by`)."""

    __slots__ = ()

    def _repr_mimebundle_(
        self, include: Collection[str] | None = None, exclude: Collection[str] | None = None
    ) -> dict[str, Any]:
        return mimebundle(self, include, exclude)


_RENDERERS: dict[type, Renderer[Any] | str] = {}
"""By class: its renderer, or the ``"module:NAME"`` it is imported from on first display."""

D = TypeVar("D", bound=Displayable)


class _Registers(Protocol):
    """What ``displayed_by("module:NAME")`` returns: a decorator of any displayable class."""

    def __call__(self, cls: type[D], /) -> type[D]: ...


@overload
def displayed_by(renderer: Renderer[D]) -> Callable[[type[D]], type[D]]: ...


@overload
def displayed_by(renderer: str) -> _Registers: ...


def displayed_by(renderer: Renderer[Any] | str) -> Callable[[type[D]], type[D]]:
    """Class decorator: ``renderer`` shows instances of the class (and of its subclasses without their own).

    The type checker holds a renderer's argument type to the decorated class; a ``"module:NAME"`` is imported on
    first display.
    """

    def register(cls: type[D]) -> type[D]:
        if not (isinstance(cls, type) and issubclass(cls, Displayable)):
            raise TypeError(f"@displayed_by decorates a class that inherits Displayable, not {cls!r}")
        _RENDERERS[cls] = renderer
        return cls

    return register


def renderer_for(cls: type) -> Renderer[Any] | None:
    """The renderer registered for ``cls`` or its nearest base class, or ``None``."""
    for base in cls.__mro__:
        renderer = _RENDERERS.get(base)
        if isinstance(renderer, str):
            _RENDERERS[base] = renderer = _imported(renderer)
        if renderer is not None:
            return renderer
    return None


def _imported(name: str) -> Renderer[Any]:
    """The renderer ``"module:NAME"`` names (:class:`TypeError` when it is not one: a mistake in the package)."""
    module, _, attribute = name.partition(":")
    renderer = getattr(importlib.import_module(module), attribute, None)
    if not isinstance(renderer, Renderer):
        raise TypeError(f"@displayed_by({name!r}) names no Renderer")
    return renderer


def mimebundle(
    obj: Any, include: Collection[str] | None = None, exclude: Collection[str] | None = None
) -> dict[str, Any]:
    """``{mimetype: data}`` for ``obj`` (``text/plain`` and ``text/html`` at least): deterministic, never raising.

    An object without a renderer, or whose renderer fails, shows its ``repr`` (escaped in the HTML).
    """
    renderer = renderer_for(type(obj))
    if renderer is None:
        return _chosen(_fallback(obj), include, exclude)
    try:
        bundle: dict[str, Any] = {}
        for mimetype, render in _chosen(dict(renderer.formats()), include, exclude).items():
            data = render(obj)
            if data is not None:
                bundle[mimetype] = data
    except Exception:  # a display must never hide the value it was asked to show
        return _chosen(_fallback(obj), include, exclude)
    return bundle


def _chosen(
    formats: dict[str, Any], include: Collection[str] | None, exclude: Collection[str] | None
) -> dict[str, Any]:
    return {m: f for m, f in formats.items() if (not include or m in include) and not (exclude and m in exclude)}


def _fallback(obj: Any) -> dict[str, str]:
    try:
        text = repr(obj)
    except Exception:
        text = f"<{type(obj).__name__}>"
    return {"text/plain": text, "text/html": wrap("repr", f"<pre>{esc(text)}</pre>")}
