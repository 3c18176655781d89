"""How each field of a form body is encoded: the spec's ``encoding`` read into
:class:`~toolkit._contract.FormEncoding` settings, once, while the tool is built.

OpenAPI says a field of an ``application/x-www-form-urlencoded`` body is encoded like a query parameter of
the same ``style`` and ``explode`` (default ``form``, exploded); ``deepObject`` is read as the bracket style
at any depth (``a[b][c]=``, ``a[0]=``), which is what Stripe declares and sends. A ``contentType`` naming JSON
sends the field's value as JSON text. Anything else in an encoding entry (``headers``, ``allowReserved``) has
no effect on a form. The runtime's encoder is :mod:`toolkit.runtime.forms`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, get_args

from toolkit._contract import FormEncoding, FormStyle
from toolkit._openapi._definitions import Resolver
from toolkit._openapi._refusal import Refusal

__all__ = ["FORM_MEDIA", "form_fields"]

FORM_MEDIA = "application/x-www-form-urlencoded"
_STYLES = frozenset(get_args(FormStyle))


def form_fields(media: Mapping[str, Any], resolver: Resolver) -> dict[str, FormEncoding]:
    """The encoding of each field the media type object's ``encoding`` names (the others use the default)."""
    encoding = resolver.deref(media.get("encoding") or {})
    if not isinstance(encoding, Mapping):
        raise Refusal("bad_request_body", "the form's `encoding` is not a map of field names to encoding objects")
    fields: dict[str, FormEncoding] = {}
    for name, raw in encoding.items():
        entry = resolver.deref(raw)
        if not isinstance(entry, Mapping):
            raise Refusal("bad_request_body", f"the encoding of form field {name!r} is not an object")
        style = entry.get("style", "form")
        if style not in _STYLES:
            raise Refusal(
                "bad_request_body",
                f"form field {name!r} has style {style!r}; a form field's style is one of {sorted(_STYLES)}",
            )
        explode = entry.get("explode", style == "form")
        if not isinstance(explode, bool):
            raise Refusal("bad_request_body", f"the encoding of form field {name!r} has a non-boolean `explode`")
        content_type = entry.get("contentType")
        as_json = isinstance(content_type, str) and "json" in content_type.lower()
        fields[str(name)] = FormEncoding(style=style, explode=explode, json=as_json)
    return fields
