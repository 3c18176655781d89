"""``benchmarks/bench_openapi.py`` says why a run failed: the exception raised, not the last line of its text."""

from __future__ import annotations

from types import ModuleType

import pytest
from locations import REPO
from module_support import load_module

SCRIPT = REPO / "benchmarks" / "bench_openapi.py"

PYDANTIC = """Traceback (most recent call last):
  File "adk.py", line 3, in <module>
    toolset.get_tools()
pydantic_core._pydantic_core.ValidationError: 6 validation errors for Operation
parameters.1.Parameter.in
  Input should be 'query', 'header', 'path' or 'cookie' [type=literal_error, input_value='body']
    For further information visit https://errors.pydantic.dev/2.14/v/literal_error
"""


def _script() -> ModuleType:
    return load_module("bench_openapi", SCRIPT)


@pytest.mark.parametrize(
    ("stderr", "said"),
    [
        (
            PYDANTIC,
            "pydantic_core._pydantic_core.ValidationError: 6 validation errors for Operation / "
            "parameters.1.Parameter.in / Input should be 'query', 'header', 'path' or 'cookie'",
        ),
        ("Traceback (most recent call last):\n  ...\nMemoryError\n", "MemoryError"),
        ("Killed\n", "Killed"),
        ("", "?"),
    ],
    ids=["pydantic-details", "bare-exception", "no-exception", "silent"],
)
def test_a_failure_names_what_was_raised(stderr: str, said: str) -> None:
    assert _script().failure(stderr).startswith(said)
