"""Tools written the way each agent framework's users write them: a context parameter, a described schema, a
nested model. The test suites build each with ``toolkit.from_function`` and run it under its framework.

Each framework module imports its framework at the top, so importing it needs that framework installed; the
test modules skip with the reason first. Every module lists its tools in ``CASES``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Case:
    """A framework tool object, the parameters its framework fills, and those the model must be told about."""

    obj: Any
    framework: str
    injected: frozenset[str]
    visible: frozenset[str]


def case(obj: Any, framework: str, injected: set[str], visible: set[str]) -> Case:
    return Case(obj, framework, frozenset(injected), frozenset(visible))
