"""The workbench in a real browser: JupyterLab on loopback, notebooks run in headless Chromium.

The module starts its own JupyterLab (temporary root, settings and runtime folders; news toast off; every cell
kept in the page) serving a small notebook of views and copies of the committed notebooks. On the small notebook
it clicks and types as an author would: a fixture row picked by click and by arrow key, the verdict and family
filters, Accept on a scratch golden folder, the playground's JSON and its nested sub-forms, the Wire tab's
dialect picker, an OpenAPI tool's Binding tab (the credentials removed, each with its variable), and the paste
box (a function typed in, its declaration shown, a breaking edit classified, a mistake shown at its line, Keep
writing the golden file). On the committed notebooks it runs every cell and compares what the browser shows with
the committed outputs.

Screenshots go to ``tests/artifacts/`` (one per feature on success, to look at; one on failure, to debug).

Internals: ``_credential_record.env_name``, the variable name the page must show for a credential.
"""

from __future__ import annotations

import html.parser
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from locations import REPO, TESTS

import toolkit as tk
from toolkit import examples

pytestmark = pytest.mark.browser

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = TESTS / "artifacts"
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
FIXTURE_ID = "limit.numeric_as_string"
NOTEBOOK = ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook"
"""The notebook on show (a page may hold others in hidden tabs)."""
COMMITTED = ["03_fixtures_and_envelopes.ipynb", "04_golden_and_review.ipynb", "07_paste_box.ipynb"]

SHIP = '''
from dataclasses import dataclass
from datetime import date
from typing import Annotated, Literal

from pydantic import Field

import toolkit as tk
from toolkit.widgets import Playground


@dataclass
class Address:
    """Where the parcel goes."""

    street: Annotated[str, Field(description="Street and number, e.g. 'Main St 1'.")]
    country: Literal["de", "fr"] = "de"


@dataclass
class Line:
    """One order line."""

    sku: Annotated[str, Field(description="Stock keeping unit, e.g. 'SKU-1'.", examples=["SKU-42"])]
    quantity: Annotated[int, Field(ge=1, le=9)] = 1


def ship(address: Address, lines: list[Line], ship_on: date, note: str | None = None) -> None:
    """Ship an order. Use it after the user confirmed the address.

    Args:
        address: Where the parcel goes.
        lines: What goes in the parcel.
        ship_on: The day the parcel leaves (ISO 8601, YYYY-MM-DD).
        note: A note for the carrier.
    """


Playground(tk.from_function(ship, namespace="shop"))
'''

REPORTS = (REPO / "tests" / "specs" / "reports_credentials.yaml").read_text(encoding="utf-8")
"""An operation whose spec declares two credentials as plain parameters."""

WORKBENCH_CELLS = [
    "import toolkit as tk\nfrom toolkit import examples\n\n"
    'search = tk.from_function(examples.search_issues, namespace="issues", effect="read")\n'
    'view = tk.Workbench(golden_dir="golden").view(search)\nview',
    f'orders = tk.from_openapi({str(REPO / "specs" / "orders.yaml")!r}, namespace="orders")\n'
    'tk.Workbench().view(orders["orders_get"])',
    SHIP,
    'box = tk.Workbench(golden_dir="golden").editor(delay=0.2)\nbox',
    f"import toolkit as tk\n\ntk.Workbench().view(tk.from_openapi({REPORTS!r}, namespace='reports').tools[0])",
]

FUNCTION = '''from datetime import date
from typing import Literal


def create_ticket(title: str, due_on: date, priority: Literal["low", "high"] = "low") -> dict:
    """Open a support ticket for the user's problem. Use it once the user has described the problem.

    Args:
        title: One line saying what is wrong, for example "Login times out".
        due_on: Calendar day the ticket must be answered by (ISO 8601, YYYY-MM-DD).
        priority: How urgent the ticket is: "low" or "high".
    """
    return {"title": title}
'''


