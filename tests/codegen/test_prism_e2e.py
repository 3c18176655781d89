"""Generated tools against Prism: a real mock server that validates every request against the spec.

Prism runs with ``--errors``, so a request that breaks the spec (a wrong binding, a missing credential, a
bad path parameter, a form field encoded in the wrong style) comes back as an error status instead of a mock
answer. One Prism per spec, started once for the module on a free loopback port and killed in teardown.

Internals: ``_contract.FormEncoding``, to state how a form field is encoded when a test picks the encoding itself.
"""

from __future__ import annotations

import importlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest
from locations import CORPUS, REPO

from toolkit import Tool, ToolContext, from_openapi, generate
from toolkit._contract import FormEncoding
from toolkit.runtime.http import HttpClient, HttpConfig, HttpTool, Trim

pytestmark = pytest.mark.prism

PRISM = REPO / ".ci" / "node_modules" / ".bin" / "prism"
CONFIRMED = ToolContext(extras={"confirmed": True})
ORDER = "ord_abcdef123456"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait(url: str, process: subprocess.Popen[bytes], deadline: float) -> None:
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"Prism exited with code {process.returncode} before listening on {url}")
        try:
            httpx.get(url, timeout=0.5)
            return
        except httpx.TransportError:
            time.sleep(0.2)
    raise RuntimeError(f"Prism did not listen on {url} within the deadline")


@pytest.fixture(scope="module")
def prism(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """``{spec name: base URL}`` for the orders spec and (when the corpus is there) the two petstores."""
    if not PRISM.exists():
        pytest.skip(f"Prism is not installed at {PRISM}; run `npm ci --prefix .ci` (bash .ci/setup does it)")
    specs = {"orders": REPO / "specs" / "orders.yaml", "forms": REPO / "tests" / "specs" / "forms.yaml"}
    if (CORPUS / "MANIFEST.tsv").is_file():
        specs |= {"petstore": CORPUS / "petstore-3.0.yaml", "expanded": CORPUS / "petstore-expanded-3.0.yaml"}
    logs = tmp_path_factory.mktemp("prism")
    running: dict[str, tuple[subprocess.Popen[bytes], str]] = {}
    try:
        for name, spec in specs.items():
            port = _free_port()
            command = [str(PRISM), "mock", str(spec), "-p", str(port), "-h", "127.0.0.1", "--errors"]
            log = (logs / f"{name}.log").open("wb")
            process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
            log.close()
            running[name] = (process, f"http://127.0.0.1:{port}")
        deadline = time.monotonic() + 60
        for process, url in running.values():
            _wait(url, process, deadline)
        yield {name: url for name, (_, url) in running.items()}
    finally:
        for process, _ in running.values():
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=10)


def _import_generated(root: Path, files: dict[str, str]) -> Any:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    package = next(iter(files)).split("/", 1)[0]
    sys.path.insert(0, str(root))
    try:
        return importlib.import_module(package)
    finally:
        sys.path.remove(str(root))


@pytest.fixture(scope="module")
def packages(tmp_path_factory: pytest.TempPathFactory, prism: dict[str, str]) -> Iterator[dict[str, Any]]:
    """The committed orders package plus the petstores generated now (every operation opted in)."""
    root = tmp_path_factory.mktemp("pkgs")
    out = {"orders": _import_generated(root, _committed_orders())}
    forms = from_openapi(REPO / "tests" / "specs" / "forms.yaml", namespace="forms", select="all")
    out["forms"] = _import_generated(root, generate(forms, package="e2e_forms_tools"))
    for name, spec in (("petstore", "petstore-3.0.yaml"), ("expanded", "petstore-expanded-3.0.yaml")):
        if name not in prism:
            continue
        toolset = from_openapi(CORPUS / spec, namespace="pets", select="all")
        out[name] = _import_generated(root, generate(toolset, package=f"e2e_{name}_tools"))
    yield out
    for module in [
        m
        for m in sys.modules
        if m.split(".")[0] in {"e2e_orders_tools", "e2e_petstore_tools", "e2e_expanded_tools", "e2e_forms_tools"}
    ]:
        del sys.modules[module]


