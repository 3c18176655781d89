"""Form bodies on the wire: a body object encoded as ``application/x-www-form-urlencoded``, field by field.

Each top-level field is encoded the way its :class:`~toolkit._contract.FormEncoding` (read from the spec's ``encoding``)
says, following OpenAPI's table for query parameters of the same style:

========================  ==========================  ============================  =========================
style, explode            scalar ``5``                array ``[3, 4]``              object ``{"a": 1, "b": 2}``
========================  ==========================  ============================  =========================
form, true (the default)  ``f=5``                     ``f=3&f=4``                   ``a=1&b=2``
form, false               ``f=5``                     ``f=3,4``                     ``f=a,1,b,2``
spaceDelimited, false     ``f=5``                     ``f=3 4``                     ``f=a 1 b 2``
pipeDelimited, false      ``f=5``                     ``f=3|4``                     ``f=a|1|b|2``
deepObject                ``f=5``                     ``f[0]=3&f[1]=4``             ``f[a]=1&f[b]=2``
========================  ==========================  ============================  =========================

``deepObject`` goes to any depth (``f[a][0][b]=x``): the bracket style Stripe declares and reads. A value the
style cannot express (an object inside an array under ``form``) is sent as compact JSON text, as is a field
whose encoding names a JSON ``contentType``. ``true``/``false`` for booleans, ``null`` fields are left out,
an empty array or object sends nothing. Names and values are percent-encoded whole, delimiters and brackets
included, and a space as ``%20`` (never ``+``, which strict readers take for a reserved character).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any
from urllib.parse import quote, urlencode

from toolkit._contract import FormEncoding

__all__ = ["FORM_CONTENT_TYPE", "encode_form", "form_pairs"]

FORM_CONTENT_TYPE = "application/x-www-form-urlencoded"
_DELIMITERS = {"form": ",", "spaceDelimited": " ", "pipeDelimited": "|"}
_DEFAULT = FormEncoding()


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _text(value: Any) -> str:
    """A scalar as form text; an array or object (where the style has no form for it) as JSON text."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict | list):
        return _json(value)
    return str(value)


def _brackets(name: str, value: Any) -> Iterator[tuple[str, str]]:
    if isinstance(value, Mapping):
        for key, item in value.items():
            yield from _brackets(f"{name}[{key}]", item)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _brackets(f"{name}[{index}]", item)
    elif value is not None:
        yield name, _text(value)


def _field(name: str, value: Any, encoding: FormEncoding) -> Iterator[tuple[str, str]]:
    if encoding.json:
        yield name, _json(value)
    elif encoding.style == "deepObject":
        yield from _brackets(name, value)
    elif isinstance(value, list):
        items = [_text(item) for item in value if item is not None]
        if encoding.explode:
            yield from ((name, item) for item in items)
        elif items:
            yield name, _DELIMITERS[encoding.style].join(items)
    elif isinstance(value, Mapping):
        pairs = [(str(key), _text(item)) for key, item in value.items() if item is not None]
        if encoding.explode:
            yield from pairs
        elif pairs:
            yield name, _DELIMITERS[encoding.style].join(part for pair in pairs for part in pair)
    else:
        yield name, _text(value)


def form_pairs(body: Mapping[str, Any], fields: Mapping[str, FormEncoding]) -> list[tuple[str, str]]:
    """The ``(name, value)`` pairs of ``body``, in its field order; ``fields`` maps a field to its encoding."""
    pairs: list[tuple[str, str]] = []
    for name, value in body.items():
        if value is not None:
            pairs.extend(_field(str(name), value, fields.get(str(name), _DEFAULT)))
    return pairs


def encode_form(body: Mapping[str, Any], fields: Mapping[str, FormEncoding]) -> bytes:
    """The request body bytes: :func:`form_pairs` percent-encoded (RFC 3986 unreserved characters kept), ASCII."""
    return urlencode(form_pairs(body, fields), quote_via=quote, safe="").encode("ascii")
