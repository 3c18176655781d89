"""Benchmark: every operation of four large OpenAPI documents → tools, side by side with google-adk.

For each spec, three measurements, each in a fresh subprocess (wall time of the whole process; peak RSS
from ``getrusage(RUSAGE_CHILDREN)`` in a helper process that starts only that child):

* ``json.loads``  - the floor: read and parse the file, nothing else;
* ``toolkit``     - ``from_openapi(path, select="all")`` (every operation lowered, linted, bundled); another
  child times ``json.loads`` and ``from_openapi`` *in process, after imports* (best of three), for the
  in-process ratio, and once more with every operation described through the overrides, so documents that
  lack descriptions (Discord) are lowered in full, as ADK does;
* ``google-adk``  - ``OpenAPIToolset(spec_str=...)`` + ``get_tools()`` in its own venv
  (``benchmarks/.cache/adk-venv``), under an address-space cap and a timeout, since it can exhaust memory.

``json.loads`` and ``toolkit`` whole-process runs are repeated (``--repeat``, best kept); each ADK run is
measured once (it takes tens of seconds, so noise matters less).

Run ``benchmarks/setup_openapi.sh`` once first (npm pack @octokit/openapi, and the ADK venv). Then::

    .venv/bin/python benchmarks/bench_openapi.py [--no-adk] [--adk-cap-gib 6] [--adk-timeout 300]
"""

from __future__ import annotations

import argparse
import json
import os
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
SPECS = {
    "github (current)": CACHE / "github-current" / "api.github.com.json",
    "github-3.0": CORPUS / "github-3.0.json",
    "discord-3.1": CORPUS / "discord-3.1.json",
    "stripe": CORPUS / "stripe.json",
}
ADK_PYTHON = CACHE / "adk-venv" / "bin" / "python"

FLOOR = """
import json, sys, time
t = time.perf_counter()
with open(sys.argv[1], "rb") as f:
    json.loads(f.read())
print(json.dumps({"in_process_s": time.perf_counter() - t}))
"""

TOOLKIT = """
import json, sys
import toolkit as tk
from toolkit._openapi import summarise
print(json.dumps(summarise(tk.from_openapi(sys.argv[1], "bench", select="all"))))
"""

IN_PROCESS = """
import gc, json, sys, time
import toolkit as tk
tk.from_openapi({"get": {"operationId": "warm", "description": "Warm the imports.",
                 "parameters": [{"name": "q", "in": "query", "schema": {"type": "string"}}]}}, "warm", select="all")
path, loads, build = sys.argv[1], [], []
for _ in range(3):  # best of three of each, alternating, so a noisy neighbour does not decide the ratio
    t = time.perf_counter()
    with open(path, "rb") as f:
        doc = json.loads(f.read())
    loads.append(time.perf_counter() - t)
    del doc
    gc.collect()
    t = time.perf_counter()
    toolset = tk.from_openapi(path, "bench", select="all")
    build.append(time.perf_counter() - t)
    del toolset
    gc.collect()
# Documents without descriptions (Discord) refuse most operations; describing every operation through the
# overrides makes toolkit lower all of them, the same work ADK does.
with open(path, "rb") as f:
    ids = [op.get("operationId") for item in json.loads(f.read()).get("paths", {}).values()
           for op in item.values() if isinstance(op, dict) and op.get("operationId")]
described = {op_id: {"description": "Described for the benchmark."} for op_id in ids}
t = time.perf_counter()
toolset = tk.from_openapi(path, "bench", select="all", overrides=described)
described_s = time.perf_counter() - t
print(json.dumps({"loads_s": min(loads), "build_s": min(build), "described_s": described_s,
                  "described_tools": len(toolset)}))
"""

ADK = """
import asyncio, json, logging, resource, sys, time
cap = int(sys.argv[2]) * 2**30
resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
logging.disable(logging.CRITICAL)
from google.adk.tools.openapi_tool.openapi_spec_parser.openapi_toolset import OpenAPIToolset
with open(sys.argv[1], encoding="utf-8") as f:
    text = f.read()
t = time.perf_counter()
toolset = OpenAPIToolset(spec_str=text, spec_str_type="json")
tools = asyncio.run(toolset.get_tools())
print(json.dumps({"in_process_s": time.perf_counter() - t, "tools": len(tools)}))
"""


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
        last = (err.strip().splitlines() or ["?"])[-1]
        return {"failed": f"exit {proc.returncode}: {last[:120]}", "wall_s": wall, "peak_mib": peak}
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return {**result, "wall_s": wall, "peak_mib": peak}


