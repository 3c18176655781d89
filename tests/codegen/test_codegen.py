"""Generated tool modules: deterministic, lint- and type-clean, faithful to the toolset, inert under hostile text.

Internals: ``build_tool`` (a tool from a hand-written JSON Schema, which no public constructor takes), and
``module_name`` and ``env_name``, the naming rules generated files and variables follow."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import toolkit as tk
from toolkit import CodegenError, Tool, ToolContract, Toolset, generate
from toolkit._codegen import module_name
from toolkit._credential_record import env_name
from toolkit._tool import build_tool
from toolkit.runtime.credentials import SecurityScheme
from toolkit.runtime.trim import Trim

VENV_BIN = Path(sys.executable).parent
EVIL = '"""; import os; os.system("touch PWNED")\n\u2028 \'\'\' \\ "q" \'s\' \r\\N{BULLET} {x} %s'


def _hostile_spec() -> dict[str, Any]:
    parameters = [
        {"name": "thingId", "in": "path", "required": True, "description": EVIL, "schema": {"enum": [EVIL, "a"]}},
        {"name": "q'\"\\", "in": "query", "description": EVIL, "schema": {"type": "string", "default": EVIL}},
        {"name": "X-" + EVIL.replace("\n", ""), "in": "header", "description": EVIL, "schema": {"type": "string"}},
        {"name": EVIL, "in": "query", "required": True, "description": EVIL, "schema": {"type": "string"}},
    ]
    body = {"type": "object", "properties": {"v": {"type": "string", "pattern": "^a$", "description": EVIL}}}
    operation = {
        "operationId": "make" + EVIL,
        "description": EVIL,
        "x-agent-tool": {"name": "evil_make", "description": EVIL, "confirm": False},
        "parameters": parameters,
        "requestBody": {"required": True, "content": {"application/json": {"schema": body}}},
        "responses": {"200": {"description": EVIL}},
    }
    return {
        "openapi": "3.0.3",
        "info": {"title": EVIL, "version": EVIL},
        "components": {"securitySchemes": {EVIL: {"type": "apiKey", "in": "header", "name": EVIL}}},
        "security": [{EVIL: []}],
        "paths": {"/things/{thingId}/x\"'\\" + EVIL.replace("\n", ""): {"post": operation}},
    }


def _weird_tool(name: str) -> Tool:
    contract = ToolContract(
        name=name,
        description=EVIL,
        args_schema={"type": "object", "properties": {}, "additionalProperties": False},
        source="openapi",
        operation_id=EVIL,
        method="GET",
        path="/" + EVIL,
    )
    return build_tool(contract)


@pytest.fixture(scope="module")
def orders(repo_root: Path) -> Toolset:
    return tk.from_openapi(repo_root / "specs" / "orders.yaml", namespace="orders")


@pytest.fixture(scope="module")
def hostile() -> Toolset:
    toolset = tk.from_openapi(_hostile_spec(), namespace="evil")
    assert toolset.names == ("evil_make",), toolset.rejected
    weird = tuple(_weird_tool(n) for n in ("evil.class", "evil-9:lives", "_evil__import__"))
    return Toolset(namespace="evil", tools=toolset.tools + weird, source={"path": EVIL, "sha256": EVIL, "title": EVIL})


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory, orders: Toolset, hostile: Toolset) -> Path:
    root = tmp_path_factory.mktemp("generated")
    scheme = SecurityScheme("apiKey", "api_key", "header", "X-API-Key", env="ORDERS_API_KEY")
    assert {t.contract.security for t in orders} == {(scheme,)}
    _write(root, generate(orders, source_path="specs/orders.yaml"))
    evil = SecurityScheme(EVIL, "api_key", "header", EVIL, env=env_name("evil", EVIL))
    assert hostile["evil_make"].contract.security == (evil,)
    _write(root, generate(hostile, trim={"evil_make": Trim(keep_fields=(EVIL,), max_items=3)}))
    return root


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=240, check=False)


# -- determinism and provenance ------------------------------------------------------------------------
def test_regeneration_is_byte_identical(repo_root: Path, orders: Toolset) -> None:
    again = tk.from_openapi(repo_root / "specs" / "orders.yaml", namespace="orders")
    assert generate(orders, source_path="specs/orders.yaml") == generate(again, source_path="specs/orders.yaml")


