"""The workbench in a real browser: JupyterLab on loopback, a notebook run in headless Chromium.

The test starts its own JupyterLab (temporary root, settings and runtime folders; news toast off), opens a
small notebook that builds a tool view, runs every cell, and checks that the widgets are drawn (not
"Error displaying widget" or "Loading widget"), that picking a fixture row shows its envelope, and that
validating edited arguments in the playground shows the new envelope. Screenshots go to
``tests/artifacts/`` (one on success, to look at; one on failure, to debug).
"""

from __future__ import annotations

import json
import os
import secrets
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

pytestmark = pytest.mark.browser

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
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
NOTEBOOK_CELLS = [
    "import toolkit as tk\nfrom toolkit import examples\n\n"
    'search = tk.from_function(examples.search_issues, namespace="issues", effect="read")\n'
    'view = tk.Workbench(golden_dir="golden").view(search)\nview',
]
FIXTURE_ID = "limit.numeric_as_string"


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


def _write_notebook(path: Path) -> None:
    import nbformat

    notebook = nbformat.v4.new_notebook()
    notebook.metadata["kernelspec"] = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
    notebook.cells = [nbformat.v4.new_code_cell(source) for source in NOTEBOOK_CELLS]
    nbformat.write(notebook, path)


def _lab_environment(base: Path) -> dict[str, str]:
    folders = {name: base / name for name in ("settings", "workspaces", "runtime", "config", "data")}
    for folder in folders.values():
        folder.mkdir()
    notification = folders["settings"] / "@jupyterlab" / "apputils-extension" / "notification.jupyterlab-settings"
    notification.parent.mkdir(parents=True)
    notification.write_text(json.dumps({"fetchNews": "false", "checkForUpdates": False}))
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
    """A running JupyterLab: the notebook's URL (with token) and the folder it serves."""

    url: str
    root: Path


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    """A JupyterLab on a free loopback port serving a temporary folder with the test notebook."""
    _requirements()
    base = tmp_path_factory.mktemp("lab")
    root = base / "root"
    root.mkdir()
    _write_notebook(root / "workbench.ipynb")
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
        yield Lab(f"http://127.0.0.1:{port}/lab/tree/workbench.ipynb?token={token}", root)
    finally:
        _stop(server)
        signal.signal(signal.SIGTERM, previous)
        log.close()


@pytest.fixture
def page(lab: Lab) -> Iterator[Any]:
    """A Chromium page (tall viewport: JupyterLab scrolls inside its own panel) opened on the notebook."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_FLAGS)
        try:
            context = browser.new_context(viewport={"width": 1400, "height": 2400})
            context.grant_permissions(["clipboard-read", "clipboard-write"])
            page = context.new_page()
            page.set_default_timeout(20_000)
            page.goto(lab.url)
            yield page
        finally:
            browser.close()


@contextmanager
def _screenshots(page: Any, name: str) -> Iterator[None]:
    """Keep ``<name>.png`` on success (to look at) and ``<name>_failure.png`` on failure (to debug)."""
    try:
        yield
    except BaseException:
        _screenshot(page, f"{name}_failure.png")
        raise
    _screenshot(page, f"{name}.png")


def _screenshot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    try:
        panel = page.locator(".jp-NotebookPanel-notebook").first
        panel.screenshot(path=str(ARTIFACTS / name), timeout=5_000)
    except Exception:
        page.screenshot(path=str(ARTIFACTS / name), full_page=True)


def _run_all_cells(page: Any) -> None:
    page.get_by_text("Python 3 (ipykernel) | Idle").wait_for(timeout=60_000)
    page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")
    page.locator(".jupyter-widgets .lm-TabBar-tab").first.wait_for(timeout=60_000)


def _open_tab(page: Any, title: str) -> Any:
    """Click the tool view's tab whose title starts with ``title``; return the visible panel."""
    page.locator(".jupyter-widgets .lm-TabBar-tab", has_text=title).first.click()
    return page.locator(".jupyter-widgets .widget-tab-contents > .lm-Widget:not(.lm-mod-hidden)").first


def test_workbench_widgets_render_and_react_in_jupyterlab(page: Any, lab: Lab) -> None:
    with _screenshots(page, "browser_workbench"):
        _run_all_cells(page)
        _check_tabs_and_declaration(page)
        _check_fixture_row_shows_its_envelope(page)
        _check_golden_accept_writes_the_file(page, lab.root / "golden" / "issues_search_issues.json")
        _check_playground_validates_edited_arguments(page)
        body = page.locator("body").inner_text()
        assert "Error displaying widget" not in body
        assert "Loading widget" not in body


def _check_tabs_and_declaration(page: Any) -> None:
    tabs = page.locator(".jupyter-widgets .lm-TabBar-tab").all_inner_texts()
    titles = ["Declaration", "Lints", "Losses", "Fixtures", "Envelope", "Playground", "Golden"]
    assert [t.split(" (")[0] for t in tabs] == titles
    assert '"issues_search_issues"' in page.locator(".tk-declaration").first.inner_text()
    page.locator(".tk-declaration button.tk-copy").first.click()
    copied = page.evaluate("() => navigator.clipboard.readText()")
    assert json.loads(copied)["name"] == "issues_search_issues"


def _check_fixture_row_shows_its_envelope(page: Any) -> None:
    fixtures = _open_tab(page, "Fixtures")
    option = fixtures.locator("select option", has_text=FIXTURE_ID).first
    fixtures.locator("select").first.select_option(label=option.inner_text().strip())
    fixtures.locator(".tk-envelope-source").wait_for()
    assert f"fixture {FIXTURE_ID}" in fixtures.locator(".tk-envelope-source").inner_text()
    assert "wrong_type" in fixtures.locator(".tk-result").first.inner_text()
    fixtures.locator("b", has_text=f"▶ {FIXTURE_ID}").wait_for()
    _screenshot(page, "browser_fixtures.png")


def _check_golden_accept_writes_the_file(page: Any, golden_file: Path) -> None:
    golden = _open_tab(page, "Golden")
    golden.get_by_text("No golden file yet").wait_for()
    golden.get_by_role("button", name="Accept").click()
    golden.get_by_text("The declaration matches").wait_for()
    assert json.loads(golden_file.read_text())["name"] == "issues_search_issues"


def _check_playground_validates_edited_arguments(page: Any) -> None:
    playground = _open_tab(page, "Playground")
    editor = playground.locator("textarea").first
    validate = playground.get_by_role("button", name="Validate")
    editor.fill('{"query": "login timeout", "limit": "10"}')
    validate.click()
    page.wait_for_function("() => document.body.innerText.includes('string \"10\" is not an integer')")
    assert "invalid_arguments" in playground.locator(".tk-result").first.inner_text()
    editor.fill('{"query": "login timeout", "limit": 7}')
    validate.click()
    page.wait_for_function("() => document.body.innerText.includes('\"limit\": 7')")
    assert "invalid_arguments" not in playground.locator(".tk-result").first.inner_text()
