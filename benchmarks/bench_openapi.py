"""Benchmark: every operation of every large OpenAPI document → tools, side by side with google-adk.

The documents: every spec of 1 MB or more in the shared corpus (``../shared/corpus/openapi``) and GitHub's
current description. For each, in fresh subprocesses (wall time of the whole process; peak RSS from
``getrusage(RUSAGE_CHILDREN)`` in a helper process that starts only that child):

* ``parse``       - the floor: read and parse the file, nothing else (``json.loads``; PyYAML's C safe loader
  for YAML);
* ``toolkit``     - ``from_openapi(path, select="all")`` (every operation lowered, linted, bundled);
* ``google-adk``  - ``OpenAPIToolset(spec_str=...)`` + ``get_tools()`` in its own venv
  (``benchmarks/.cache/adk-venv``), under an address-space cap and a timeout, since it can exhaust memory;
* in process, after imports, the parse and ``from_openapi`` alternating (``--rounds``, default 3: the best
  ``from_openapi`` of three, the best parse of nine, since one preemption doubles a 10 ms parse): once with
  ``select="all"`` and once with every operation described through the overrides (documents that lack
  descriptions, Discord, are then lowered in full, as ADK does); each in its own child, for its own peak RSS.
  ``--cpu`` times them in CPU time instead of wall time, for a machine crowded by other work.

Whole-process runs start from bytecode on both sides: pip byte-compiles google-adk when it installs it, and an
editable install of toolkit writes its own ``.pyc`` files on first import, unless ``PYTHONDONTWRITEBYTECODE``
is set (as on CI machines), when every run would compile toolkit's source again (about 0.1 s). So the benchmark
byte-compiles toolkit first (``compileall``, into the git-ignored ``__pycache__`` folders).

``parse`` and ``toolkit`` whole-process runs are repeated (``--repeat``, best kept); each ADK run is
measured once (it takes tens of seconds, so noise matters less).

Run ``benchmarks/setup_openapi.sh`` once first (npm pack @octokit/openapi, and the ADK venv). Then::

    .venv/bin/python benchmarks/bench_openapi.py [--no-adk] [--only stripe kubernetes-swagger2]
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import re
import resource
import subprocess
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
CACHE = HERE / ".cache"
CORPUS = HERE.parent.parent / "shared" / "corpus" / "openapi"
LARGE = 1_000_000
"""Bytes from which a corpus spec is benchmarked (1 MB)."""
ADK_PYTHON = CACHE / "adk-venv" / "bin" / "python"


def specs() -> dict[str, Path]:
    """GitHub's current description, then every corpus spec of 1 MB or more, by name."""
    found = {"github (current)": CACHE / "github-current" / "api.github.com.json"}
    if CORPUS.is_dir():
        for path in sorted(CORPUS.iterdir()):
            if path.suffix in (".json", ".yaml", ".yml") and path.stat().st_size >= LARGE:
                found[path.stem] = path
    return found


PARSE = """
import json, sys
def parse(path):
    with open(path, "rb") as f:
        data = f.read()
    if path.endswith((".yaml", ".yml")):
        import yaml
        return yaml.load(data, Loader=yaml.CSafeLoader)
    return json.loads(data)
"""

FLOOR = (
    PARSE
    + """
import time
t = time.perf_counter()
parse(sys.argv[1])
print(json.dumps({"in_process_s": time.perf_counter() - t}))
"""
)

TOOLKIT = """
import json, sys
import toolkit as tk
from toolkit._openapi import summarise
print(json.dumps(summarise(tk.from_openapi(sys.argv[1], "bench", select="all"))))
"""

