"""An independent statement of what a credential argument is, for tests that sweep real specs.

Written as plain regular expressions over whole names, apart from the word table the toolkit keeps
(:mod:`toolkit._openapi._credential_rule`), so a sweep that finds nothing here is evidence, not an echo.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from toolkit._contract import parse_binding
from toolkit._tool import Tool

__all__ = ["leaked_credentials", "scheme_names"]

_SEP = r"[-_ ]?"
_STRONG = re.compile(
    rf"(?:x{_SEP})?(?:"
    + "|".join(
        rf"{a}{_SEP}{b}"
        for a, b in (
            ("api", "key"),
            ("api", "token"),
            ("api", "secret"),
            ("app", "secret"),
            ("access", "token"),
            ("refresh", "token"),
            ("id", "token"),
            ("auth", "token"),
            ("bearer", "token"),
            ("oauth", "token"),
            ("session", "token"),
            ("client", "secret"),
            ("secret", "key"),
            ("private", "key"),
            ("subject", "token"),
            ("actor", "token"),
        )
    )
    + ")",
    re.IGNORECASE,
)
_WEAK = re.compile(rf"(?:x{_SEP})?(?:token|secret|password|passwd)", re.IGNORECASE)
_SEVERAL = re.compile(_STRONG.pattern + "s", re.IGNORECASE)
"""A strong name in the plural (``access_tokens``, ``apiKeys``): an array or a map of credentials."""
_ABOUT_KEY = re.compile(r"\s*(?:(?:the|a|an|optional|only)\s+)*(?:filter|identifier|hash|alias)", re.IGNORECASE)
"""A description that says the parameter filters by, or identifies, a credential rather than being one."""
_HEADERS = frozenset({"authorization", "proxy-authorization", "cookie"})
_DESCRIBED = re.compile(
    r"\s*(?:(?:the|your|a|an|optional|valid)\s+)*"
    r"(?:authentication|auth|access|api|bearer|oauth|session|refresh|client)\s+(?:token|key|secret)"
    r"(?:[.,:;]|\s+(?:that|used|for|to|of|which|with)\b|\s*$)",
    re.IGNORECASE,
)


def scheme_names(root: Mapping[str, Any]) -> frozenset[str]:
    """Lower-cased, trimmed ``name`` of every apiKey scheme, whatever its ``in`` says."""
    components = root.get("components") if isinstance(root.get("components"), Mapping) else {}
    schemes = components.get("securitySchemes") or root.get("securityDefinitions") or {}
    return frozenset(
        str(s.get("name", "")).strip().lower()
        for s in schemes.values()
        if isinstance(s, Mapping) and str(s.get("type", "")).lower() == "apikey"
    )


def _is_credential(location: str, name: str, description: str, schemes: frozenset[str], kind: object) -> bool:
    if location == "path":
        return False
    if name.strip().lower() in schemes or (location == "header" and name.lower() in _HEADERS):
        return True
    if _ABOUT_KEY.match(description):
        return False
    if kind in ("array", "object") and _SEVERAL.fullmatch(name):
        return True
    if kind not in (None, "string"):  # an object or a number is no secret's text
        return False
    if _STRONG.fullmatch(name) or _DESCRIBED.match(description):
        return True
    return location != "body" and _WEAK.fullmatch(name) is not None


def _described(schema: object) -> tuple[str, object]:
    """A schema's description and type (``None`` for a type that is not one JSON type name)."""
    if not isinstance(schema, Mapping):
        return "", None
    kind = schema.get("type")
    return str(schema.get("description", "")), kind if isinstance(kind, str) else None


def _arguments(tool: Tool) -> Iterator[tuple[str, str, str, object]]:
    """(location, name on the wire, description, type) of each argument, and of a whole body's top-level fields."""
    properties = tool.args_schema.get("properties", {})
    for argument, where in tool.binding.items():
        location, original = parse_binding(where)
        schema = properties.get(argument, {})
        if location == "body" and original is None and isinstance(schema, Mapping):
            for name, sub in (schema.get("properties") or {}).items():
                yield ("body", name, *_described(sub))
            continue
        yield (location, original or argument, *_described(schema))


def leaked_credentials(tool: Tool, schemes: frozenset[str]) -> list[str]:
    """``location.name`` of every argument of ``tool`` the model would see although it is a credential."""
    return [
        f"{loc}.{name}" for loc, name, text, kind in _arguments(tool) if _is_credential(loc, name, text, schemes, kind)
    ]
