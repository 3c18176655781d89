"""The declaration and the validator agree: a value the lowered declaration offers is not refused as malformed.

The model sees the *lowered* declaration; the validator reads the full ``args_schema``. Where lowering has to
rewrite a keyword rather than drop it, the two could disagree. Each rewrite, and what the validator does:

* non-string ``enum``/``const`` members are declared as strings on a ``STRING`` node (``[1, 2]`` →
  ``["1", "2"]``): the validator reads the declared string back as the member, with a ``coerced_enum``
  notice — checked here for every enum member of every tool;
* ``[T, "null"]``, ``anyOf [T, null]`` and a ``null`` enum member → ``nullable``: the validator accepts
  ``null`` there — checked here for every nullable node;
* ``allOf`` merged, identical ``anyOf`` branches collapsed, untyped nodes offered as ``anyOf`` of
  STRING/NUMBER/BOOLEAN/OBJECT: the declaration says *less* than the schema (the losses say what), so
  nothing it offers is refused on that account;
* ``exclusiveMinimum``/``exclusiveMaximum`` without an inclusive bound are declared as the inclusive bound:
  the bound itself is offered and refused (``out_of_range``). The loss says so; it cannot be read back
  without breaking the real constraint. Checked below: every declared bound the validator refuses has
  such a loss;
* a null-only node (``{type: null}``, ``const: null``) is declared as a nullable ``STRING``: any string is
  offered and only ``null`` is accepted (the loss says so; there is no member to read a string back as);
* OpenAPI's ``nullable: true`` is declared as ``nullable``, and a ``readOnly`` property is left out of the
  declaration and its ``required``: the validator honours both (tests below);
* ``allOf`` members merged into one object, when one member says ``additionalProperties: false``, offer
  fields the schema refuses; ``prefixItems`` are declared as one ``items`` union, so items in another order
  are offered and refused. Both are recorded as losses; the validator keeps the schema's meaning.

Internals: ``build_tool``, ``enum_text``, ``declared_strings`` and ``_expected`` (``Loc``, ``format_path``), to
compare what the declaration offers with what the validator says.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest
from function_catalogue import CASES

import toolkit as tk
from toolkit import Policy, Tool, ToolContract, ToolResult, fire, fixtures
from toolkit._lowering.gemini import enum_text
from toolkit._tool import build_tool
from toolkit._validation._expected import Loc, format_path

Path_ = tuple[str | int, ...]
_ANCESTOR_CODES = frozenset({"no_branch_matched", "ambiguous"})


LEVEL = {"type": "integer", "enum": [1, 2, 3]}


def make_tool(properties: dict[str, Any], required: Iterable[str] = (), **policy: Any) -> Tool:
    schema = {
        "type": "object",
        "properties": properties,
        "required": list(required),
        "additionalProperties": False,
        "$defs": {"Level": LEVEL},
    }
    contract = ToolContract(name="t", description="A test tool.", args_schema=schema)
    return build_tool(contract, policy=Policy(**policy))


# -- the declared string of a non-string member is read back ------------------------------------------------
@pytest.mark.parametrize(
    ("schema", "sent", "cleaned"),
    [
        pytest.param({"type": "integer", "enum": [1, 2, 3]}, "2", 2, id="integer-enum"),
        pytest.param({"type": "number", "enum": [0.5, 1.5]}, "1.5", 1.5, id="number-enum"),
        pytest.param({"type": "boolean", "const": True}, "true", True, id="boolean-const"),
        pytest.param({"const": 7}, "7", 7, id="untyped-integer-const"),
        pytest.param({"enum": ["a", 1]}, "1", 1, id="mixed-enum"),
        pytest.param({"anyOf": [{"type": "integer", "enum": [1, 2]}, {"type": "null"}]}, "1", 1, id="nullable-enum"),
        pytest.param({"type": ["integer", "null"], "enum": [1, 2, None]}, "2", 2, id="null-member"),
        pytest.param({"type": "integer", "allOf": [{"enum": [1, 2]}]}, "1", 1, id="enum-in-allOf"),
        pytest.param({"oneOf": [{"const": 1}, {"const": 2}]}, "2", 2, id="oneOf-of-consts"),
        pytest.param({"$ref": "#/$defs/Level"}, "3", 3, id="enum-behind-ref"),
        pytest.param({"type": "array", "items": {"type": "integer", "enum": [1, 2]}}, ["1", 2], [1, 2], id="items"),
        pytest.param({"const": {"a": 1}}, '{"a": 1}', {"a": 1}, id="object-const"),
    ],
)
def test_the_declared_string_of_a_member_is_read_back_with_a_notice(schema: Any, sent: Any, cleaned: Any) -> None:
    result = make_tool({"v": schema}).validate({"v": sent})
    assert result.status == "ok", result.errors
    assert result.data == {"v": cleaned}
    assert type(result.data["v"]) is type(cleaned)
    assert [n.action for n in result.notices] == ["coerced_enum"]


def test_the_notice_names_both_forms() -> None:
    (notice,) = make_tool({"level": {"type": "integer", "enum": [1, 2, 3]}}).validate({"level": "2"}).notices
    assert (notice.field, notice.action, notice.from_, notice.to) == ("level", "coerced_enum", "2", 2)
    assert notice.message.startswith('"2" read as 2')


@pytest.mark.parametrize(
    ("schema", "sent", "code"),
    [
        pytest.param({"type": "integer"}, "10", "wrong_type", id="numeric-string-for-plain-integer"),
        pytest.param({"type": "integer", "enum": [1, 2, 3]}, "5", "wrong_type", id="undeclared-string"),
        pytest.param({"type": "integer", "enum": [1, 2, 3]}, "2.0", "wrong_type", id="other-spelling"),
        pytest.param({"type": "integer", "enum": [1, 2, 3]}, " 2", "wrong_type", id="padded"),
        pytest.param({"type": "boolean"}, "true", "wrong_type", id="plain-boolean"),
        pytest.param({"type": "boolean", "const": True}, "True", "wrong_type", id="python-spelling"),
        pytest.param({"type": ["integer", "null"], "enum": [1, None]}, "null", "wrong_type", id="null-is-not-text"),
        pytest.param({"type": "integer", "enum": [1, 2, 3], "minimum": 2}, "1", "out_of_range", id="read-then-checked"),
    ],
)
def test_everything_else_stays_strict(schema: Any, sent: Any, code: str) -> None:
    result = make_tool({"v": schema}).validate({"v": sent})
    assert [(e.field, e.code) for e in result.errors] == [("v", code)]


def test_a_branch_that_takes_the_string_as_it_is_wins() -> None:
    tool = make_tool({"v": {"anyOf": [{"type": "integer", "enum": [1, 2]}, {"type": "string"}]}})
    result = tool.validate({"v": "1"})
    assert (result.data, result.notices) == ({"v": "1"}, ())


def test_a_string_member_is_never_coerced() -> None:
    result = make_tool({"v": {"enum": ["1", 1]}}).validate({"v": "1"})
    assert (result.data, result.notices) == ({"v": "1"}, ())


def test_the_expected_phrase_shows_the_declared_strings() -> None:
    result = make_tool({"v": {"type": "integer", "enum": [1, 2, 3]}}).validate({"v": 9})
    assert result.errors[0].expected == 'one of: 1, 2, 3 (or the strings "1", "2", "3")'
    result = make_tool({"v": {"type": "boolean", "const": True}}).validate({"v": False})
    assert result.errors[0].expected == 'exactly true (or the string "true")'


def test_fixtures_predict_the_declared_string_is_accepted_with_a_notice() -> None:
    tool = make_tool({"level": {"type": "integer", "enum": [1, 2, 3]}, "on": {"const": True}}, ["level"])
    found = {f.id: (f.args, f.expected) for f in fixtures(tool) if f.family == "enum_declared_string"}
    assert found == {
        "level.enum_declared_string": ({"level": "1", "on": True}, "accept_with_notice"),
        "on.enum_declared_string": ({"level": 1, "on": "true"}, "accept_with_notice"),
    }
    assert fire(tool).passed


# -- walking the lowered declaration -------------------------------------------------------------------------
def offered(node: Any, path: Path_ = (), branched: bool = False) -> Iterator[tuple[Path_, str, Any, bool]]:
    """``(path, kind, value, branched)`` for every value the lowered declaration names: enum members, null,
    bounds; ``branched`` says the path runs through a union of containers (which branch is not known)."""
    if not isinstance(node, dict):
        return
    for branch in node.get("anyOf") or ():
        yield from offered(branch, path, branched or len(node["anyOf"]) > 1)
    if node.get("nullable") is True:
        yield path, "null", None, branched
    for member in node.get("enum") or ():
        yield path, "enum", member, branched
    kind = node.get("type")
    for bound in ("minimum", "maximum"):
        if kind in ("INTEGER", "NUMBER") and isinstance(node.get(bound), int | float):
            yield path, bound, node[bound], branched
    for name, sub in (node.get("properties") or {}).items():
        yield from offered(sub, (*path, name), branched)
    if kind == "ARRAY":
        yield from offered(node.get("items"), (*path, 0), branched)


def place(base: Any, path: Path_, value: Any) -> Any:
    """``base`` with ``value`` at ``path`` (containers made where ``base`` has none; an array gets one item)."""
    if not path:
        return value
    head, rest = path[0], path[1:]
    if isinstance(head, int):
        inner = base[0] if isinstance(base, list) and base else None
        return [place(inner, rest, value)]
    container = dict(base) if isinstance(base, dict) else {}
    container[head] = place(container.get(head), rest, value)
    return container


def field_of(path: Path_) -> str:
    loc: Loc = None
    for part in path:
        loc = (loc, part)
    return format_path(loc)


def present(base: Any, path: Path_) -> bool:
    """Whether the valid baseline already has a value at ``path`` (its surroundings are then valid too)."""
    for part in path:
        if isinstance(part, int):
            if not isinstance(base, list) or not base:
                return False
            base = base[0]
        elif isinstance(base, dict) and part in base:
            base = base[part]
        else:
            return False
    return True


def refusals_at(result: ToolResult, field: str, ancestors: bool) -> list[str]:
    """Error codes on ``field`` itself, and (``ancestors``) on an enclosing union that found no branch.

    A union's refusal counts only when the rest of the value is the valid baseline and the value belongs to
    no particular branch: a member placed into an object whose required siblings are missing, or into the
    baseline's branch when another branch offered it, fails the union for reasons of its own. For the same
    reason, a field placed into the baseline's branch when another branch declared it is that branch's
    ``unknown_property`` (objects are closed): it counts only where the placement is conclusive.
    """
    out = []
    for error in result.errors:
        ancestor = field.startswith((f"{error.field}.", f"{error.field}[")) or (error.field == "" and field)
        if error.field == field and error.code == "unknown_property" and not ancestors:
            continue
        if error.field == field or (ancestors and ancestor and error.code in _ANCESTOR_CODES):
            out.append(f"{error.code}: {error.problem}")
    return out


def disagreements(tool: Tool) -> tuple[list[str], list[str]]:
    """Declared values the validator refuses: (enum members and nulls, declared bounds)."""
    if tool.parameters is None:
        return [], []
    base = next((f.args for f in fixtures(tool) if f.id == "valid.baseline"), {})
    hard: list[str] = []
    bounds: list[str] = []
    for path, kind, value, branched in offered(tool.parameters):
        field = field_of(path)
        conclusive = present(base, path) and not branched
        refused = refusals_at(tool.validate(place(base, path, value)), field, conclusive)
        if refused:
            line = f"{tool.name} {field} {kind} {value!r}: {refused}"
            (bounds if kind in ("minimum", "maximum") else hard).append(line)
    return hard, bounds


def assert_agree(tools: Iterable[Tool]) -> int:
    """No enum member or null the declaration offers is refused; a refused bound comes with its loss."""
    checked = 0
    for tool in tools:
        hard, bounds = disagreements(tool)
        assert hard == []
        exclusive = {loss.keyword for loss in tool.losses} & {"exclusiveMinimum", "exclusiveMaximum"}
        assert bounds == [] or exclusive, bounds
        checked += 1
    return checked


def test_the_walk_finds_what_the_declaration_offers() -> None:
    tool = make_tool(
        {
            "level": {"type": "integer", "enum": [1, 2]},
            "note": {"anyOf": [{"type": "string"}, {"type": "null"}]},
            "lines": {
                "type": "array",
                "items": {"type": "object", "properties": {"qty": {"type": "integer", "maximum": 9}}},
            },
        }
    )
    assert [found[:3] for found in offered(tool.parameters)] == [
        (("level",), "enum", "1"),
        (("level",), "enum", "2"),
        (("note",), "null", None),
        (("lines", 0, "qty"), "maximum", 9),
    ]
    assert field_of(("lines", 0, "qty")) == "lines[0].qty"
    assert place({"lines": [{"qty": 1, "sku": "a"}]}, ("lines", 0, "qty"), 9) == {"lines": [{"qty": 9, "sku": "a"}]}


def test_the_checker_sees_a_disagreement() -> None:
    """The check can fail: an exclusive bound is declared as the inclusive one, and the validator refuses it."""
    tool = make_tool({"weight": {"type": "number", "exclusiveMinimum": 0}})
    hard, bounds = disagreements(tool)
    assert hard == []
    assert [line.split(":")[0] for line in bounds] == ["t weight minimum 0"]


def test_every_enum_string_is_the_lowerings_own() -> None:
    lowered = tk.lower({"type": "object", "properties": {"v": {"enum": [1, 2.5, True, {"b": 1, "a": 2}, [1]]}}})
    assert lowered.schema["properties"]["v"]["enum"] == [enum_text(v) for v in [1, 2.5, True, {"b": 1, "a": 2}, [1]]]


def test_function_catalogue_declarations_agree_with_the_validator() -> None:
    tools = []
    for case in CASES:
        try:
            tools.append(tk.from_function(case.fn, **case.options))
        except tk.ToolkitError:
            continue
    assert assert_agree(tools) > 30


def test_orders_spec_declarations_agree_with_the_validator(repo_root: Path) -> None:
    assert assert_agree(tk.from_openapi(repo_root / "specs" / "orders.yaml", "orders", select="all")) >= 5


CORPUS_SAMPLE = {
    "stripe.json": 1,
    "github-3.0.json": 2,
    "openai-3.1.json": 1,
    "asana.yaml": 2,
    "twilio-api-v2010.json": 1,
    "sendgrid-3.1.json": 2,
    "box.json": 2,
    "kubernetes-swagger2.json": 25,
}
"""Spec → take every n-th tool (Kubernetes declarations are large: a sample keeps the run short)."""


@pytest.mark.corpus
@pytest.mark.parametrize(("spec", "every"), CORPUS_SAMPLE.items(), ids=list(CORPUS_SAMPLE))
def test_real_api_declarations_agree_with_the_validator(corpus_dir: Path, spec: str, every: int) -> None:
    toolset = tk.from_openapi(corpus_dir / spec, "x", select="all")
    assert assert_agree(list(toolset)[::every]) > 10


# -- OpenAPI spellings the declaration honours ---------------------------------------------------------------
def test_openapi_nullable_accepts_null_as_declared() -> None:
    tool = make_tool({"note": {"type": "string", "nullable": True}}, ["note"])
    assert tool.parameters is not None
    assert tool.parameters["properties"]["note"]["nullable"] is True
    assert tool.validate({"note": None}).data == {"note": None}
    assert [e.code for e in tool.validate({"note": 5}).errors] == ["wrong_type"]
    assert fire(tool).passed


def test_a_required_read_only_property_is_neither_offered_nor_required() -> None:
    tool = make_tool({"id": {"type": "string", "readOnly": True}, "name": {"type": "string"}}, ["id", "name"])
    assert tool.parameters is not None
    assert tool.parameters["required"] == ["name"]
    assert tool.validate({"name": "x"}).ok
    assert [e.field for e in tool.validate({}).errors] == ["name"]
    assert fire(tool).passed


def test_a_merged_all_of_that_closes_one_member_is_refused_with_its_loss_on_record() -> None:
    """Documented gap: ``allOf`` members are merged into one object for the declaration, but in JSON Schema a
    member with ``additionalProperties: false`` refuses the other members' fields. The lowering reports the
    dropped keyword; the validator keeps the schema's real meaning."""
    closed = {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": False}
    tool = make_tool({"v": {"allOf": [closed, {"properties": {"b": {"type": "string"}}}]}})
    assert tool.parameters is not None
    assert set(tool.parameters["properties"]["v"]["properties"]) == {"a", "b"}
    assert [e.code for e in tool.validate({"v": {"a": "x", "b": "y"}}).errors] == ["unknown_property"]
    assert "additionalProperties" in {loss.keyword for loss in tool.losses}


def test_declared_strings_follow_each_reference_once() -> None:
    """Unions of references that refer to each other are walked once per reference, not once per path."""
    from toolkit._validation._combinators import declared_strings

    defs = {f"D{i}": {"anyOf": [*({"$ref": f"#/$defs/D{j}"} for j in range(12)), {"const": i}]} for i in range(12)}

    def resolve(ref: str) -> Any:
        return defs[ref.rsplit("/", 1)[-1]]

    assert declared_strings({"$ref": "#/$defs/D0"}, resolve) == {str(i): i for i in range(12)}