REFUSED_FRAGMENT = """paths:
  /pets/{petId}:
    get:
      operationId: get_pet
      description: Read one pet by its id.
      x-agent-tool: true
      parameters:
        - {name: petId, in: path, required: true, schema: {type: string}}
      responses: {"200": {description: ok}}
  /pets:
    post:
      description: Add a pet.
      x-agent-tool: true
      requestBody:
        content: {application/json: {schema: {type: object, properties: {name: {type: string}}}}}
      responses: {"201": {description: made}}
"""


def _requirements() -> None:
    if not CHROMIUM.is_file():
        pytest.skip(f"Chromium not found at {CHROMIUM} (apt-get install chromium; .ci/setup does it)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        pytest.skip("Playwright for Python is not installed (pip install playwright; never `playwright install`)")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _write_notebook(path: Path, cells: list[str]) -> None:
    import nbformat

    notebook = nbformat.v4.new_notebook()
    notebook.metadata["kernelspec"] = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
    notebook.cells = [nbformat.v4.new_code_cell(source) for source in cells]
    nbformat.write(notebook, path)


def _settings(folder: Path, plugin: str, values: dict[str, Any]) -> None:
    package, name = plugin.split(":")
    path = folder / package / f"{name}.jupyterlab-settings"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(values))


def _lab_environment(base: Path) -> dict[str, str]:
    folders = {name: base / name for name in ("settings", "workspaces", "runtime", "config", "data")}
    for folder in folders.values():
        folder.mkdir()
    _settings(folders["settings"], "@jupyterlab/apputils-extension:notification", {"fetchNews": "false"})
    # Every cell stays in the page, so a cell's output can be read wherever it is scrolled.
    _settings(folders["settings"], "@jupyterlab/notebook-extension:tracker", {"windowingMode": "none"})
    return {
        **os.environ,
        "JUPYTERLAB_SETTINGS_DIR": str(folders["settings"]),
        "JUPYTERLAB_WORKSPACES_DIR": str(folders["workspaces"]),
        "JUPYTER_RUNTIME_DIR": str(folders["runtime"]),
        "JUPYTER_CONFIG_DIR": str(folders["config"]),
        "JUPYTER_DATA_DIR": str(folders["data"]),
        "PYTHONWARNINGS": "ignore",
    }


def _wait_until_serving(url: str, server: subprocess.Popen[bytes], timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"jupyter lab exited with {server.returncode} before serving")
        try:
            with urllib.request.urlopen(url, timeout=1) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"jupyter lab did not answer {url} within {timeout} s")


def _stop(server: subprocess.Popen[bytes]) -> None:
    if server.poll() is None:
        server.send_signal(signal.SIGTERM)  # the server shuts its kernels down on SIGTERM
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


@dataclass(frozen=True)
class Lab:
    """A running JupyterLab: the base URL, its token, and the folder it serves."""

    base: str
    token: str
    root: Path

    def url(self, notebook: str) -> str:
        # A workspace per notebook: the default one would reopen every notebook opened before in the same page.
        return f"{self.base}/lab/workspaces/{notebook.split('.')[0]}/tree/{notebook}?reset&token={self.token}"


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    """A JupyterLab on a free loopback port serving the views notebook and copies of the committed notebooks."""
    _requirements()
    base = tmp_path_factory.mktemp("lab")
    root = base / "root"
    root.mkdir()
    _write_notebook(root / "workbench.ipynb", WORKBENCH_CELLS)
    for name in COMMITTED:  # copies: JupyterLab autosaves what it opens
        shutil.copy(REPO / "notebooks" / name, root / name)
    port, token = _free_port(), secrets.token_hex(16)
    command = [
        sys.executable,
        "-m",
        "jupyterlab",
        "--no-browser",
        "--allow-root",
        "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",
        f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={root}",
        "--LabApp.expose_app_in_browser=True",
    ]
    log = (base / "lab.log").open("wb")
    server = subprocess.Popen(command, env=_lab_environment(base), stdout=log, stderr=subprocess.STDOUT)
    previous = signal.getsignal(signal.SIGTERM)

    def stop_then_exit(signum: int, frame: Any) -> None:
        _stop(server)
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, stop_then_exit)
    try:
        _wait_until_serving(f"http://127.0.0.1:{port}/api/status?token={token}", server)
        yield Lab(f"http://127.0.0.1:{port}", token, root)
    finally:
        _stop(server)
        signal.signal(signal.SIGTERM, previous)
        log.close()