IN_PROCESS = (
    PARSE
    + """
import gc, time
import toolkit as tk
tk.from_openapi({"get": {"operationId": "warm", "description": "Warm the imports.",
                 "parameters": [{"name": "q", "in": "query", "schema": {"type": "string"}}]}}, "warm", select="all")
path, selection, ROUNDS = sys.argv[1], sys.argv[2], int(sys.argv[3])
clock = time.process_time if sys.argv[4] == "cpu" else time.perf_counter
overrides = None
if selection == "described":
    # Documents without descriptions (Discord) refuse most operations; describing every operation through
    # the overrides makes toolkit lower all of them, the same work ADK does.
    overrides = {op.get("operationId"): {"description": "Described for the benchmark."}
                 for item in parse(path).get("paths", {}).values() if isinstance(item, dict)
                 for op in item.values() if isinstance(op, dict) and op.get("operationId")}
loads, build = [], []
for _ in range(ROUNDS):  # alternating, so a noisy neighbour does not decide the ratio; best of each kept
    for _ in range(3):  # the parse is short: one preemption would double it, so it gets three tries a round
        t = clock()
        doc = parse(path)
        loads.append(clock() - t)
        del doc
        gc.collect()
    t = clock()
    toolset = tk.from_openapi(path, "bench", select="all", overrides=overrides)
    build.append(clock() - t)
    tools = len(toolset)
    del toolset
    gc.collect()
print(json.dumps({"loads_s": min(loads), "build_s": min(build), "tools": tools}))
"""
)

ADK = """
import asyncio, json, logging, resource, sys, time
cap = int(sys.argv[2]) * 2**30
resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
logging.disable(logging.CRITICAL)
from google.adk.tools.openapi_tool.openapi_spec_parser.openapi_toolset import OpenAPIToolset
with open(sys.argv[1], encoding="utf-8") as f:
    text = f.read()
kind = "yaml" if sys.argv[1].endswith((".yaml", ".yml")) else "json"
t = time.perf_counter()
toolset = OpenAPIToolset(spec_str=text, spec_str_type=kind)
tools = asyncio.run(toolset.get_tools())
print(json.dumps({"in_process_s": time.perf_counter() - t, "tools": len(tools)}))
"""


_RAISED = re.compile(r"^[A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt)\b")


def failure(stderr: str) -> str:
    """What a failed child says: the last line naming the exception raised, with the two lines after it
    (pydantic follows its own with the field and the error, then a link), else the last line."""
    lines = stderr.strip().splitlines() or ["?"]
    raised = [index for index, line in enumerate(lines) if _RAISED.match(line)]
    shown = lines[raised[-1] : raised[-1] + 3] if raised else lines[-1:]
    return " / ".join(line.strip() for line in shown)[:200]


