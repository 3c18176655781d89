"""Loading OpenAPI documents: sources, YAML safety, fragments, versions and pinning.

Internals: ``_openapi._load.load_document`` and ``_pin.pin``, the loader and pinning under test."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import toolkit as tk
from toolkit._openapi._load import load_document
from toolkit._openapi._pin import pin

OPERATION = {
    "operationId": "ping",
    "description": "Check the service is up.",
    "responses": {"200": {"description": "ok"}},
}
SPEC = {"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {"/ping": {"get": OPERATION}}}


def test_dict_json_text_yaml_text_bytes_and_path_give_the_same_tools(tmp_path: Path) -> None:
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(SPEC), encoding="utf-8")
    import yaml

    sources = [SPEC, json.dumps(SPEC), yaml.safe_dump(SPEC), json.dumps(SPEC).encode(), path, str(path)]
    names = {tk.from_openapi(s, "svc", select="all").names for s in sources}
    assert names == {("svc_ping",)}


def test_integer_response_codes_become_string_keys() -> None:
    text = "openapi: 3.0.0\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    get:\n"
    doc = load_document(text + "      responses:\n        200: {description: ok}\n")
    assert list(doc.root["paths"]["/a"]["get"]["responses"]) == ["200"]


def test_yaml_dates_stay_strings() -> None:
    doc = load_document("openapi: 3.1.0\ninfo: {title: t, version: 2024-01-31}\npaths: {}\n")
    assert doc.root["info"]["version"] == "2024-01-31"
    assert (
        tk.from_openapi("openapi: 3.1.0\ninfo: {title: t, version: 2024-01-31}\npaths: {}\n", "x").source["version"]
        == "2024-01-31"
    )


@pytest.mark.parametrize(
    ("version", "major"),
    [("3.0.3", "3.0"), ("3.1.0", "3.1"), ("3.2.0", "3.1")],
    ids=["3.0", "3.1", "3.2-read-as-3.1"],
)
def test_openapi_versions_are_recognised(version: str, major: str) -> None:
    assert load_document({**SPEC, "openapi": version}).major == major


def test_swagger_2_is_recognised() -> None:
    doc = load_document({"swagger": "2.0", "info": {"title": "t", "version": "1"}, "paths": {}})
    assert (doc.version, doc.major) == ("2.0", "2")


def test_fragment_of_one_path_item_builds_a_tool() -> None:
    text = "get:\n  operationId: getThing\n  description: Get a thing.\n"
    text += "  parameters:\n    - {name: id, in: query, schema: {type: string}}\n"
    toolset = tk.from_openapi(text, "things", select="all")
    assert toolset.names == ("things_get_thing",)
    assert toolset.source["openapi"] == "fragment"


def test_fragment_of_paths_and_components_resolves_refs() -> None:
    fragment = {
        "paths": {
            "/things/{id}": {
                "get": {**OPERATION, "operationId": "getThing", "parameters": [{"$ref": "#/components/parameters/Id"}]}
            }
        },
        "components": {
            "parameters": {"Id": {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}}
        },
    }
    tool = tk.from_openapi(fragment, "things", select="all")["getThing"]
    assert tool.binding == {"id": "path"}


def test_fragment_of_a_paths_map_builds_a_tool() -> None:
    toolset = tk.from_openapi({"/ping": {"get": OPERATION}}, "svc", select="all")
    assert toolset.names == ("svc_ping",)


def test_missing_file_is_a_spec_error() -> None:
    with pytest.raises(tk.SpecError) as caught:
        tk.from_openapi("no/such/spec.yaml", "x")
    assert caught.value.slug == "not_found"


def test_provenance_records_path_digest_version_title_and_operation_count(repo_root: Path) -> None:
    source = tk.from_openapi(repo_root / "specs" / "orders.yaml", "orders").source
    lock = json.loads((repo_root / "specs" / "specs.lock.json").read_text(encoding="utf-8"))
    assert source["sha256"] == lock["orders.yaml"]["sha256"]
    assert (source["openapi"], source["title"], source["version"], source["operations"]) == (
        "3.0.3",
        "Orders API",
        "1.2.0",
        6,
    )
    assert source["path"].endswith("orders.yaml")


def test_every_pinned_spec_matches_its_lock_entry(repo_root: Path) -> None:
    specs = repo_root / "specs"
    lock = json.loads((specs / "specs.lock.json").read_text(encoding="utf-8"))
    files = {p.name for p in specs.iterdir() if p.suffix in (".yaml", ".yml", ".json") and p.name != "specs.lock.json"}
    assert files == set(lock)
    for name in files:
        assert load_document(specs / name).sha256 == lock[name]["sha256"]


def test_changed_pinned_spec_fails_naming_both_digests(repo_root: Path, tmp_path: Path) -> None:
    spec = tmp_path / "orders.yaml"
    shutil.copy(repo_root / "specs" / "orders.yaml", spec)
    pinned = pin(spec)["orders.yaml"]["sha256"]
    spec.write_text(spec.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    with pytest.raises(tk.ChecksumMismatch) as caught:
        tk.from_openapi(spec, "orders")
    assert pinned in caught.value.message
    assert load_document.__module__  # the module stays importable after the failure
    import hashlib

    assert hashlib.sha256(spec.read_bytes()).hexdigest() in caught.value.message


def test_repinning_accepts_the_new_bytes(repo_root: Path, tmp_path: Path) -> None:
    spec = tmp_path / "orders.yaml"
    shutil.copy(repo_root / "specs" / "orders.yaml", spec)
    pin(spec)
    spec.write_text(spec.read_text(encoding="utf-8").replace("1.2.0", "1.3.0"), encoding="utf-8")
    pin(spec)
    assert tk.from_openapi(spec, "orders").source["version"] == "1.3.0"


@pytest.mark.parametrize(
    "text",
    ['{"a": ' * 50_000 + "1" + "}" * 50_000, "a:\n" + "".join(" " * i + "- \n" for i in range(1, 3000))],
    ids=["json", "yaml"],
)
def test_absurdly_deep_nesting_is_a_spec_error_not_a_crash(text: str) -> None:
    with pytest.raises(tk.SpecError) as caught:
        tk.from_openapi(text, "x")
    assert caught.value.slug in ("too_deep", "parse_error", "not_openapi")


def test_overrides_text_that_is_too_long_for_a_path_is_read_as_yaml(repo_root: Path) -> None:
    overrides = "getOrder: {description: " + "x" * 5000 + "}"
    tool = tk.from_openapi(repo_root / "specs" / "orders.yaml", "orders", overrides=overrides)["getOrder"]
    assert tool.description == "x" * 5000
