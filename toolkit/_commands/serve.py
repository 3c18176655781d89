"""``toolkit serve TARGET``: serve the target's tools over MCP, on stdio or on streamable HTTP (loopback only).

    toolkit serve specs/orders.yaml --base-url http://127.0.0.1:8765 --credential apiKey=ORDERS_API_KEY
    toolkit serve specs/orders.yaml --http --port 8000           # http://127.0.0.1:8000/mcp
    toolkit serve golden/generated/orders_tools --base-url URL   # a generated package (or its module name)
    toolkit serve tools.py        # every Tool and Toolset in the file (or tools.py:function: one function)

Clients list the tools' mcp payloads and call them through toolkit: strict validation, the user's confirmation
(asked through the client when it can show a form), the idempotency ledger for write tools (--ledger FILE,
default .toolkit/ledger.sqlite3; --no-ledger; --scope NAME keys every call in one stable name instead of the
client's session, so a restarted server replays what it ran: two clients asking for the same write are then one
call), and the HTTP runtime for OpenAPI operations, whose base URL is
--base-url or the spec's servers and whose credentials come from environment variables (--credential
SCHEME=VARIABLE, for each security scheme of the spec). On stdio nothing but the protocol goes to stdout; notes go
to stderr.

Serving beyond loopback (--http --host 0.0.0.0 --allow-remote) requires a bearer token that every request
carries (Authorization: Bearer ...): --token-env NAME reads it from an environment variable, --token-file PATH
from a file; it is compared in constant time, and a request without it or with another is answered 401. Host and
Origin are still checked: loopback names, plus each --allowed-host (e.g. tools.example.com:443, or NAME:* for any
port) and --allowed-origin (e.g. https://app.example.com); others are answered 421 / 403. At most --max-sessions
sessions are open at once, each closed after --idle-timeout seconds unused (defaults below). A request
whose JSON text repeats a key ({"amount": 1, "amount": 1000}) is refused (duplicate_key), never read as the last
copy. A client hanging up is one log line, no traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolkit._commands import plain_text, stale_pin_notices
from toolkit._exceptions import MissingExtraError, RuntimeConfigError, UsageError
from toolkit._targets import import_location, is_spec, load_spec, load_tools, split_target
from toolkit.runtime.exposure import DEFAULT_IDLE_TIMEOUT, DEFAULT_MAX_SESSIONS, read_token
from toolkit.runtime.http import HttpConfig

if TYPE_CHECKING:
    from rich.console import Console

    from toolkit.runtime.serving import Served

__all__ = ["add_parser", "run"]

DEFAULT_PORT = 8000


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "serve",
        help="serve tools over MCP (stdio, or streamable HTTP; beyond loopback with a bearer token)",
        description=plain_text(__doc__),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("target", help="spec.yaml | generated package | file.py[:function] | module[:function]")
    parser.add_argument("--namespace", help="tool-name prefix (specs: default from the file name)")
    parser.add_argument("--overrides", metavar="FILE", help="side file of per-operation overrides (YAML)")
    parser.add_argument("--http", action="store_true", help="streamable HTTP instead of stdio")
    parser.add_argument("--host", help="with --http: the address to listen on (default: 127.0.0.1)")
    parser.add_argument("--port", type=int, help=f"with --http: the port (default: {DEFAULT_PORT}; 0: a free one)")
    parser.add_argument(
        "--allow-remote", action="store_true", help="with --http: allow a non-loopback --host (needs a token)"
    )
    parser.add_argument("--token-env", metavar="NAME", help="with --http: the bearer token is in this variable")
    parser.add_argument("--token-file", metavar="PATH", help="with --http: the bearer token is in this file")
    for flag, metavar, what in (
        ("--allowed-host", "HOST[:PORT]", "a Host header to accept besides loopback (PORT * for any)"),
        ("--allowed-origin", "ORIGIN", "an Origin to accept besides loopback, e.g. https://app.example.com"),
    ):
        parser.add_argument(flag, action="append", default=[], metavar=metavar, help=f"with --http: {what} (repeat)")
    parser.add_argument(
        "--max-sessions", type=int, metavar="N", help=f"with --http: sessions open at once ({DEFAULT_MAX_SESSIONS})"
    )
    parser.add_argument(
        "--idle-timeout",
        type=float,
        metavar="SECONDS",
        help=f"with --http: close a session unused this long ({DEFAULT_IDLE_TIMEOUT:g})",
    )
    parser.add_argument("--base-url", metavar="URL", help="the API's base URL (default: the spec's servers)")
    parser.add_argument(
        "--credential",
        action="append",
        default=[],
        metavar="SCHEME=VARIABLE",
        help="the environment variable holding a security scheme's secret (repeat for each scheme)",
    )
    parser.add_argument("--ledger", metavar="FILE", help="idempotency ledger (default: .toolkit/ledger.sqlite3)")
    parser.add_argument("--no-ledger", action="store_true", help="write tools run without the idempotency ledger")
    parser.add_argument(
        "--scope",
        metavar="NAME",
        help="dedupe writes in this stable scope (survives restarts) instead of each client session",
    )


def run(args: argparse.Namespace, console: Console) -> int:
    # The runtime (executor, ledger, HTTP clients) loads only when serving, so `toolkit --help` stays fast.
    from toolkit.runtime.serving import DEFAULT_LEDGER_PATH, check_host, served

    _check_options(args)
    host = check_host(args.host or "127.0.0.1", allow_remote=args.allow_remote)
    credentials = _credentials(args.credential)
    try:  # the mcp SDK is the optional `mcp` extra, and heavy: it loads only when serving
        from toolkit.runtime import mcp
    except ModuleNotFoundError as error:
        raise MissingExtraError(
            f"serving needs {error.name}, which is not installed: pip install 'toolkit-workbench[mcp]'"
        ) from None
    # rich loads when a command runs, so `toolkit --help` stays fast.
    from rich.console import Console

    notes = Console(stderr=True, highlight=False, soft_wrap=True)
    stale_pin_notices(args.target)
    with _target_path(args.target):
        source = _source(args)
        ledger = None if args.no_ledger else (args.ledger or Path.cwd() / DEFAULT_LEDGER_PATH)
        config = HttpConfig(credentials=credentials)
        tools = served(source, base_url=args.base_url, config=config, ledger=ledger, scope=args.scope)
        try:
            _check_credentials(tools, credentials, notes)
            if args.http:
                port = DEFAULT_PORT if args.port is None else args.port
                ready = lambda url: _announce(notes, tools, f"at {url} (streamable HTTP); Ctrl-C stops")  # noqa: E731
                options = _http_options(args, mcp)
                mcp.run_http(
                    tools, host=host, port=port, allow_remote=args.allow_remote, on_ready=ready, options=options
                )
            else:
                _announce(notes, tools, "over stdio")
                mcp.run_stdio(tools)
        finally:
            tools.close()
    return 0


_HTTP_ONLY = ("host", "port", "token_env", "token_file", "max_sessions", "idle_timeout")


def _http_options(args: argparse.Namespace, mcp: Any) -> Any:
    """The HTTP server's admission options (``mcp.HttpOptions``) from the command line."""
    given = args.token_env is not None or args.token_file is not None
    token = read_token(args.token_env, args.token_file) if given else None
    limits = {name: getattr(args, name) for name in ("max_sessions", "idle_timeout") if getattr(args, name) is not None}
    hosts, origins = tuple(args.allowed_host), tuple(args.allowed_origin)
    return mcp.HttpOptions(token=token, allowed_hosts=hosts, allowed_origins=origins, **limits)