def measure(kind: str, spec: Path, args: argparse.Namespace) -> dict[str, Any]:
    """Measure in a fresh helper process so RUSAGE_CHILDREN's peak is this measurement's alone."""
    helper = [sys.executable, __file__, "--child", kind, str(spec), str(args.adk_cap_gib), str(args.adk_timeout)]
    done = subprocess.run(helper, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        return {"failed": (done.stderr.strip().splitlines() or ["?"])[-1][:120]}
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def best(results: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """The fastest of several whole-process runs (the machine is shared; noise only ever adds time)."""
    runs = list(results)
    ok = [r for r in runs if "failed" not in r]
    return min(ok, key=lambda r: float(r["wall_s"])) if ok else runs[0]


def child(kind: str, spec: str, cap_gib: str, timeout: str) -> None:
    if kind == "floor":
        result = run([sys.executable, "-c", FLOOR, spec], 600)
    elif kind == "toolkit":
        result = run([sys.executable, "-c", TOOLKIT, spec], 600)
    elif kind == "in_process":
        result = run([sys.executable, "-c", IN_PROCESS, spec], 600)
    else:
        result = run([str(ADK_PYTHON), "-c", ADK, spec, cap_gib], float(timeout))
    print(json.dumps(result))


def fmt(result: dict[str, Any]) -> str:
    if "failed" in result:
        return f"FAILED ({result['failed']})"
    return f"{result['wall_s']:7.2f} s {result['peak_mib']:7.0f} MiB"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--no-adk", action="store_true", help="skip google-adk")
    parser.add_argument("--adk-cap-gib", type=int, default=6, help="address-space cap for each ADK run")
    parser.add_argument("--adk-timeout", type=float, default=300, help="seconds before an ADK run is stopped")
    parser.add_argument("--repeat", type=int, default=3, help="whole-process runs of json.loads and toolkit (best)")
    parser.add_argument("--child", nargs=4, help=argparse.SUPPRESS)
    parser.add_argument("--only", nargs="*", default=None, help="spec labels to run (default: all four)")
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return
    if not args.no_adk and not ADK_PYTHON.exists():
        sys.exit("google-adk venv missing: run benchmarks/setup_openapi.sh (or pass --no-adk)")
    print(
        f"{'spec':18} {'MiB':>5} {'json.loads':>20} {'toolkit':>20} {'google-adk':>20} "
        f"{'adk/tk':>7} {'tk/loads':>9}  tools  refused"
    )
    for label, spec in SPECS.items():
        if args.only and label not in args.only:
            continue
        if not spec.exists():
            print(f"{label:18} missing {spec} (run benchmarks/setup_openapi.sh)")
            continue
        floor = best(measure("floor", spec, args) for _ in range(args.repeat))
        tk = best(measure("toolkit", spec, args) for _ in range(args.repeat))
        ratio = measure("in_process", spec, args)
        adk = {"failed": "skipped"} if args.no_adk else measure("adk", spec, args)
        speedup = f"{adk['wall_s'] / tk['wall_s']:6.1f}x" if "failed" not in adk and "failed" not in tk else "   n/a"
        in_proc = f"{ratio['build_s'] / ratio['loads_s']:8.2f}x" if "failed" not in ratio else "     n/a"
        size = spec.stat().st_size / 2**20
        refused = sum(tk.get("refusals", {}).values())
        print(
            f"{label:18} {size:5.1f} {fmt(floor):>20} {fmt(tk):>20} {fmt(adk):>20} {speedup:>7} {in_proc:>9}"
            f"  {tk.get('tools', '-'):>5}  {refused:>7}"
        )
        if "failed" not in ratio and "failed" not in tk:
            print(
                f"{'':18} in process, after imports (best of 3): json.loads {ratio['loads_s']:.3f} s, "
                f"from_openapi {ratio['build_s']:.3f} s; refusals {tk['refusals']}"
            )
            print(
                f"{'':18} every operation described through overrides: {ratio['described_tools']} tools in "
                f"{ratio['described_s']:.3f} s ({ratio['described_s'] / ratio['loads_s']:.2f}x json.loads)"
            )
        if "failed" not in adk and "tools" in adk:
            print(f"{'':18} google-adk in process: {adk['in_process_s']:.2f} s, {adk['tools']} tools")


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    main()
