"""The command line names an operation by method and path: in the overrides file (``--overrides``) to keep one
of the operations that share an operationId, and in ``--op`` to pick a tool."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from toolkit.cli import main

_LIST = {"operationId": "listThings", "description": "List things.", "responses": {"200": {"description": "ok"}}}
_SPEC = {
    "openapi": "3.0.3",
    "info": {"title": "t", "version": "1"},
    "paths": {f"{prefix}/things": {"get": _LIST} for prefix in ("/api/v1", "")},
}


def test_lower_keeps_the_mount_the_overrides_name_and_op_picks_it_by_location(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    spec, overrides = tmp_path / "things.yaml", tmp_path / "keep.yaml"
    spec.write_text(yaml.safe_dump(_SPEC), encoding="utf-8")
    overrides.write_text('"GET /api/v1/things": true\n', encoding="utf-8")
    assert main(["lower", str(spec), "--all", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == []  # both mounts refused: duplicate_operation_id
    assert main(["lower", str(spec), "--overrides", str(overrides), "--op", "get /api/v1/things", "--json"]) == 0
    [record] = json.loads(capsys.readouterr().out)
    assert record["name"] == "things_list_things"
    assert main(["lower", str(spec), "--overrides", str(overrides), "--op", "GET /things", "--json"]) == 2
    assert "no operation or tool named 'GET /things'" in capsys.readouterr().err
