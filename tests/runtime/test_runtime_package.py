"""The ``toolkit.runtime`` surface: sorted, complete, and light to import."""

from __future__ import annotations

import subprocess
import sys

import pytest

import toolkit.runtime as runtime


def test_all_is_sorted_and_every_name_resolves() -> None:
    assert runtime.__all__ == sorted(runtime.__all__)
    for name in runtime.__all__:
        assert getattr(runtime, name) is not None, name
    assert set(runtime.__all__) <= set(dir(runtime))


def test_import_loads_neither_pandas_nor_the_runtime_modules() -> None:
    """Generated modules import ``toolkit.runtime.http``; that must not pay for the ledger or executor."""
    code = (
        "import sys, toolkit.runtime\n"
        "loaded = [m for m in sys.modules if m == 'pandas' or m.startswith('toolkit.runtime.')]\n"
        "print(','.join(sorted(loaded)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="Ledgr"):
        runtime.Ledgr  # type: ignore[attr-defined]  # noqa: B018
