"""Which kind of source pasted text is: a Python function's source or an OpenAPI fragment (YAML or JSON)."""

from __future__ import annotations

import re
from typing import Literal

__all__ = ["KINDS", "Kind", "detect"]

Kind = Literal["python", "openapi"]
KINDS: tuple[Kind, ...] = ("python", "openapi")

_PYTHON_START = re.compile(r"(async\s+def|def|class|from|import)\b|@")
_OPENAPI_KEY = re.compile(
    r"^(openapi|swagger|paths|components|info|definitions|x-[\w-]+)\s*:|^['\"]?/\S*['\"]?\s*:", re.M
)
_DOCUMENT_START = re.compile(r"""(openapi|swagger)\s*:\s*['"]?\d""")
_PYTHON_LINE = re.compile(r"^\s*(async\s+def|def|class|return|import|from\s+\S+\s+import)\b", re.M)


def detect(text: str) -> Kind:
    """``"openapi"`` for JSON, YAML that starts with ``openapi: 3...`` or ``swagger: 2...``, or YAML whose top-level
    keys look like a document, ``paths`` or a path item;
    ``"python"`` otherwise. Only the text's shape is read: nothing is parsed or run.
    """
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith(("{", "[")) or _DOCUMENT_START.match(line):
            return "openapi"  # JSON, or a document that starts with its version (prose below may read as Python)
        if _PYTHON_START.match(line):
            return "python"
        break
    if _OPENAPI_KEY.search(text) and not _PYTHON_LINE.search(text):
        return "openapi"
    return "python"
