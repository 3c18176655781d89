"""Regular expressions compiled on first use, so that importing a module does not compile its patterns.

The lints, the docstring reader and the validator's formats hold well over a hundred module-level patterns;
compiling them all at import was a third of what ``import toolkit`` plus a first ``from_function`` cost, while a
first tool needs only a few (a description without digits never reaches the bound patterns). ``lazy`` returns an
object that behaves as the compiled pattern: the first attribute read compiles it once and keeps the pattern's
bound methods on the object, so later calls cost one attribute lookup, as on a module-level ``re.Pattern``.

Pass it where a pattern's methods are called (``_WORD.search(text)``); the module functions of ``re``
(``re.sub(_WORD, ...)``) want a real ``re.Pattern``: call ``.sub`` on the object instead.
"""

from __future__ import annotations

import re
from typing import Any, cast

__all__ = ["lazy"]

_KEPT = ("search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split")
_READ = ("pattern", "flags", "groupindex", "groups")


class _Lazy:
    """A pattern's source and flags until first use; then the compiled pattern's methods, bound."""

    def __init__(self, source: str, flags: int) -> None:
        self._source = source
        self._flags = flags

    def __getattr__(self, name: str) -> Any:  # only reached while the attribute is not yet on the object
        if name.startswith("__"):
            raise AttributeError(name)
        compiled = re.compile(self._source, self._flags)
        for kept in _KEPT + _READ:
            setattr(self, kept, getattr(compiled, kept))
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"lazy({self._source!r}, {self._flags!r})"


def lazy(source: str, flags: int | re.RegexFlag = 0) -> re.Pattern[str]:
    """``re.compile(source, flags)``, done on first use (typed as the pattern it stands for)."""
    return cast("re.Pattern[str]", _Lazy(source, int(flags)))