def _expect(locator: Any) -> Any:
    """Playwright's retrying assertions on ``locator`` (waits set by the ``browser`` fixture)."""
    from playwright.sync_api import expect

    return expect(locator)


@pytest.fixture(scope="module")
def browser(lab: Lab) -> Iterator[Any]:
    """One headless Chromium for the module (Playwright's sync API allows one driver per thread)."""
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=30_000)  # a loaded machine draws slowly; these are waits, not speed limits
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_FLAGS)
        try:
            yield chromium
        finally:
            chromium.close()


def _open(browser: Any, url: str) -> Any:
    """A page (tall viewport: JupyterLab scrolls inside its own panel) on ``url``, every cell run."""
    context = browser.new_context(viewport={"width": 1500, "height": 2400})
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.set_default_timeout(30_000)  # waits on conditions; a loaded machine draws slowly
    page.goto(url)
    page.get_by_text("Python 3 (ipykernel) | Idle").wait_for(timeout=60_000)
    page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")
    return page


def _wait_until_idle(page: Any, code_cells: int) -> None:
    """Every code cell has run (its prompt shows a number) and the kernel is idle again."""
    page.wait_for_function(
        "([n, scope]) => [...document.querySelectorAll(`${scope} .jp-CodeCell .jp-InputPrompt`)]"
        ".filter(p => /\\[\\d+\\]/.test(p.textContent)).length >= n",
        arg=[code_cells, NOTEBOOK],
        timeout=90_000,
    )
    page.get_by_text("Python 3 (ipykernel) | Idle").wait_for(timeout=60_000)


@pytest.fixture(scope="module")
def workbench(lab: Lab, browser: Any) -> Iterator[Any]:
    """The views notebook, open and run once for the module's interaction tests."""
    page = _open(browser, lab.url("workbench.ipynb"))
    try:
        _wait_until_idle(page, len(WORKBENCH_CELLS))
        page.locator(".jupyter-widgets .lm-TabBar-tab").first.wait_for(timeout=60_000)
        yield page
        body = page.locator("body").inner_text()
        assert "Error displaying widget" not in body
        assert "Loading widget" not in body
    finally:
        page.context.close()


@contextmanager
def _screenshots(page: Any, name: str, target: Any = None) -> Iterator[None]:
    """Keep ``<name>.png`` on success (to look at) and ``<name>_failure.png`` on failure (to debug)."""
    try:
        yield
    except BaseException:
        _screenshot(page, f"{name}_failure.png", target)
        raise
    _screenshot(page, f"{name}.png", target)


def _screenshot(page: Any, name: str, target: Any = None) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    try:
        (target or page.locator(".jp-NotebookPanel-notebook").first).screenshot(
            path=str(ARTIFACTS / name), timeout=5_000
        )
    except Exception:
        page.screenshot(path=str(ARTIFACTS / name), full_page=True)


def _output(page: Any, index: int) -> Any:
    """The output area of the ``index``-th code cell."""
    return page.locator(f"{NOTEBOOK} .jp-CodeCell").nth(index).locator(".jp-OutputArea").first


def _open_tab(scope: Any, title: str) -> Any:
    """Click the tool view's tab whose title starts with ``title``; return the visible panel."""
    scope.locator(".lm-TabBar-tab", has_text=title).first.click()
    return scope.locator(".widget-tab-contents > .lm-Widget:not(.lm-mod-hidden)").first