def test_package_has_a_module_and_two_resources_per_tool(orders: Toolset) -> None:
    files = generate(orders)
    stems = sorted(module_name(t.name) for t in orders)
    expected = {"orders_tools/__init__.py", "orders_tools/py.typed"}
    for stem in stems:
        expected |= {f"orders_tools/{stem}.py", f"orders_tools/declarations/{stem}.json"}
        expected.add(f"orders_tools/contracts/{stem}.json")
    assert set(files) == expected


def test_header_records_provenance_without_timestamps(orders: Toolset) -> None:
    files = generate(orders, source_path="specs/orders.yaml")
    for rel, text in files.items():
        if rel.endswith(".py"):
            head = "\n".join(text.splitlines()[:4])
            assert f"toolkit {tk.__version__}" in head
            assert "do not edit" in head
            assert "'specs/orders.yaml'" in head
            assert str(orders.source["sha256"]) in head
            assert not re.search(r"\d{4}-\d{2}-\d{2}|\d{2}:\d{2}", text), rel


def test_declaration_resource_is_the_exact_declaration(orders: Toolset) -> None:
    files = generate(orders)
    for tool in orders:
        stored = json.loads(files[f"orders_tools/declarations/{module_name(tool.name)}.json"])
        assert stored == tool.declaration
        contract = json.loads(files[f"orders_tools/contracts/{module_name(tool.name)}.json"])
        assert contract["args_schema"] == tool.args_schema
        assert (contract["method"], contract["path"], contract["confirm"]) == (tool.method, tool.path, tool.confirm)


# -- the generated code is clean and faithful ------------------------------------------------------------
def test_generated_code_passes_ruff(written: Path, repo_root: Path) -> None:
    ruff = str(VENV_BIN / "ruff")
    # every package under a broad rule set (hostile text makes long lines, so no line length there) ...
    isolated = _run([ruff, "check", "--isolated", "--select", "E,F,W,I,B,UP,RUF,SIM", "--ignore", "E501", "."], written)
    assert isolated.returncode == 0, isolated.stdout + isolated.stderr
    # ... and the orders package under the project's own configuration, line length included
    project = _run([ruff, "check", "--config", str(repo_root / "pyproject.toml"), "orders_tools"], written)
    assert project.returncode == 0, project.stdout + project.stderr


@pytest.mark.slow
def test_generated_code_passes_mypy_strict(written: Path, repo_root: Path) -> None:
    cache = ["--cache-dir", str(repo_root / ".mypy_cache")]  # the project's warm cache: toolkit is checked already
    result = _run([str(VENV_BIN / "mypy"), "--strict", *cache, "orders_tools", "evil_tools"], written)
    assert result.returncode == 0, result.stdout + result.stderr


def test_generated_tools_equal_the_toolset(written: Path, orders: Toolset, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(written))
    try:
        import orders_tools  # type: ignore[import-not-found]

        generated = {t.name: t for t in orders_tools.TOOLS}
        assert tuple(sorted(generated)) == tuple(sorted(orders.names))
        for tool in orders:
            twin = generated[tool.name]
            assert twin.declaration == tool.declaration
            assert twin.args_schema == tool.args_schema
            assert twin.binding == tool.binding
            assert (twin.effect, twin.confirm, twin.method, twin.path) == (
                tool.effect,
                tool.confirm,
                tool.method,
                tool.path,
            )
            assert twin.validate({"limit": "10"}).to_dict() == tool.validate({"limit": "10"}).to_dict()
            for part in ("security", "credentials", "idempotency_key", "form"):
                assert getattr(twin.contract, part) == getattr(tool.contract, part), (tool.name, part)
        assert [t.name for t in orders_tools.load_tools()] == sorted(orders.names)
    finally:
        for name in [m for m in sys.modules if m == "orders_tools" or m.startswith("orders_tools.")]:
            del sys.modules[name]


