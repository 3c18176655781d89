"""The same TypedDict shapes twice: with the standard library's ``typing.TypedDict`` (which pydantic refuses
before Python 3.12) in :mod:`.stdlib`, and with ``typing_extensions.TypedDict`` (the oracle) in :mod:`.twins`.
Both modules use ``from __future__ import annotations``, under which Python 3.11 computes ``__required_keys__``
from strings and gets ``Required``/``NotRequired`` wrong."""