# -- the tool view ----------------------------------------------------------------------------------------------
def test_tabs_and_the_declaration_s_copy_button(workbench: Any) -> None:
    view = _output(workbench, 0)
    with _screenshots(workbench, "browser_workbench", view):
        tabs = view.locator(".lm-TabBar-tab").all_inner_texts()
        titles = ["Declaration", "Lints", "Losses", "Fixtures", "Playground", "Wire", "Golden"]
        assert [t.split(" (")[0] for t in tabs] == titles
        assert '"issues_search_issues"' in view.locator(".tk-declaration").first.inner_text()
        view.locator(".tk-declaration button.tk-copy").first.click()
        copied = workbench.evaluate("() => navigator.clipboard.readText()")
        assert json.loads(copied)["name"] == "issues_search_issues"


def test_a_fixture_row_is_picked_by_click_and_by_keyboard_and_filtered(workbench: Any) -> None:
    view = _output(workbench, 0)
    fixtures = _open_tab(view, "Fixtures")
    with _screenshots(workbench, "browser_fixtures", view):
        table = fixtures.locator(".tk-rowtable table")
        width = table.evaluate("t => [t.scrollWidth, t.closest('.jp-OutputArea').clientWidth]")
        assert width[0] <= width[1], f"the table is wider than the cell: {width}"
        fixtures.locator(f"tr[data-id='{FIXTURE_ID}']").click()
        fixtures.locator(".tk-envelope-source", has_text=f"fixture {FIXTURE_ID}").wait_for()
        assert "wrong_type" in fixtures.locator(".tk-result").first.inner_text()
        assert '"limit": "10"' in fixtures.locator(".tk-arguments").inner_text()
        after = fixtures.locator(f"tr[data-id='{FIXTURE_ID}'] + tr").get_attribute("data-id")
        workbench.keyboard.press("ArrowDown")
        fixtures.locator(".tk-envelope-source", has_text=f"fixture {after}").wait_for()
        assert fixtures.locator("tr.tk-selected").get_attribute("data-id") == after
        long = fixtures.locator("tr[data-id='query.overlong_string'] td").last.inner_text()
        assert len(long) < 120
        assert long.endswith("characters)")
    with _screenshots(workbench, "browser_fixtures_filtered", view):
        rows = fixtures.locator(".tk-rowtable tr.tk-row")
        fixtures.locator(".widget-dropdown select").select_option("numeric_as_string")
        _expect(rows).to_have_count(1)
        assert rows.first.get_attribute("data-id") == FIXTURE_ID
        fixtures.get_by_role("button", name="failed").click()
        _expect(rows).to_have_count(0)
        fixtures.get_by_role("button", name="all").click()
        fixtures.locator(".widget-dropdown select").select_option(label="all families")
        _expect(rows).to_have_count(_fixture_count())


def _fixture_count() -> int:
    """How many fixtures the notebook's tool fires, from the fixtures stage in this process."""
    return len(tk.fire(tk.from_function(examples.search_issues, namespace="issues", effect="read")).rows)


def test_the_golden_tab_s_accept_writes_the_scratch_file(workbench: Any, lab: Lab) -> None:
    view = _output(workbench, 0)
    golden = _open_tab(view, "Golden")
    with _screenshots(workbench, "browser_golden", view):
        golden.get_by_text("No golden file yet").wait_for()
        golden.get_by_role("button", name="Accept").click()
        golden.get_by_text("The declaration matches").wait_for()
        written = lab.root / "golden" / "issues_search_issues.json"
        assert json.loads(written.read_text())["name"] == "issues_search_issues"


def test_the_playground_validates_edited_json(workbench: Any) -> None:
    view = _output(workbench, 0)
    playground = _open_tab(view, "Playground")
    with _screenshots(workbench, "browser_playground", view):
        validate = playground.get_by_role("button", name="Validate")
        _replace_code(workbench, playground, '{"query": "login timeout", "limit": "10"}')
        validate.click()
        workbench.wait_for_function("() => document.body.innerText.includes('string \"10\" is not an integer')")
        assert "invalid_arguments" in playground.locator(".tk-result").first.inner_text()
        _replace_code(workbench, playground, '{"query": "login timeout", "limit": 7, "state": "closed"}')
        _validate_until(validate, playground.locator(".tk-result").first, "invalid_arguments")
        state = playground.locator(".widget-dropdown", has_text="state").locator("select")
        assert state.input_value().endswith("closed") or "closed" in state.inner_text()


