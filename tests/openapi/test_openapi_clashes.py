"""Parameters that share a name across locations (OpenAPI tells them apart by name *and* location): the
first location of path, query, header keeps the name, the others are prefixed with their location, whatever
the order they are listed in. Clashes within one location stay refusals."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from locations import TESTS

import toolkit as tk

BAD = TESTS / "bad_specs"


def _param(name: str, where: str, **schema: Any) -> dict[str, Any]:
    return {"name": name, "in": where, "required": where == "path", "schema": {"type": "string", **schema}}


def _toolset(parameters: list[dict[str, Any]], *, path: str = "/x/{path}") -> tk.Toolset:
    spec = {
        "openapi": "3.1.0",
        "info": {"title": "t", "version": "1"},
        "paths": {path: {"get": {"operationId": "op", "description": "Proxy.", "parameters": parameters}}},
    }
    return tk.from_openapi(spec, "t", select="all")


PARAMETERS = [_param("path", "path"), _param("path", "query", maxLength=5), _param("path", "header")]


@pytest.mark.parametrize(
    "order", list(itertools.permutations(range(3))), ids=lambda o: "-".join(PARAMETERS[i]["in"] for i in o)
)
def test_location_prefix_does_not_depend_on_parameter_order(order: tuple[int, ...]) -> None:
    tool = _toolset([PARAMETERS[i] for i in order])["op"]
    assert tool.binding == {"path": "path", "query_path": "query.path", "header_path": "header.path"}
    assert tool.args_schema["required"] == ["path"]
    assert tool.args_schema["properties"]["query_path"]["maxLength"] == 5


def test_location_prefix_is_reported_as_a_rename() -> None:
    tool = _toolset(PARAMETERS[:2])["op"]
    (loss,) = [loss for loss in tool.losses if loss.keyword == "name"]
    assert (loss.path, loss.value) == ("/properties/query_path", "path")
    assert "another location" in loss.reason


def test_losses_of_a_prefixed_parameter_point_at_its_new_name() -> None:
    choice = {"oneOf": [{"type": "object", "properties": {"kind": {"type": "string"}}}], "discriminator": {}}
    query = {"name": "path", "in": "query", "schema": choice}
    tool = _toolset([_param("path", "path"), query])["op"]
    pointers = {loss.path for loss in tool.contract.source_losses if loss.keyword == "discriminator"}
    assert pointers == {"/properties/query_path"}


def test_query_and_header_clash_without_a_path_parameter() -> None:
    tool = _toolset([_param("X-Trace", "header"), _param("x_trace", "query")], path="/x")["op"]
    assert tool.binding == {"x_trace": "query", "header_x_trace": "header.X-Trace"}


def test_clash_within_one_location_is_still_refused() -> None:
    toolset = _toolset([_param("path", "path"), _param("a[b]", "query"), _param("a_b", "query")])
    assert [r.slug for r in toolset.rejected] == ["argument_collision"]


def test_prefixed_name_that_is_taken_is_refused_in_either_order() -> None:
    parameters = [_param("path", "path"), _param("path", "query"), _param("query_path", "query")]
    for order in itertools.permutations(parameters):
        assert [r.slug for r in _toolset(list(order)).rejected] == ["argument_collision"]


def test_prefixed_name_over_64_characters_is_refused() -> None:
    name = "p" * 60
    toolset = _toolset([_param(name, "path"), _param(name, "query")], path=f"/x/{{{name}}}")
    assert [r.slug for r in toolset.rejected] == ["argument_collision"]


def test_bad_spec_path_and_query_share_a_name() -> None:
    tool = tk.from_openapi(BAD / "arguments.yaml", "bad", select="all")["pathAndQuery"]
    assert tool.binding == {"query_id": "query.id", "id": "path"}
