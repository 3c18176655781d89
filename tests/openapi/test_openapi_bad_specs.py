"""Hostile OpenAPI inputs from ``tests/bad_specs/``: each gives its expected SpecError slug, or tools plus
per-operation refusals with their expected slugs (``expected.yaml`` is the table)."""

from __future__ import annotations

from typing import Any

import pytest
import yaml
from locations import TESTS

import toolkit as tk

BAD = TESTS / "bad_specs"
TABLE: dict[str, Any] = yaml.safe_load((BAD / "expected.yaml").read_text(encoding="utf-8"))


def _key(rejection: tk.Rejection) -> str:
    return rejection.operation_id or f"{rejection.method} {rejection.path}".strip()


@pytest.mark.timeout(10)
@pytest.mark.parametrize("name", sorted(n for n, e in TABLE.items() if "error" in e))
def test_unreadable_document_raises_spec_error_with_slug(name: str) -> None:
    with pytest.raises(tk.SpecError) as caught:
        tk.from_openapi(BAD / name, "bad", select="all")
    assert caught.value.slug == TABLE[name]["error"], caught.value.message


@pytest.mark.timeout(10)
@pytest.mark.parametrize("name", sorted(n for n, e in TABLE.items() if "refused" in e))
def test_hostile_operations_are_refused_one_by_one(name: str) -> None:
    toolset = tk.from_openapi(BAD / name, "bad", select="all")
    refused = {_key(r): r.slug for r in toolset.rejected}
    assert refused == TABLE[name]["refused"]
    assert sorted(toolset.names) == sorted(TABLE[name]["tools"])


def test_every_bad_spec_file_has_a_row_in_the_table() -> None:
    files = {p.name for p in BAD.iterdir() if p.name != "expected.yaml"}
    assert files == set(TABLE)


@pytest.mark.timeout(5)
def test_yaml_bomb_is_refused_from_text_too() -> None:
    with pytest.raises(tk.SpecError) as caught:
        tk.from_openapi((BAD / "yaml_bomb.yaml").read_text(encoding="utf-8"), "bad")
    assert caught.value.slug == "yaml_bomb"


def test_collision_message_names_both_operations() -> None:
    toolset = tk.from_openapi(BAD / "names.yaml", "bad", select="all")
    messages = {r.operation_id: r.message for r in toolset.rejected if r.slug == "name_collision"}
    assert "get_user" in messages["getUser"]
    assert "getUser" in messages["get_user"]


def test_duplicate_operation_id_message_names_the_other_location() -> None:
    toolset = tk.from_openapi(BAD / "names.yaml", "bad", select="all")
    (first, second) = [r for r in toolset.rejected if r.slug == "duplicate_operation_id"]
    assert "/d" in first.message
    assert "/c" in second.message


def test_name_too_long_is_refused_not_truncated() -> None:
    toolset = tk.from_openapi(BAD / "names.yaml", "bad", select="all")
    assert all(len(name) <= 128 for name in toolset.names)
    assert not any(name.startswith("bad_aaaa") for name in toolset.names)


def test_remote_ref_is_refused_without_any_fetch(monkeypatch: pytest.MonkeyPatch) -> None:
    import socket

    def no_network(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("a remote $ref must never be fetched")

    monkeypatch.setattr(socket, "create_connection", no_network)
    monkeypatch.setattr(socket.socket, "connect", no_network)
    toolset = tk.from_openapi(BAD / "refs.yaml", "bad", select="all")
    assert {r.slug for r in toolset.rejected if r.operation_id in ("remoteRef", "fileRef")} == {"remote_ref"}


def test_an_operation_written_as_a_reference_to_another_file_is_refused_as_remote_ref_naming_it() -> None:
    # an unbundled root (DigitalOcean's): every operation is `get: {$ref: resources/...yml}`, never read, and no
    # operationId can be seen, yet the refusal is the reference's, not `missing_operation_id`
    for select in ("all", "extension"):
        toolset = tk.from_openapi(BAD / "refs.yaml", "bad", select=select)
        refused = {(r.method, r.path): r for r in toolset.rejected if r.path.startswith("/operation-file-ref")}
        assert {key: r.slug for key, r in refused.items()} == {
            ("GET", "/operation-file-ref"): "remote_ref",
            ("DELETE", "/operation-file-ref"): "remote_ref",
        }
        assert "'resources/apps/apps_list.yml'" in refused["GET", "/operation-file-ref"].message
        assert "'https://specs.example/ops.yaml#/deleteThing'" in refused["DELETE", "/operation-file-ref"].message


def test_recursive_schema_is_cut_with_a_recorded_loss() -> None:
    tool = tk.from_openapi(BAD / "refs.yaml", "bad", select="all")["storeTree"]
    assert "Node" in tool.args_schema["$defs"]
    assert any(loss.keyword == "$ref" for loss in tool.losses)