def test_the_wire_tab_shows_each_dialect_s_payload(workbench: Any) -> None:
    view = _output(workbench, 0)
    wire = _open_tab(view, "Wire")
    with _screenshots(workbench, "browser_wire", view):
        options = wire.locator("select option").all_inner_texts()
        assert [o.split()[0] for o in options] == [
            "gemini",
            "gemini_json",
            "openai",
            "openai_responses",
            "anthropic",
            "mcp",
        ]
        wire.locator("select").select_option(label=next(o for o in options if o.split()[0] == "openai"))
        wire.locator(".tk-payload", has_text="strict").wait_for()
        assert '"function"' in wire.locator(".tk-payload").inner_text()
        assert "bytes" in wire.locator(".tk-headline").inner_text()


def test_an_openapi_tool_has_a_binding_tab_with_its_credentials(workbench: Any) -> None:
    view = _output(workbench, 1)
    binding = _open_tab(view, "Binding")
    with _screenshots(workbench, "browser_binding", view):
        text = binding.inner_text()
        assert "GET /orders/{orderId}" in text
        assert "X-API-Key" in text
        assert "never sees them" in text
        assert "$ORDERS_API_KEY" in text


def test_the_binding_tab_lists_the_credentials_removed_and_the_variable_that_fills_each(workbench: Any) -> None:
    from toolkit._credential_record import env_name

    view = _output(workbench, 4)
    binding = _open_tab(view, "Binding")
    with _screenshots(workbench, "browser_binding_credentials", view):
        assert "GET /reports/{reportId}" in binding.inner_text()
        for name, location in (("api_token", "query"), ("X-Auth-Token", "header")):
            row = binding.locator("tr", has_text=name).first
            cells = [c.strip() for c in row.locator("td").all_inner_texts()]
            assert cells[:2] == [name, location]
            assert cells[-1] == f"${env_name('reports', name)}"
        arguments = binding.locator(".tk-table").first.inner_text()
        assert "reportId" in arguments
        assert "api_token" not in arguments, "a credential is not an argument"


def test_a_nested_sub_form_edits_the_json_and_validates(workbench: Any) -> None:
    form = _output(workbench, 2)
    with _screenshots(workbench, "browser_subform", form):
        editor = form.locator(".cm-content").first
        assert "SKU-42" in editor.inner_text(), "the form starts from the documented example"
        form.locator(".widget-dropdown", has_text="country").locator("select").select_option("fr")
        form.get_by_role("button", name="add object item").click()
        sku = form.locator(".widget-text", has_text="sku").nth(1).locator("input")
        sku.fill("SKU-7")
        sku.press("Enter")
        _expect(editor).to_contain_text("SKU-7")
        args = json.loads(editor.inner_text())
        assert args["address"]["country"] == "fr"
        assert [line["sku"] for line in args["lines"]] == ["SKU-42", "SKU-7"]
        form.get_by_role("button", name="Validate").click()
        form.locator(".tk-result").first.wait_for()
        assert "ok" in form.locator(".tk-result").first.inner_text()
        assert "invalid_arguments" not in form.locator(".tk-result").first.inner_text()


# -- the paste box ---------------------------------------------------------------------------------------------
def _validate_until(button: Any, result: Any, gone: str, seconds: float = 30.0) -> None:
    """Click ``button`` until ``result`` no longer shows ``gone``. The editor sends its text to the kernel as it
    changes; on a loaded machine that message can land after a click, which then validates the previous text
    (as a person would see, and click again), so one click is not enough to wait on."""
    deadline = time.monotonic() + seconds
    while True:
        button.click()
        try:
            _expect(result).not_to_contain_text(gone, timeout=2000)
            return
        except AssertionError:
            if time.monotonic() > deadline:
                raise