def run(argv: list[str], timeout: float) -> dict[str, Any]:
    """Run one child; return its JSON line plus whole-process wall time and peak RSS (MiB)."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        return {"failed": f"timeout after {timeout:.0f} s", "wall_s": time.perf_counter() - start}
    wall = time.perf_counter() - start
    # The helper process that calls run() starts exactly one child, so RUSAGE_CHILDREN's peak is that child's.
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    if proc.returncode != 0:
        return {"failed": f"exit {proc.returncode}: {failure(err)}", "wall_s": wall, "peak_mib": peak}
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return {**result, "wall_s": wall, "peak_mib": peak}


def measure(kind: str, spec: Path, args: argparse.Namespace) -> dict[str, Any]:
    """Measure in a fresh helper process so RUSAGE_CHILDREN's peak is this measurement's alone."""
    helper = [sys.executable, __file__, "--child", kind, str(spec), str(args.adk_cap_gib), str(args.adk_timeout)]
    helper.append(f"{args.rounds}:{'cpu' if args.cpu else 'wall'}")
    done = subprocess.run(helper, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        return {"failed": failure(done.stderr)}
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def best(results: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """The fastest of several whole-process runs (the machine is shared; noise only ever adds time)."""
    runs = list(results)
    ok = [r for r in runs if "failed" not in r]
    return min(ok, key=lambda r: float(r["wall_s"])) if ok else runs[0]


def child(kind: str, spec: str, cap_gib: str, timeout: str, rounds: str) -> None:
    if kind == "floor":
        result = run([sys.executable, "-c", FLOOR, spec], 600)
    elif kind == "toolkit":
        result = run([sys.executable, "-c", TOOLKIT, spec], 600)
    elif kind in ("all", "described"):
        result = run([sys.executable, "-c", IN_PROCESS, spec, kind, *rounds.split(":")], 600)
    else:
        result = run([str(ADK_PYTHON), "-c", ADK, spec, cap_gib], float(timeout))
    print(json.dumps(result))


def fmt(result: dict[str, Any]) -> str:
    if "failed" in result:
        return f"FAILED ({result['failed']})"
    return f"{result['wall_s']:6.2f} s {result['peak_mib']:5.0f} MiB"


def in_process(result: dict[str, Any]) -> str:
    """``build ms, ratio to the parse, peak MiB`` of one in-process child."""
    if "failed" in result:
        return f"{'FAILED':>26}"
    ratio = result["build_s"] / result["loads_s"]
    return f"{result['build_s'] * 1000:7.0f} {ratio:6.2f}x {result['peak_mib']:5.0f}  {result['tools']:>5}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--no-adk", action="store_true", help="skip google-adk")
    parser.add_argument("--adk-cap-gib", type=int, default=6, help="address-space cap for each ADK run")
    parser.add_argument("--adk-timeout", type=float, default=300, help="seconds before an ADK run is stopped")
    parser.add_argument("--repeat", type=int, default=3, help="whole-process runs of the parse and toolkit (best)")
    parser.add_argument("--rounds", type=int, default=3, help="in-process rounds (best from_openapi of them)")
    parser.add_argument("--cpu", action="store_true", help="in-process times in CPU time (on a crowded machine)")
    parser.add_argument("--child", nargs=5, help=argparse.SUPPRESS)
    parser.add_argument("--only", nargs="*", default=None, help="spec names to run (default: every one)")
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return
    if not args.no_adk and not ADK_PYTHON.exists():
        sys.exit("google-adk venv missing: run benchmarks/setup_openapi.sh (or pass --no-adk)")
    # ADK's install is byte-compiled (pip does it); toolkit's editable one is too, unless PYTHONDONTWRITEBYTECODE
    # kept it from writing its .pyc files, so each run would compile the source again: compile it once here.
    compileall.compile_dir(HERE.parent / "toolkit", quiet=1)
    clock = "CPU" if args.cpu else "wall"
    print(f"whole process (wall, peak RSS); in process after imports ({clock} time), best of {args.rounds}: parse ms,")
    print("then for select='all' and for every operation described: from_openapi ms, ratio, peak MiB, tools")
    print(
        f"{'spec':26} {'MiB':>4} {'parse':>16} {'toolkit':>16} {'google-adk':>16} {'adk/tk':>7} "
        f"{'parse ms':>8} | {'all ms':>7} {'ratio':>7} {'MiB':>5}  {'tools':>5} | "
        f"{'desc ms':>7} {'ratio':>7} {'MiB':>5}  {'tools':>5}"
    )
    for label, spec in specs().items():
        if args.only and label not in args.only:
            continue
        if not spec.exists():
            print(f"{label:26} missing {spec} (run benchmarks/setup_openapi.sh)")
            continue
        floor = best(measure("floor", spec, args) for _ in range(args.repeat))
        tk = best(measure("toolkit", spec, args) for _ in range(args.repeat))
        every = measure("all", spec, args)
        described = measure("described", spec, args)
        adk = {"failed": "skipped"} if args.no_adk else measure("adk", spec, args)
        speedup = f"{adk['wall_s'] / tk['wall_s']:6.1f}x" if "failed" not in adk and "failed" not in tk else "   n/a"
        parse_ms = f"{every['loads_s'] * 1000:8.0f}" if "failed" not in every else f"{'-':>8}"
        size = spec.stat().st_size / 2**20
        print(
            f"{label:26} {size:4.1f} {fmt(floor):>16} {fmt(tk):>16} {fmt(adk):>16} {speedup:>7} "
            f"{parse_ms} | {in_process(every)} | {in_process(described)}",
            flush=True,
        )
        if "failed" not in tk and tk.get("refusals"):
            print(f"{'':26} refusals (select='all'): {tk['refusals']}")
        if "failed" not in adk and "tools" in adk:
            print(f"{'':26} google-adk in process: {adk['in_process_s']:.2f} s, {adk['tools']} tools")
        for name, result in (("floor", floor), ("toolkit", tk), ("all", every), ("described", described)):
            if "failed" in result:
                print(f"{'':26} {name}: {result['failed']}")


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    main()