def _check_options(args: argparse.Namespace) -> None:
    given = [f"--{name.replace('_', '-')}" for name in _HTTP_ONLY if getattr(args, name) is not None]
    given += ["--allow-remote"] if args.allow_remote else []
    given += ["--allowed-host"] if args.allowed_host else []
    given += ["--allowed-origin"] if args.allowed_origin else []
    if given and not args.http:
        raise UsageError(f"{' and '.join(given)} apply to --http only; add --http to serve over HTTP")
    if args.port is not None and not 0 <= args.port <= 65535:
        raise UsageError(f"--port {args.port} is not a port number (0 to 65535)")
    if args.max_sessions is not None and args.max_sessions < 1:
        raise UsageError(f"--max-sessions {args.max_sessions} must be at least 1")
    if args.idle_timeout is not None and not args.idle_timeout > 0:
        raise UsageError(f"--idle-timeout {args.idle_timeout} must be a positive number of seconds")
    if args.ledger and args.no_ledger:
        raise UsageError("--ledger and --no-ledger contradict each other; give one")
    if args.scope is not None and (args.no_ledger or not args.scope.strip()):
        said = "--scope names the ledger's scope: drop --no-ledger" if args.no_ledger else "--scope needs a name"
        raise UsageError(said)


def _credentials(given: list[str]) -> dict[str, str]:
    """``SCHEME=VARIABLE`` pairs; each variable must be set now, so a missing secret fails before serving."""
    found: dict[str, str] = {}
    for item in given:
        scheme, sep, variable = item.partition("=")
        if not sep or not scheme or not variable:
            raise UsageError(f"--credential {item!r} is not SCHEME=VARIABLE (e.g. apiKey=ORDERS_API_KEY)")
        if not os.environ.get(variable):
            raise RuntimeConfigError(
                f"--credential {item}: the environment variable {variable} is unset or empty; export {variable}=...",
                slug="missing_credential",
            )
        found[scheme] = variable
    return found