def test_generated_form_tools_keep_their_credentials_and_encodings(
    repo_root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    forms = tk.from_openapi(repo_root / "tests" / "specs" / "forms.yaml", namespace="forms", select="all")
    assert any(tool.contract.credentials for tool in forms)
    _write(tmp_path, generate(forms, package="codegen_forms_tools"))
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        import codegen_forms_tools  # type: ignore[import-not-found]

        generated = {t.name: t for t in codegen_forms_tools.TOOLS}
        for tool in forms:
            for part in ("security", "credentials", "idempotency_key", "form", "binding", "args_schema"):
                assert getattr(generated[tool.name].contract, part) == getattr(tool.contract, part), (tool.name, part)
    finally:
        for name in [m for m in sys.modules if m.split(".")[0] == "codegen_forms_tools"]:
            del sys.modules[name]


# -- hostile spec text -------------------------------------------------------------------------------------
_PROBE = """
import json, sys
import evil_tools
modules = {name: sorted(n for n in vars(m) if not n.startswith("__"))
           for name, m in sorted(sys.modules.items()) if name.startswith("evil_tools.")}
tool = evil_tools.evil_make.TOOL
print(json.dumps({"package": sorted(n for n in vars(evil_tools) if not n.startswith("__")), "modules": modules,
                  "description": tool.description, "path": tool.path, "binding": tool.binding,
                  "security": [[s.key, s.kind, s.location, s.name] for s in evil_tools.evil_make.SECURITY],
                  "credentials": [[c.name, c.location, c.reason, c.scheme, c.env, c.detail]
                                  for c in evil_tools.evil_make.CREDENTIALS],
                  "keep": list(evil_tools.evil_make.TRIM.keep_fields)}))
"""


def test_hostile_spec_text_stays_inert(written: Path) -> None:
    result = _run([sys.executable, "-c", _PROBE], written)
    assert result.returncode == 0, result.stderr
    assert not list(written.rglob("PWNED"))
    seen = json.loads(result.stdout)
    header = ["Credential", "Final", "HttpClient", "HttpConfig", "HttpTool", "SecurityScheme", "Tool", "Trim"]
    for name, names in seen["modules"].items():
        stem = name.rsplit(".", 1)[1]
        cls = "".join(p.capitalize() for p in stem.split("_") if p) + "Tool"
        literals = ["BINDING", "CREDENTIALS", "NAME", "SECURITY", "TOOL", "TRIM"]
        expected = [*header, "annotations", *literals, cls, "build", "load_tool"]
        assert names == sorted(expected), name
    assert seen["description"] == EVIL
    assert seen["path"].endswith(EVIL.replace("\n", ""))
    assert EVIL.replace("\n", "") in "".join(seen["binding"].values())
    assert seen["security"] == [[EVIL, "api_key", "header", EVIL]]
    ((name, location, reason, scheme, env, detail),) = seen["credentials"]
    assert (name, location, reason, scheme, env) == (EVIL, "query", "security_scheme", EVIL, env_name("evil", EVIL))
    assert repr(EVIL) in detail
    assert seen["keep"] == [EVIL]


def test_hostile_text_appears_in_source_only_as_a_literal(hostile: Toolset) -> None:
    for rel, text in generate(hostile).items():
        if rel.endswith(".py"):
            assert 'os.system("touch PWNED")\n' not in text
            assert "\u2028" not in text
            compile(text, rel, "exec")


@pytest.mark.parametrize(
    ("name", "module"),
    [
        ("orders_list", "orders_list"),
        ("orders.get:v2-beta", "orders_get_v2_beta"),
        ("Orders_List", "orders_list"),
        ("class", "class_tool"),
        ("match", "match_tool"),
        ("9lives", "tool_9lives"),
        ("load_tools", "load_tools_tool"),
        ("__init__", "init"),
    ],
)
def test_module_names_are_safe_identifiers(name: str, module: str) -> None:
    assert module_name(name) == module
    assert module.isidentifier()


@pytest.mark.parametrize("name", ["___", "éàü", ".-:"], ids=["underscores", "non-ascii", "punctuation"])
def test_names_without_an_identifier_are_refused(name: str) -> None:
    with pytest.raises(CodegenError) as caught:
        module_name(name)
    assert caught.value.slug == "bad_module_name"


def test_names_colliding_after_sanitising_are_refused() -> None:
    toolset = Toolset(namespace="x", tools=(_weird_tool("a.b"), _weird_tool("a_b")))
    with pytest.raises(CodegenError) as caught:
        generate(toolset)
    assert caught.value.slug == "module_collision"


def test_function_tools_are_refused() -> None:
    contract = ToolContract(name="f", description="d", args_schema={"type": "object", "properties": {}})
    with pytest.raises(CodegenError) as caught:
        generate(Toolset(namespace="x", tools=(build_tool(contract),)))
    assert caught.value.slug == "not_an_operation"


@pytest.mark.parametrize("package", ["class", "my-tools", "1tools"])
def test_bad_package_names_are_refused(orders: Toolset, package: str) -> None:
    with pytest.raises(CodegenError):
        generate(orders, package=package)


# -- domain rules ----------------------------------------------------------------------------------------
RULE = {
    "field": "amount_minor",
    "schema": {"maximum": 5000},
    "problem": "refunds above 50.00 need a human",
    "expected": "at most 5000 minor units",
}


def test_domain_rules_from_overrides_are_enforced_by_the_generated_module(
    repo_root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    overrides = {"createRefund": {"domain": [RULE]}}
    toolset = tk.from_openapi(repo_root / "specs" / "orders.yaml", namespace="orders", overrides=overrides)
    files = generate(toolset, package="ruled_tools")
    _write(tmp_path, files)
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        import ruled_tools  # type: ignore[import-not-found]

        tool = ruled_tools.orders_refund_create.TOOL
        args = {"orderId": "ord_abcdef123456", "amount_minor": 9000, "reason": "duplicate"}
        result = tool.validate(args)
        assert result.status == "rejected"
        assert result.errors[0].to_dict() == {
            "field": "amount_minor",
            "code": "domain_rule",
            "problem": RULE["problem"],
            "expected": RULE["expected"],
        }
        assert tool.validate({**args, "amount_minor": 10}).status == "ok"
    finally:
        for name in [m for m in sys.modules if m.split(".")[0] == "ruled_tools"]:
            del sys.modules[name]


def test_tools_with_callable_domain_checks_and_no_rules_are_refused(orders: Toolset) -> None:
    guarded = orders["orders_refund_create"].with_domain(lambda args: ())
    with pytest.raises(CodegenError) as caught:
        generate(Toolset(namespace="orders", tools=(guarded,)))
    assert caught.value.slug == "domain_not_declarative"


# -- the command ----------------------------------------------------------------------------------------
def test_generate_command_writes_checks_and_prunes(repo_root: Path, tmp_path: Path) -> None:
    from toolkit.cli import main

    spec = str(repo_root / "specs" / "orders.yaml")
    out = tmp_path / "out"
    assert main(["generate", spec, "--out", str(out), "--namespace", "orders"]) == 0
    assert (out / "orders_tools" / "orders_get.py").is_file()
    assert main(["generate", spec, "--out", str(out), "--namespace", "orders", "--check"]) == 0
    (out / "orders_tools" / "orders_gone.py").write_text("# Generated by toolkit\n")
    (out / "orders_tools" / "orders_get.py").write_text("# edited by hand\n")
    assert main(["generate", spec, "--out", str(out), "--namespace", "orders", "--check"]) == 1
    assert main(["generate", spec, "--out", str(out), "--namespace", "orders"]) == 0
    assert not (out / "orders_tools" / "orders_gone.py").exists()
    assert main(["generate", spec, "--out", str(out), "--namespace", "orders", "--check"]) == 0


def test_generate_command_reports_a_missing_spec(tmp_path: Path) -> None:
    from toolkit.cli import main

    assert main(["generate", str(tmp_path / "nope.yaml"), "--out", str(tmp_path)]) == 2


def test_generate_command_takes_trim_settings_from_a_side_file(repo_root: Path, tmp_path: Path) -> None:
    from toolkit.cli import main

    spec = str(repo_root / "specs" / "orders.yaml")
    trim_file = tmp_path / "trim.yaml"
    trim_file.write_text("orders_list:\n  keep_fields: [id, status]\n  max_items: 5\n  max_bytes: null\n")
    assert main(["generate", spec, "--out", str(tmp_path), "--namespace", "orders", "--trim", str(trim_file)]) == 0
    module = (tmp_path / "orders_tools" / "orders_list.py").read_text("utf-8")
    assert "TRIM: Final = Trim(keep_fields=('id', 'status'), max_items=5, max_bytes=None)" in module
    assert "Trim(keep_fields=(), max_items=50" in (tmp_path / "orders_tools" / "orders_get.py").read_text("utf-8")


@pytest.mark.parametrize(
    "text",
    ["orders_nope: {max_items: 3}\n", "orders_list: {max_items: 0}\n", "orders_list: {keep: [id]}\n", "- 1\n"],
    ids=["unknown-tool", "zero-items", "unknown-key", "not-a-mapping"],
)
def test_bad_trim_files_are_usage_errors(repo_root: Path, tmp_path: Path, text: str) -> None:
    from toolkit.cli import main

    trim_file = tmp_path / "trim.yaml"
    trim_file.write_text(text)
    spec = str(repo_root / "specs" / "orders.yaml")
    assert main(["generate", spec, "--out", str(tmp_path), "--namespace", "orders", "--trim", str(trim_file)]) == 2
