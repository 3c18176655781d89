"""Operations that share one operationId: refused, with the overrides entry that builds them; the overrides
name operations by method and path (``"GET /a": true``) to keep one mount, or several under their own names.

Temporal's description mounts each of its operations twice (``/api/v1/...`` and the bare path, one
operationId): with one overrides entry per operation it builds."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

import toolkit as tk


def _op(op_id: str, **extra: Any) -> dict[str, Any]:
    return {"operationId": op_id, "description": f"Do {op_id}.", "responses": {"200": {"description": "ok"}}, **extra}


_ID = {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}
_BODY = {"content": {"application/json": {"schema": {"type": "object", "properties": {"note": {"type": "string"}}}}}}


def _spec() -> dict[str, Any]:
    """``getThing`` mounted twice as the same operation; ``moveThing`` at two paths that take other parameters."""
    paths = {
        "/api/v1/things/{id}": {"get": _op("getThing", parameters=[_ID])},
        "/things/{id}": {"get": _op("getThing", parameters=[_ID])},
        "/things/{id}/move": {"post": _op("moveThing", parameters=[_ID], requestBody=_BODY)},
        "/moves": {"post": _op("moveThing", requestBody=_BODY)},
        "/other": {"get": _op("other")},
    }
    return {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": paths}


def _refused(toolset: tk.Toolset) -> dict[str, str]:
    return {f"{r.method} {r.path}": r.slug for r in toolset.rejected}


def test_duplicates_are_refused_and_the_same_operation_mounted_twice_is_said_with_the_entry_to_write() -> None:
    toolset = tk.from_openapi(_spec(), "t", select="all")
    assert toolset.names == ("t_other",)
    assert set(_refused(toolset).values()) == {"duplicate_operation_id"}
    messages = {f"{r.method} {r.path}": r.message for r in toolset.rejected}
    twin = messages["GET /things/{id}"]
    assert "GET /api/v1/things/{id} is this same operation mounted again (the same parameters and body)" in twin
    assert twin.endswith('"GET /api/v1/things/{id}": true')  # the exact entry: the first mount, kept
    assert messages["GET /api/v1/things/{id}"].endswith('"GET /api/v1/things/{id}": true')
    moved = messages["POST /moves"]
    assert "mounted again" not in moved  # other parameters: not the same operation
    assert '"POST /moves": true' in moved
    assert '"POST /moves": {name: ...}' in moved


def test_an_override_keyed_by_method_and_path_keeps_that_mount_and_leaves_the_others_out() -> None:
    toolset = tk.from_openapi(_spec(), "t", select="all", overrides={"get /api/v1/things/{id}": True})
    assert toolset.names == ("t_get_thing", "t_other")
    assert toolset["t_get_thing"].path == "/api/v1/things/{id}"
    left = {f"{r.method} {r.path}": r.message for r in toolset.rejected if r.operation_id == "getThing"}
    assert list(left) == ["GET /things/{id}"]
    assert "left out: the overrides keep GET /api/v1/things/{id}" in left["GET /things/{id}"]
    assert _refused(toolset)["POST /moves"] == "duplicate_operation_id"  # no entry for moveThing: still refused


def test_overrides_keyed_by_method_and_path_rename_each_mount_and_carry_their_options() -> None:
    overrides = """
    POST /things/{id}/move: {name: t_move_thing}
    POST /moves: {name: t_move_new, description: Move a new thing., confirm: false}
    moveThing: {policy: {enum_case: insensitive}}
    """
    toolset = tk.from_openapi(_spec(), "t", overrides=overrides)  # naming them by location selects them
    assert toolset.names == ("t_move_thing", "t_move_new")
    assert toolset.rejected == ()
    new = toolset["t_move_new"]
    assert (new.path, new.description, new.confirm) == ("/moves", "Move a new thing.", False)
    assert new.binding == {"note": "body.note"}
    assert toolset["t_move_thing"].binding == {"id": "path", "note": "body.note"}
    assert {t.policy.enum_case for t in toolset} == {"insensitive"}  # the operationId's options, under each


def test_two_kept_mounts_with_one_name_are_a_name_collision() -> None:
    overrides = {"POST /things/{id}/move": True, "POST /moves": True}
    toolset = tk.from_openapi(_spec(), "t", overrides=overrides)
    assert toolset.names == ()
    assert set(_refused(toolset).items()) == {
        ("POST /things/{id}/move", "name_collision"),
        ("POST /moves", "name_collision"),
    }


def test_a_location_the_document_does_not_have_is_an_unknown_operation() -> None:
    toolset = tk.from_openapi(_spec(), "t", overrides={"DELETE /things/{id}": True, "GET /thing/{id}": True})
    assert _refused(toolset) == {"DELETE /things/{id}": "unknown_operation", "GET /thing/{id}": "unknown_operation"}
    assert "no operation at DELETE /things/{id}" in toolset.rejected[0].message


@pytest.mark.parametrize("key", ["GET/other", "FETCH /other", "GET other"])
def test_a_key_that_is_not_a_method_and_a_path_is_read_as_an_operation_id(key: str) -> None:
    toolset = tk.from_openapi(_spec(), "t", overrides={key: True})
    assert [(r.operation_id, r.slug) for r in toolset.rejected] == [(key, "unknown_operation")]


# -- Temporal: 226 operations, each mounted twice under one operationId ------------------------------------------
def _mounts(path: Path) -> dict[str, list[str]]:
    """Each operationId's locations, in document order."""
    document = yaml.safe_load(path.read_text(encoding="utf-8"))
    mounts: dict[str, list[str]] = {}
    for where, item in document["paths"].items():
        for method, operation in item.items():
            if isinstance(operation, dict) and "operationId" in operation:
                mounts.setdefault(operation["operationId"], []).append(f"{method.upper()} {where}")
    return mounts


@pytest.mark.corpus
@pytest.mark.timeout(120)
def test_temporal_builds_with_one_entry_per_operation_keyed_by_method_and_path(corpus_dir: Path) -> None:
    spec = corpus_dir / "temporal-3.0.yaml"
    mounts = _mounts(spec)
    assert (sum(len(m) for m in mounts.values()), len(mounts)) == (226, 105)
    plain = tk.from_openapi(spec, "temporal", select="all")
    assert len(plain.tools) == 0
    assert Counter(r.slug for r in plain.rejected) == {"duplicate_operation_id": 226}
    assert sum("this same operation mounted again" in r.message for r in plain.rejected) == 226

    keep_first = {locations[0]: True for locations in mounts.values()}  # the /api/v1/... mount of each
    kept = tk.from_openapi(spec, "temporal", select="all", overrides=keep_first)
    assert sorted(t.operation_id or "" for t in kept) == sorted(mounts)
    assert {f"{t.method} {t.path}" for t in kept} == set(keep_first)
    assert Counter(r.slug for r in kept.rejected) == {"duplicate_operation_id": 226 - 105}
    assert all("left out: the overrides keep" in r.message for r in kept.rejected)

    each = {
        location: {"name": f"temporal_{op_id}_{index}"}
        for op_id, locations in mounts.items()
        for index, location in enumerate(locations)
    }
    every = tk.from_openapi(spec, "temporal", overrides=each)
    assert len(every.tools) == 226
    assert every.rejected == ()
