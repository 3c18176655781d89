"""The author's mistake in pasted text: a slug, a message in the author's terms, and the line it is on."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from toolkit._exceptions import TargetError, ToolkitError

__all__ = ["Problem", "problem_of"]

_LINE = re.compile(r"\bline (\d+)")


@dataclass(frozen=True, slots=True)
class Problem:
    """What is wrong with the pasted text, located: ``line`` is 1-based in the pasted text (``None`` when the
    mistake has no line, such as a fragment that opts no operation in), and a located ``message`` starts with
    ``line N:``. ``slug`` is the error's stable slug (from :data:`toolkit._exceptions.ERROR_SLUGS`)."""

    slug: str
    message: str
    line: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"slug": self.slug, "message": self.message, "line": self.line}

    def __str__(self) -> str:
        return self.message


def problem_of(error: ToolkitError, filename: str = "", line: int | None = None) -> Problem:
    """A :class:`Problem` from a typed error: its line from ``TargetError.line``, ``line``, or the message.

    ``filename`` is the name the pasted code was compiled as; the message speaks of ``line N`` instead.
    """
    message = error.message
    if isinstance(error, TargetError):  # a line in another file (one the pasted code imports) is not the paste's
        found = error.line if error.path in (None, filename) else None
    else:
        match = _LINE.search(message)
        found = line if line is not None else int(match.group(1)) if match else None
    if filename:
        if found is not None:
            message = message.replace(f"{filename}:{found}: ", f"line {found}: ")
        message = message.replace(f"{filename}:", "line ").replace(filename, "the pasted code")
        message = message.replace("while importing the pasted code", "while running the pasted code")
    if found is not None and not message.startswith("line "):
        message = f"line {found}: {message}"
    return Problem(error.slug, message, found)
