"""Give a ``**kwargs`` function the named parameters its framework declares for it.

A CrewAI or LangChain tool class's ``_run(self, **kwargs)``, a llama-index tool's ``call(*args, **kwargs)``
and a haystack ``function(**kwargs)`` take their arguments from a model or JSON Schema the framework holds.
:func:`with_fields` returns a function that forwards every keyword to the original and whose signature
names those parameters, so the rest of :mod:`toolkit._from_python` reads it like any typed function.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Mapping
from typing import Any

__all__ = ["with_fields"]


def with_fields(fn: Any, fields: Mapping[str, Any]) -> Any:
    """``fn`` itself, or (when it takes ``**kwargs`` and ``fields`` names parameters it does not) a forwarder
    whose signature is ``fn``'s named parameters followed by the missing fields, keyword-only."""
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError):
        return fn
    own = [p for p in signature.parameters.values() if p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)]
    takes_keywords = any(p.kind is p.VAR_KEYWORD for p in signature.parameters.values())
    missing = [name for name in fields if name not in {p.name for p in own}]
    if not takes_keywords or not missing:
        return fn
    added = [_parameter(name, fields[name]) for name in missing]
    if inspect.iscoroutinefunction(fn):

        @functools.wraps(fn)
        async def forward_async(**kwargs: Any) -> Any:
            return await fn(**kwargs)

        forwarder: Any = forward_async
    else:

        @functools.wraps(fn)
        def forward(**kwargs: Any) -> Any:
            return fn(**kwargs)

        forwarder = forward
    forwarder.__signature__ = signature.replace(parameters=[*own, *added])
    return forwarder


def _parameter(name: str, info: Any) -> inspect.Parameter:
    required = info.is_required()
    default = inspect.Parameter.empty if required else info.get_default(call_default_factory=True)
    return inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=info.annotation)