def _replace_code(page: Any, scope: Any, text: str) -> None:
    """Select everything in the code editor within ``scope`` and put ``text`` in its place, as a paste does."""
    scope.locator(".cm-content").first.click()
    page.keyboard.press("Control+A")
    page.keyboard.insert_text(text)


def test_the_paste_box_is_a_code_editor_an_author_types_an_indented_function_into(workbench: Any) -> None:
    box = _output(workbench, 3)
    with _screenshots(workbench, "browser_paste_typing", box):
        box.get_by_text("nothing pasted yet").wait_for()
        assert "separate, disposable process" in box.inner_text()
        box.locator(".cm-content").first.click()
        keys = workbench.keyboard
        keys.insert_text("def add_numbers(a: int, b: int) -> int:")
        keys.press("Enter")  # the editor indents the body by itself ...
        keys.press("Shift+Tab")  # ... Shift-Tab takes the indent away and Tab puts it back
        keys.press("Tab")
        keys.insert_text('"""Add two whole numbers the user gave."""')
        keys.press("Enter")
        keys.insert_text("return a + b")
        focused = workbench.evaluate("() => !!document.activeElement.closest('.cm-editor')")
        assert focused, "Tab stays in the editor"
        box.get_by_text("Declaration of add_numbers").wait_for()
        lines = box.locator(".cm-content .cm-line").all_inner_texts()
        assert lines[1:] == ['    """Add two whole numbers the user gave."""', "    return a + b"]
        numbers = box.locator(".cm-lineNumbers .cm-gutterElement").all_inner_texts()
        assert {"1", "2", "3"} <= set(numbers)
        wrapped = box.locator(".cm-content").first.evaluate("e => getComputedStyle(e).whiteSpace")
        assert wrapped == "pre", "lines do not wrap"
    with _screenshots(workbench, "browser_paste_gutter", box):
        keys.press("Control+Home")
        keys.press("End")
        keys.press("Backspace")  # the colon: line 1 no longer parses
        marker = box.locator(".cm-lint-marker-error")
        marker.wait_for()
        problem = box.locator(".tk-problem")
        assert re.search(r"line 1: SyntaxError", problem.inner_text())
        marker.hover()
        tooltip = workbench.locator(".cm-tooltip-lint")
        tooltip.wait_for()
        assert "SyntaxError" in tooltip.inner_text()
        keys.press("Control+z")  # undo puts the colon back
        box.get_by_text("Declaration of add_numbers").wait_for()
        _expect(marker).to_have_count(0)


def test_a_pasted_fragment_shows_each_refused_operation_with_its_reason(workbench: Any) -> None:
    box = _output(workbench, 3)
    with _screenshots(workbench, "browser_paste_refused", box):
        workbench.evaluate("text => navigator.clipboard.writeText(text)", REFUSED_FRAGMENT)
        box.locator(".cm-content").first.click()
        workbench.keyboard.press("Control+A")
        workbench.keyboard.press("Control+V")
        box.get_by_text("Declaration of api_get_pet").wait_for()
        refused = box.locator(".tk-section", has_text="Refused operations")
        refused.wait_for()
        text = refused.inner_text()
        assert "POST /pets" in text
        assert "missing_operation_id" in text