def _committed_orders() -> dict[str, str]:
    folder = REPO / "golden" / "generated"
    files = {}
    for path in sorted((folder / "orders_tools").rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            rel = path.relative_to(folder).as_posix().replace("orders_tools/", "e2e_orders_tools/", 1)
            files[rel] = path.read_text("utf-8")
    return dict(sorted(files.items(), key=lambda item: not item[0].endswith("__init__.py")))


def _tools(package: Any, **config: Any) -> dict[str, HttpTool]:
    return {tool.name: tool for tool in package.load_tools(HttpConfig(**config))}


@pytest.fixture(scope="module")
def orders(prism: dict[str, str], packages: dict[str, Any]) -> Iterator[dict[str, HttpTool]]:
    tools = _tools(packages["orders"], base_url=prism["orders"], credentials={"apiKey": lambda: "any-key"})
    yield tools
    next(iter(tools.values())).client.close()


ORDERS_CALLS = [
    ("orders_list", {"status": "paid", "created_since": "2026-01-01", "limit": 5, "x_request_id": "trace-1"}),
    ("orders_get", {"orderId": ORDER, "expand": "items"}),
    (
        "orders_refund_create",
        {
            "orderId": ORDER,
            "amount_minor": 250,
            "reason": "damaged",
            "note": "box crushed",
        },
    ),
    ("orders_cancel", {"orderId": ORDER, "reason": "ordered twice", "notify_customer": False}),
    ("orders_note_set", {"orderId": ORDER, "note": "VIP"}),
]


@pytest.mark.parametrize(("name", "args"), ORDERS_CALLS, ids=[c[0] for c in ORDERS_CALLS])
def test_every_orders_tool_sends_a_request_prism_accepts(
    orders: dict[str, HttpTool], name: str, args: dict[str, Any]
) -> None:
    result = orders[name].call(args, CONFIRMED)
    assert result.status == "ok", result.to_dict()


def test_a_wrong_binding_is_caught_by_prism(orders: dict[str, HttpTool]) -> None:
    real = orders["orders_refund_create"]
    broken_contract = replace(real.tool.contract, binding={**real.tool.binding, "amount_minor": "query"})
    broken = HttpTool(replace(real.tool, contract=broken_contract), security=real.security, client=real.client)
    result = broken.call(dict(ORDERS_CALLS[2][1]), CONFIRMED)
    assert result.status == "invalid_arguments"  # Prism: the body lacks amount_minor -> 422
    assert result.message.startswith("HTTP 422")


def test_without_credentials_prism_answers_401(prism: dict[str, str], packages: dict[str, Any]) -> None:
    tools = _tools(packages["orders"], base_url=prism["orders"])
    result = tools["orders_get"].call({"orderId": ORDER})
    tools["orders_get"].client.close()
    assert (result.status, result.retryable) == ("error", False)
    assert "401" in result.message


@pytest.mark.parametrize(
    ("name", "code", "status", "error_code"),
    [("orders_get", 404, "rejected", "not_found"), ("orders_refund_create", 409, "rejected", "conflict")],
    ids=["404", "409"],
)
def test_documented_error_responses_map_to_envelopes(
    prism: dict[str, str], packages: dict[str, Any], name: str, code: int, status: str, error_code: str
) -> None:
    headers = {"Prefer": f"code={code}"}  # Prism answers with the spec's documented response for that code
    tools = _tools(packages["orders"], base_url=prism["orders"], headers=headers, credentials={"apiKey": lambda: "k"})
    args = next(a for n, a in ORDERS_CALLS if n == name)
    result = tools[name].call(args, CONFIRMED)
    tools[name].client.close()
    assert (result.status, result.errors[0].code) == (status, error_code)


def test_write_tools_wait_for_confirmation_before_any_request(orders: dict[str, HttpTool]) -> None:
    result = orders["orders_cancel"].call({"orderId": ORDER, "reason": "ordered twice"})
    assert result.status == "needs_confirmation"
    assert result.data["request"] == {
        "method": "POST",
        "path": f"/orders/{ORDER}/cancel",
        "body": {"reason": "ordered twice", "notify_customer": True},
    }


def test_results_are_trimmed_with_a_notice(orders: dict[str, HttpTool]) -> None:
    tool = orders["orders_list"]
    trimmed = HttpTool(tool.tool, trim=Trim(keep_fields=("id", "status")), security=tool.security, client=tool.client)
    result = trimmed.call({"limit": 3})
    assert result.status == "ok"
    assert all(set(item) <= {"id", "status"} for item in result.data["items"])
    assert any(n.action == "trimmed" for n in result.notices)


PETSTORE_CALLS = [
    ("petstore", "pets_list_pets", {"limit": 7}),
    ("petstore", "pets_create_pets", {"id": 3, "name": "Rex", "tag": "dog"}),
    ("petstore", "pets_show_pet_by_id", {"petId": "12"}),
    ("expanded", "pets_find_pets", {"tags": ["a", "b"], "limit": 2}),
    ("expanded", "pets_add_pet", {"name": "Tom", "tag": "cat"}),
    ("expanded", "pets_find_pet_by_id", {"id": 12}),
    ("expanded", "pets_delete_pet", {"id": 12}),
]


@pytest.mark.parametrize(("spec", "name", "args"), PETSTORE_CALLS, ids=[f"{c[0]}-{c[1]}" for c in PETSTORE_CALLS])
def test_corpus_petstore_tools_send_requests_prism_accepts(
    corpus_dir: Path, prism: dict[str, str], packages: dict[str, Any], spec: str, name: str, args: dict[str, Any]
) -> None:
    tools = _tools(packages[spec], base_url=prism[spec])
    result = tools[name].call(args, CONFIRMED)
    tools[name].client.close()
    assert result.status == "ok", result.to_dict()


def test_corpus_tool_rejects_a_wrong_path_type_before_prism(
    corpus_dir: Path, prism: dict[str, str], packages: dict[str, Any]
) -> None:
    tools = _tools(packages["expanded"], base_url=prism["expanded"])
    tool: Tool = tools["pets_find_pet_by_id"].tool
    assert tools["pets_find_pet_by_id"].call({"id": "twelve"}).status == "invalid_arguments"
    # the same value slipped past validation is refused by Prism: the binding really reaches the path
    raw = HttpClient(HttpConfig(base_url=prism["expanded"]))
    response = raw.sync().get((tool.path or "").replace("{id}", "twelve"))
    raw.close()
    tools["pets_find_pet_by_id"].client.close()
    assert response.status_code == 422


def test_a_documented_default_error_maps_to_a_retryable_error(
    corpus_dir: Path, prism: dict[str, str], packages: dict[str, Any]
) -> None:
    # petstore's `default` response (unexpected error), served by Prism as a 500
    tools = _tools(packages["petstore"], base_url=prism["petstore"], headers={"Prefer": "code=500"})
    result = tools["pets_list_pets"].call({"limit": 3})
    tools["pets_list_pets"].client.close()
    assert (result.status, result.retryable) == ("error", True)
    assert result.message.startswith("HTTP 500")


# -- form bodies and credentials declared as parameters (tests/specs/forms.yaml) ------------------------------
FORM_SECRETS = {"FORMS_BEARER_AUTH": "sk_test_1", "FORMS_CLIENT_SECRET": "cs_secret_1", "FORMS_API_KEY": "key-1"}
CUSTOMER = {
    "email": "ada@example.com",
    "name": "Ada Lovelace",
    "balance": -250,
    "tax_exempt": False,
    "address": {"city": "London", "line1": "12 St James's Square", "geo": {"lat": 51.5, "lng": -0.13}},
    "expand": ["default_source", "tax_ids"],
    "tags": ["vip", "early adopter"],
    "codes": ["a|b", "c"],
}


def _forms(prism: dict[str, str], packages: dict[str, Any], **config: Any) -> dict[str, HttpTool]:
    settings = {"environ": FORM_SECRETS, "credentials": {"X-Auth-Token": lambda: "tok-1234"}, **config}
    return _tools(packages["forms"], base_url=prism["forms"], **settings)


def test_a_form_body_in_every_style_is_accepted_by_prism(prism: dict[str, str], packages: dict[str, Any]) -> None:
    """Brackets two levels deep, an indexed array, comma and pipe lists, scalars (an array of objects in brackets
    is checked against the qs decoder in tests/runtime/test_forms.py: Prism reads such arrays only as JSON text)."""
    tools = _forms(prism, packages)
    result = tools["forms_create_customer"].call(CUSTOMER, CONFIRMED)
    tools["forms_create_customer"].client.close()
    assert result.status == "ok", result.to_dict()


def test_a_flat_form_with_a_query_credential_is_accepted_by_prism(
    prism: dict[str, str], packages: dict[str, Any]
) -> None:
    tools = _forms(prism, packages)
    result = tools["forms_update_customer"].call({"customer": "cus_1", "name": "Ada", "notify": True}, CONFIRMED)
    tools["forms_update_customer"].client.close()
    assert result.status == "ok", result.to_dict()


@pytest.mark.parametrize(
    ("field", "encoding"),
    [("address", FormEncoding(json=True)), ("address", FormEncoding(style="form"))],
    ids=["nested-object-as-json", "nested-object-exploded"],
)
def test_a_field_in_another_style_is_refused_by_prism(
    prism: dict[str, str], packages: dict[str, Any], field: str, encoding: FormEncoding
) -> None:
    real = _forms(prism, packages)["forms_create_customer"]
    contract = replace(real.tool.contract, form={**(real.tool.contract.form or {}), field: encoding})
    broken = HttpTool(replace(real.tool, contract=contract), client=real.client)
    result = broken.call(CUSTOMER, CONFIRMED)
    real.client.close()
    assert result.status == "invalid_arguments", result.to_dict()
    assert result.message.startswith("HTTP 422")


def test_a_json_body_where_a_form_is_declared_is_refused_by_prism(
    prism: dict[str, str], packages: dict[str, Any]
) -> None:
    real = _forms(prism, packages)["forms_update_customer"]
    contract = replace(real.tool.contract, form=None)
    broken = HttpTool(replace(real.tool, contract=contract), client=real.client)
    result = broken.call({"customer": "cus_1", "name": "Ada"}, CONFIRMED)
    real.client.close()
    assert (result.status, result.errors[0].code) == ("rejected", "http_415"), result.to_dict()


@pytest.mark.parametrize("missing", ["FORMS_CLIENT_SECRET", "FORMS_API_KEY"])
def test_a_required_credential_without_a_value_stops_the_call(
    prism: dict[str, str], packages: dict[str, Any], missing: str
) -> None:
    environ = {k: v for k, v in FORM_SECRETS.items() if k != missing}
    tools = _forms(prism, packages, environ=environ)
    name = "forms_create_customer" if missing == "FORMS_CLIENT_SECRET" else "forms_update_customer"
    args = CUSTOMER if name == "forms_create_customer" else {"customer": "cus_1", "name": "Ada"}
    result = tools[name].call(args, CONFIRMED)
    tools[name].client.close()
    assert (result.status, result.retryable) == ("error", False)
    assert "missing_credential" in result.message
    assert missing in result.message


def test_form_credentials_never_reach_the_declaration(packages: dict[str, Any]) -> None:
    tool = packages["forms"].forms_create_customer.TOOL
    assert {"client_secret", "X-Auth-Token", "x_auth_token"}.isdisjoint(tool.declaration["parameters"]["properties"])
    assert [(c.name, c.location, c.env) for c in tool.contract.credentials] == [
        ("X-Auth-Token", "header", "FORMS_X_AUTH_TOKEN"),
        ("client_secret", "body", "FORMS_CLIENT_SECRET"),
    ]
