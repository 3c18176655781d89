"""A process that makes one call to a generated HTTP tool behind the ledger and prints the envelope as JSON.

Run by ``tests/runtime/test_exactly_once_processes.py``. ``--via module`` wraps the generated package's tool with
``idempotent(tool, ledger=..., scope=...)``; ``--via executor`` runs it through an ``Executor`` given the ledger
(which wraps write tools itself). A ledger the process cannot use prints ``{"error": <slug>}`` instead.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from typing import Any

from toolkit import ToolContext, ToolkitError
from toolkit.runtime import Executor, Ledger, idempotent
from toolkit.runtime.http import HttpConfig


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--package-dir", required=True)
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--ledger", required=True)
    parser.add_argument("--tool", required=True)
    parser.add_argument("--args", required=True)
    parser.add_argument("--via", choices=["module", "executor"], default="module")
    parser.add_argument("--scope")
    parser.add_argument("--session", default="s-1")
    parser.add_argument("--key", help="a caller-supplied idempotency key")
    options = parser.parse_args()

    sys.path.insert(0, options.package_dir)
    package: Any = importlib.import_module("bank_tools")
    tools = {tool.name: tool for tool in package.load_tools(HttpConfig(base_url=options.base_url, timeout=10))}
    extras = {} if options.key is None else {"idempotency_key": options.key}
    context = ToolContext(session_id=options.session, extras=extras)
    args = json.loads(options.args)
    try:
        ledger = Ledger(options.ledger)
    except ToolkitError as error:
        print(json.dumps({"error": error.slug}))
        return
    if options.via == "module":
        result = idempotent(tools[options.tool], ledger=ledger, scope=options.scope).call(args, context)
    else:
        executor = Executor(list(tools.values()), ledger=ledger, scope=options.scope, timeout=30)
        result = executor.execute(options.tool, args, context)
    print(result.to_json())


if __name__ == "__main__":
    main()