def test_code_that_ends_its_process_leaves_the_kernel_typing_on(workbench: Any, lab: Lab) -> None:
    box = _output(workbench, 3)
    with _screenshots(workbench, "browser_paste_exit", box):
        _replace_code(workbench, box, "import os\nos._exit(1)\n\n" + FUNCTION)
        box.get_by_text("ended its preview process with code 1").wait_for()
        assert "your kernel is unaffected" in box.inner_text()
        workbench.keyboard.press("Control+End")
        workbench.keyboard.press("Control+Home")
        for _ in range(3):
            workbench.keyboard.press("Shift+ArrowDown")
        workbench.keyboard.press("Delete")  # the author deletes the exit and goes on in the same kernel
        box.get_by_text("Declaration of create_ticket").wait_for()
        workbench.get_by_text("Python 3 (ipykernel) | Idle").wait_for()
        assert "Kernel Restarting" not in workbench.locator("body").inner_text()
    with _screenshots(workbench, "browser_paste_keep", box):
        box.get_by_text("and write the golden file").click()
        box.get_by_role("button", name="Keep").click()
        box.get_by_text("golden file written: create_ticket").wait_for()
        assert "its source ran once in this kernel" in box.inner_text()
        assert json.loads((lab.root / "golden" / "create_ticket.json").read_text())["name"] == "create_ticket"


# -- the committed notebooks, as Run All shows them ----------------------------------------------------------
class _Text(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def _html_text(markup: str) -> str:
    parser = _Text()
    parser.feed(markup)
    return "".join(parser.parts)


WIDGET = "application/vnd.jupyter.widget-view+json"
_IDENTIFIER = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[_./][A-Za-z0-9]+)+")
_COUNTS = re.compile(r"\d+ fired, \d+ passed")


def _committed(cell: dict[str, Any]) -> tuple[str, bool]:
    """A cell's committed outputs as text (what its HTML or plain text reads), and whether it is a widget."""
    parts, widget = [], False
    for output in cell.get("outputs", []):
        if output["output_type"] == "stream":
            parts.append("".join(output["text"]))
            continue
        data = output.get("data", {})
        widget = widget or WIDGET in data
        if "text/html" in data and WIDGET not in data:
            parts.append(_html_text("".join(data["text/html"])))
        else:
            parts.append("".join(data.get("text/plain", "")))
    return "".join(parts), widget


def _squeezed(text: str) -> str:
    return re.sub(r"\s+", "", text)


@pytest.mark.parametrize("name", COMMITTED)
def test_a_committed_notebook_shows_in_the_browser_what_it_committed(lab: Lab, browser: Any, name: str) -> None:
    """Every code cell with outputs: its text equals the committed text (whitespace aside); a widget's rendered
    text carries every identifier and fixture count its committed text names (the text fallback describes the
    widget rather than copying it)."""
    notebook = json.loads((REPO / "notebooks" / name).read_text(encoding="utf-8"))
    cells = [cell for cell in notebook["cells"] if cell["cell_type"] == "code"]
    page = _open(browser, lab.url(name))
    try:
        with _screenshots(page, f"browser_{name.split('_')[0]}_notebook"):
            _wait_until_idle(page, len(cells))
            # Widget views draw after the kernel is idle: read again until they match or the wait runs out.
            deadline = time.monotonic() + 30
            mismatches = _mismatches(page, cells)
            while mismatches and time.monotonic() < deadline:
                page.wait_for_timeout(500)
                mismatches = _mismatches(page, cells)
            assert not mismatches, "\n".join(mismatches)
            body = page.locator("body").inner_text()
            assert "Error displaying widget" not in body
            assert "Loading widget" not in body
    finally:
        page.context.close()


def _mismatches(page: Any, cells: list[dict[str, Any]]) -> list[str]:
    """Each code cell whose rendered text differs from its committed outputs, and how."""
    mismatches = []
    for index, cell in enumerate(cells):
        expected, widget = _committed(cell)
        if not expected:
            continue
        shown = _output(page, index).evaluate(
            "a => [...a.querySelectorAll('.jp-OutputArea-output')].map(o => o.textContent).join('')"
        )
        if widget:
            wanted = set(_IDENTIFIER.findall(expected)) | set(_COUNTS.findall(expected))
            missing = sorted(w for w in wanted if w not in shown)
            if missing:
                mismatches.append(f"cell {index}: the widget does not show {missing}")
        elif _squeezed(expected) != _squeezed(shown):
            mismatches.append(f"cell {index}: committed {expected[:200]!r}, shown {shown[:200]!r}")
    return mismatches
