"""Security schemes and servers: what an operation's requests need besides the model's arguments.

Read once, from the document, while the tools are built; the results travel on each
:class:`~toolkit.ToolContract` (``security``, ``servers``), so the runtime and code generation never read the
spec again. OpenAPI 3 ``components.securitySchemes`` and Swagger 2.0 ``securityDefinitions`` are both read,
leniently: scheme keys and names are trimmed, ``type`` and ``in`` read in any letter case. Which declared
parameters are credentials is decided in :mod:`toolkit._openapi._credential_rule`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolkit._contract import SecurityScheme

__all__ = ["defined_schemes", "operation_schemes", "schemes_from_spec", "servers_of"]


def defined_schemes(root: Mapping[str, Any]) -> Mapping[str, Any]:
    """The document's security schemes by name (OpenAPI 3 or Swagger 2.0), or an empty mapping."""
    components = root.get("components")
    defined = components.get("securitySchemes") if isinstance(components, Mapping) else None
    if not isinstance(defined, Mapping):
        defined = root.get("securityDefinitions")
    return defined if isinstance(defined, Mapping) else {}


def _scheme(key: str, raw: Mapping[str, Any]) -> SecurityScheme | None:
    kind = str(raw.get("type", "")).strip().lower()
    location, name = str(raw.get("in", "")).strip().lower(), raw.get("name")
    if kind == "apikey" and location in ("header", "query", "cookie") and isinstance(name, str) and name.strip():
        return SecurityScheme(key=key, kind="api_key", location=location, name=name.strip())  # type: ignore[arg-type]
    scheme = str(raw.get("scheme", "")).strip().lower()
    if kind == "http" and scheme in ("bearer", "basic"):
        return SecurityScheme(key=key, kind=scheme)  # type: ignore[arg-type]
    if kind == "basic":  # Swagger 2.0
        return SecurityScheme(key=key, kind="basic")
    if kind in ("oauth2", "openidconnect"):
        return SecurityScheme(key=key, kind="bearer")
    return None


def operation_schemes(root: Mapping[str, Any], operation: Mapping[str, Any]) -> tuple[SecurityScheme, ...]:
    """The schemes one operation uses: its own ``security`` or the document's, first alternative only.

    Only the first requirement object is used (OpenAPI lists alternatives); unsupported scheme types
    (mutual TLS, ...) are skipped.
    """
    defined = {str(key).strip(): value for key, value in defined_schemes(root).items()}
    requirements = operation.get("security")
    if requirements is None:
        requirements = root.get("security")
    if not defined or not isinstance(requirements, list) or not requirements:
        return ()
    if not isinstance(requirements[0], Mapping):
        return ()
    out: list[SecurityScheme] = []
    for key in sorted({str(key).strip() for key in requirements[0]}):
        raw = defined.get(key)
        if isinstance(raw, Mapping) and (found := _scheme(key, raw)) is not None:
            out.append(found)
    return tuple(out)


def schemes_from_spec(document: Mapping[str, Any], method: str, path: str) -> tuple[SecurityScheme, ...]:
    """:func:`operation_schemes` of the operation at ``method path`` (none when it does not exist)."""
    paths = document.get("paths")
    item = paths.get(path) if isinstance(paths, Mapping) else None
    operation = item.get(method.lower()) if isinstance(item, Mapping) else None
    return operation_schemes(document, operation if isinstance(operation, Mapping) else {})


def _server_url(server: Any) -> str | None:
    """A server object's URL with each ``{variable}`` replaced by its default."""
    if not isinstance(server, Mapping) or not isinstance(server.get("url"), str):
        return None
    url: str = server["url"]
    variables = server.get("variables")
    for name, variable in variables.items() if isinstance(variables, Mapping) else ():
        default = variable.get("default") if isinstance(variable, Mapping) else None
        if isinstance(default, str):
            url = url.replace("{" + str(name) + "}", default)
    return url


def servers_of(
    root: Mapping[str, Any],
    path_item: Mapping[str, Any],
    operation: Mapping[str, Any],
    memo: dict[int, tuple[Any, tuple[str, ...]]] | None = None,
) -> tuple[str, ...]:
    """The base URLs for an operation: its own ``servers``, else its path item's, else the document's.

    Swagger 2.0 has none of these: its base URL is ``schemes`` × ``host`` + ``basePath``. ``memo`` (for the
    operations of one document) reads each ``servers`` list once, by its identity (the list kept beside).
    """
    for holder in (operation, path_item, root):
        servers = holder.get("servers")
        if isinstance(servers, list) and servers:
            found = memo.get(id(servers)) if memo is not None else None
            if found is not None and found[0] is servers:
                return found[1]
            urls = tuple(url for url in map(_server_url, servers) if url is not None)
            if memo is not None:
                memo[id(servers)] = (servers, urls)
            return urls
    host = root.get("host")
    if "swagger" in root and isinstance(host, str) and host:
        base = root.get("basePath") if isinstance(root.get("basePath"), str) else ""
        schemes = [s for s in root.get("schemes") or ["https"] if s in ("http", "https", "ws", "wss")]
        return tuple(f"{scheme}://{host}{base}" for scheme in schemes or ["https"])
    return ()