@contextlib.contextmanager
def _target_path(target: str) -> Iterator[None]:
    """A package folder's parent on ``sys.path`` while serving, so the package imports by its name."""
    folder = Path(target)
    parent = str(folder.resolve().parent)
    added = folder.is_dir() and (folder / "__init__.py").is_file() and parent not in sys.path
    if added:
        sys.path.insert(0, parent)
    try:
        yield
    finally:
        if added and parent in sys.path:
            sys.path.remove(parent)


def _source(args: argparse.Namespace) -> Any:
    # The runtime (executor, ledger, HTTP clients) loads only when serving, so `toolkit --help` stays fast.
    from toolkit.runtime.serving import is_generated_package

    target = args.target
    if is_spec(target):
        return load_spec(target, args.namespace, overrides=args.overrides)
    folder = Path(target)
    if folder.is_dir() and (folder / "__init__.py").is_file():
        target = folder.resolve().name
    if split_target(target)[1] is None and not target.endswith(".py"):
        module = import_location(target)
        if is_generated_package(module):
            return module
    return load_tools(target, namespace=args.namespace, overrides=args.overrides)


def _check_credentials(tools: Served, credentials: dict[str, str], notes: Console) -> None:
    schemes: dict[str, list[str]] = {}
    for tool in tools.wire.tools:
        for scheme in tool.contract.security:
            schemes.setdefault(scheme.key, []).append(tool.name)
        for credential in tool.contract.credentials:  # a parameter the spec declares that carries a secret
            if tool.name not in schemes.setdefault(credential.key, []):
                schemes[credential.key].append(tool.name)
    unknown = sorted(set(credentials) - set(schemes))
    if unknown:
        known = ", ".join(sorted(schemes)) or "none"
        raise UsageError(
            f"--credential names {', '.join(unknown)}, which no served tool uses; the credential keys are: {known}"
        )
    for key, names in sorted(schemes.items()):
        if key not in credentials:
            notes.print(
                f"note: {len(names)} tool(s) send no {key!r} credential ({names[0]}, ...); "
                f"pass --credential {key}=VARIABLE if the API needs it",
                markup=False,
            )


def _announce(notes: Console, tools: Served, where: str) -> None:
    for payload in tools.wire.refused:
        reason = payload.refusal.message if payload.refusal is not None else "refused"
        notes.print(f"not served: {payload.tool}: {reason}", markup=False)
    names = ", ".join(tools.names.values())
    notes.print(f"serving {len(tools.names)} tool(s) {where}: {names}", markup=False)
