"""``toolkit demo``: the workbench in one minute, against a local Orders API (no network, no keys to set up).

Starts the demo Orders API on 127.0.0.1 (SQLite file under ``.toolkit/``), builds the tools of
``specs/orders.yaml``, shows their declarations, then fires a few ugly arguments through the HTTP runtime and
shows the envelopes the model would read back: invalid arguments, a clamped limit, a refund that needs
confirmation, the confirmed refund, and an unknown order. ``--serve`` keeps the API running until Ctrl-C.
"""

from __future__ import annotations

import argparse
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolkit._commands import plain_text
from toolkit._context import ToolContext
from toolkit._exceptions import MissingExtraError, SpecError
from toolkit._openapi import from_openapi
from toolkit.runtime.http import HttpClient, HttpConfig, HttpTool, Trim

if TYPE_CHECKING:
    from rich.console import Console

    from toolkit._tool import Toolset

__all__ = ["SCENARIO", "add_parser", "find_spec", "run"]

SCENARIO: tuple[tuple[str, str, dict[str, Any], bool], ...] = (
    ("A string where the schema says integer", "orders_list", {"limit": "10"}, False),
    ("A limit above the maximum: read tools clamp it and say so", "orders_list", {"limit": 500}, False),
    ("A refund is a write that needs confirmation", "orders_refund_create", {"amount_minor": 500}, False),
    ("The same refund, confirmed by the user", "orders_refund_create", {"amount_minor": 500}, True),
    ("An order that does not exist", "orders_get", {"orderId": "ord_000000000000"}, False),
)
"""(title, tool, arguments, confirmed): the calls the demo fires; refunds go to the newest seeded order."""


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "demo",
        help="run the workbench demo against the local Orders API",
        description=plain_text(__doc__),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--serve", action="store_true", help="keep the demo API running until Ctrl-C")
    parser.add_argument("--db", metavar="FILE", help="SQLite file (default: .toolkit/demo-orders.sqlite3)")
    parser.add_argument("--spec", metavar="FILE", help="the Orders spec (default: specs/orders.yaml)")
    parser.add_argument("--port", type=int, default=0, help="port for the API (default: a free one)")


def find_spec(given: str | None = None) -> Path:
    """``specs/orders.yaml`` in the working folder, else the one beside the installed package."""

    candidates = (
        [Path(given)] if given else [Path("specs/orders.yaml"), Path(__file__).parents[2] / "specs/orders.yaml"]
    )
    for path in candidates:
        if path.is_file():
            return path
    raise SpecError(f"no Orders spec at {candidates[0]}; run from the repository root or pass --spec FILE")


def _http_tools(toolset: Toolset, client: HttpClient) -> dict[str, HttpTool]:
    trims = {"orders_list": Trim(keep_fields=("id", "status", "total"), max_items=3)}
    return {tool.name: HttpTool(tool, trim=trims.get(tool.name), client=client) for tool in toolset}


def _summary(console: Console, toolset: Toolset) -> None:
    # rich's renderables and the demo API's web stack load only when the demo runs.
    from rich.table import Table

    table = Table("tool", "effect", "confirm", "parameters", "losses", "lints", title=f"{toolset!r}")
    for tool in toolset:
        params = ", ".join((tool.parameters or {}).get("properties", {}))
        table.add_row(
            tool.name, tool.effect, "yes" if tool.confirm else "", params, str(len(tool.losses)), str(len(tool.lints))
        )
    console.print(table)


def _fire(console: Console, tools: dict[str, HttpTool], order_id: str) -> None:
    # rich loads when a command runs, so `toolkit --help` stays fast.
    from rich.json import JSON

    for title, name, arguments, confirmed in SCENARIO:
        args = dict(arguments)
        if name == "orders_refund_create":
            args.update(orderId=order_id, reason="requested_by_customer")
        context = ToolContext(session_id="demo", tool_name=name, extras={"confirmed": confirmed})
        result = tools[name].call(args, context)
        console.rule(f"[bold]{title}[/bold] → {result.status}", align="left")
        console.print(
            f"{name}({JSON.from_data(args, indent=None).text.plain})" + ("  # confirmed" if confirmed else "")
        )
        console.print(JSON(result.to_json(), indent=2))


def run(args: argparse.Namespace, console: Console) -> int:
    try:  # the demo API's web stack is the optional `demo` extra
        from toolkit.examples.demo_api import default_db_path, seeded_order_ids, serve
    except ModuleNotFoundError as error:
        raise MissingExtraError(
            f"the demo needs {error.name}, which is not installed: pip install 'toolkit-workbench[demo]'"
        ) from None

    spec = find_spec(args.spec)
    db_path = Path(args.db) if args.db else default_db_path()
    with serve(db_path, port=args.port) as server:
        console.print(f"[bold]Demo Orders API[/bold] on {server.base_url} (SQLite: {server.db_path})")
        toolset = from_openapi(spec, namespace="orders")
        _summary(console, toolset)
        credentials = {"apiKey": lambda: server.api_key}
        with HttpClient(HttpConfig(base_url=server.base_url, timeout=5.0, credentials=credentials)) as client:
            _fire(console, _http_tools(toolset, client), seeded_order_ids()[0])
        console.print("Open the notebooks:  [bold].venv/bin/jupyter lab notebooks/[/bold]")
        if args.serve:
            console.print(f"Serving on {server.base_url} with X-API-Key: {server.api_key}; Ctrl-C stops it.")
            try:
                threading.Event().wait()
            except KeyboardInterrupt:
                console.print("stopped")
    return 0
