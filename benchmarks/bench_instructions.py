"""Instructions, not seconds: ``from_openapi(select="all")`` against parsing the same file, counted by valgrind.

Wall and CPU times on these shared 2-core machines swing by 20-40% from one minute to the next, which hides a
10% change; the number of instructions a build executes does not (with ``PYTHONHASHSEED`` fixed it repeats to
within a fraction of a percent). For each spec (the corpus specs of 1 MB or more, as in ``bench_openapi.py``),
three runs under ``valgrind --tool=cachegrind`` count the instructions of the process:

* ``base``  - the imports and one warm-up build of a one-operation document, nothing else;
* ``parse`` - the same, then the parse of the file (``json.loads``; PyYAML's C safe loader for YAML);
* ``build`` - the same, then ``from_openapi(path, select="all")``;

and the table gives ``parse - base`` and ``build - base`` in millions, and their ratio: the in-process ratio
of ``bench_openapi.py`` in a unit the neighbours cannot change. (Instructions are not time: a build that
allocates more waits more on memory. Use it to compare two versions of toolkit, ``--pythonpath`` pointing at
the other one's checkout, and ``bench_openapi.py`` for the times.)

Each spec takes about 20 s to 3 min under valgrind (Kubernetes is the slowest)::

    .venv/bin/python benchmarks/bench_instructions.py [--only stripe box] [--pythonpath ../other-checkout]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORPUS = HERE.parent.parent / "shared" / "corpus" / "openapi"
LARGE = 1_000_000

CHILD = """
import sys
import toolkit as tk
tk.from_openapi({"get": {"operationId": "warm", "description": "Warm the imports.",
                 "parameters": [{"name": "q", "in": "query", "schema": {"type": "string"}}]}}, "warm", select="all")
path, what = sys.argv[1], sys.argv[2]
if what == "parse":
    with open(path, "rb") as f:
        data = f.read()
    if path.endswith((".yaml", ".yml")):
        import yaml
        yaml.load(data, Loader=yaml.CSafeLoader)
    else:
        import json
        json.loads(data)
elif what == "build":
    tk.from_openapi(path, "bench", select="all")
"""

_REFS = re.compile(r"I\s+refs:\s+([\d,]+)")


def instructions(path: Path, what: str, pythonpath: str | None) -> int:
    env = dict(os.environ, PYTHONHASHSEED="0")
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    command = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null"]
    with tempfile.TemporaryDirectory() as away:  # not the checkout: `-c` puts the working folder on sys.path
        done = subprocess.run(
            [*command, sys.executable, "-c", CHILD, str(path), what],
            env=env,
            cwd=away,
            capture_output=True,
            text=True,
            timeout=1800,
        )
    found = _REFS.search(done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"valgrind failed on {path.name} ({what}): {done.stderr[-400:]}")
    return int(found.group(1).replace(",", ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", nargs="*", default=None, help="spec names to run (default: every large one)")
    parser.add_argument("--pythonpath", default=None, help="another toolkit checkout to count instead")
    parser.add_argument("--which", action="store_true", help="say which toolkit the runs import, and stop")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (apt-get install valgrind)")
    if not CORPUS.is_dir():
        raise SystemExit(f"the shared corpus is absent ({CORPUS})")
    if args.which:
        env = dict(os.environ, **({"PYTHONPATH": args.pythonpath} if args.pythonpath else {}))
        with tempfile.TemporaryDirectory() as away:
            which = [sys.executable, "-c", "import toolkit; print(toolkit.__file__)"]
            subprocess.run(which, env=env, cwd=away, check=True)
        return
    specs = sorted(p for p in CORPUS.iterdir() if p.suffix in (".json", ".yaml") and p.stat().st_size >= LARGE)
    if args.only:
        specs = [p for p in specs if p.stem in args.only]
    print(f"{'spec':22} {'parse M':>9} {'build M':>9} {'ratio':>7}")
    for path in specs:
        base = instructions(path, "base", args.pythonpath)
        parse = instructions(path, "parse", args.pythonpath) - base
        build = instructions(path, "build", args.pythonpath) - base
        print(f"{path.stem:22} {parse / 1e6:9.0f} {build / 1e6:9.0f} {build / parse:6.1f}x", flush=True)


if __name__ == "__main__":
    main()
