"""The fixture itself: one call to fire at a tool and the verdict its contract predicts; user fixtures from files.

User fixtures (rejected payloads promoted from production logs) load from YAML or JSON with
:func:`load_fixtures`: a list of ``{id, args, expected, why}`` (``family`` optional, default ``"user"``;
``field`` optional).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from os import PathLike
from pathlib import Path
from typing import Any, Literal

from toolkit._display import Displayable, displayed_by
from toolkit._display._reports import FIXTURE_RENDERER
from toolkit._exceptions import FixtureFileError, ToolkitError

__all__ = ["EXPECTED", "Expected", "Fixture", "Fixtures", "load_fixtures"]

Expected = Literal["accept", "accept_with_notice", "reject"]
EXPECTED: tuple[str, ...] = ("accept", "accept_with_notice", "reject")


@displayed_by(FIXTURE_RENDERER)
@dataclass(frozen=True, slots=True)
class Fixture(Displayable):
    """One call to fire at a tool: its ``args`` (a dict, or raw JSON text) and the verdict the contract predicts.

    ``field`` is the path of the value the fixture changed, written as the envelope writes ``errors[].field``
    (``limit``, ``address.postcode``, ``lines[0].sku``); empty for whole-call fixtures and user fixtures.
    """

    id: str
    family: str
    args: Any
    expected: Expected
    why: str
    field: str = ""

    def to_dict(self) -> dict[str, Any]:
        out = {"id": self.id, "family": self.family, "args": self.args, "expected": self.expected, "why": self.why}
        return out | ({"field": self.field} if self.field else {})


class Fixtures(list[Fixture]):
    """A list of fixtures that also says what it had to skip (``skipped``: one sentence per gap) and how many
    nested-field fixtures it holds out of how many were possible (``nested``: ``(generated, possible)``)."""

    skipped: tuple[str, ...] = ()
    nested: tuple[int, int] = (0, 0)


def _read(path: Path) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise FixtureFileError(f"cannot read fixtures file {path}: {exc.strerror}") from None
    try:
        if path.suffix.lower() == ".json":
            return json.loads(text)
        # PyYAML loads only when YAML text is read.
        import yaml

        return yaml.safe_load(text)
    except ValueError as exc:  # json.JSONDecodeError; a YAML error is handled by the caller
        raise FixtureFileError(f"{path} is not valid JSON: {exc}") from None


def load_fixtures(path: str | PathLike[str]) -> list[Fixture]:
    """User fixtures from a YAML or JSON file: a list of ``{id, args, expected, why}`` (``family`` optional)."""
    where = Path(path)
    try:
        data = _read(where)
    except ToolkitError:
        raise
    except Exception as exc:  # yaml.YAMLError
        raise FixtureFileError(f"{where} is not valid YAML: {exc}") from None
    if isinstance(data, dict) and isinstance(data.get("fixtures"), list):
        data = data["fixtures"]
    if not isinstance(data, list):
        message = f"{where} must hold a list of fixtures, each {{id, args, expected, why}}"
        raise FixtureFileError(message)
    out: list[Fixture] = []
    for i, entry in enumerate(data):
        if not isinstance(entry, dict) or not {"id", "args", "expected"} <= set(entry):
            raise FixtureFileError(f"{where}: fixture #{i} needs id, args and expected")
        if entry["expected"] not in EXPECTED:
            raise FixtureFileError(
                f"{where}: fixture {entry['id']!r} expects {entry['expected']!r}; use one of {', '.join(EXPECTED)}"
            )
        family, why, field = (str(entry.get(k, d)) for k, d in (("family", "user"), ("why", ""), ("field", "")))
        out.append(Fixture(str(entry["id"]), family, entry["args"], entry["expected"], why, field))
    return out
