"""The cost of ``import toolkit`` and of a first call, against another revision, side by side in one run.

Every notebook start and every ``toolkit lower file.py:fn`` pays the import, so it is measured against a
reference revision (by default ``aaf30fc``, where the current stage started) checked out by ``git worktree``
into ``benchmarks/.cache/``. Both run in the same loop, alternating, so a noisy neighbour slows both alike;
the table gives medians and the ratio ``this ÷ reference``.

Three programs, each a fresh process (the time of ``python -c pass`` is subtracted):

* ``import``  - ``import toolkit``;
* ``first``   - the import, then ``from_function`` of a two-parameter function, its ``declaration`` and one
  ``validate``: what a notebook's first cell pays;
* ``modules`` - how many ``toolkit`` modules the import loads (a count, not a time).

Each with bytecode compiled beforehand (``warm``, as after an install) and without any (``cold``: a fresh
``PYTHONPYCACHEPREFIX`` per run, as on a first run of a fresh clone)::

    .venv/bin/python benchmarks/bench_import.py [--ref aaf30fc] [--rounds 15]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
CACHE = HERE / ".cache"

FIRST_CALL = """
import toolkit as tk
def search(query: str, limit: int = 10) -> list[str]:
    '''Search the issues.

    Args:
        query: Words to look for.
        limit: How many to return.
    '''
    return []
tool = tk.from_function(search, effect="read")
tool.declaration
tool.validate({"query": "login", "limit": 5})
"""

PROGRAMS = {"import": "import toolkit", "first": FIRST_CALL}
COUNT = "import sys, toolkit; print(sum(1 for m in sys.modules if m.split('.')[0] == 'toolkit'))"


def checkout(ref: str) -> Path:
    """A worktree of ``ref`` under ``benchmarks/.cache/`` (made once, reused while it is at that commit)."""
    commit = subprocess.run(
        ["git", "rev-parse", "--verify", f"{ref}^{{commit}}"], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout.strip()
    where = CACHE / f"import-{commit[:12]}"
    if not (where / "toolkit" / "__init__.py").exists():
        CACHE.mkdir(exist_ok=True)
        subprocess.run(["git", "worktree", "prune"], cwd=REPO, check=True)
        subprocess.run(["git", "worktree", "add", "--detach", "-f", str(where), commit], cwd=REPO, check=True)
    return where


def run(code: str, root: Path, cold: bool) -> float:
    """Seconds one fresh process takes to run ``code`` with ``root`` first on its path."""
    env = dict(os.environ, PYTHONPATH=str(root), PYTHONHASHSEED="0")
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    with tempfile.TemporaryDirectory() as prefix:
        if cold:
            env["PYTHONPYCACHEPREFIX"] = prefix
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], cwd=root, env=env, check=True)
        return time.perf_counter() - start


def modules(root: Path) -> int:
    env = dict(os.environ, PYTHONPATH=str(root))
    out = subprocess.run([sys.executable, "-c", COUNT], cwd=root, env=env, capture_output=True, text=True, check=True)
    return int(out.stdout.strip())


def compile_all(root: Path) -> None:
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(root / "toolkit")], check=True)


def measure(roots: dict[str, Path], rounds: int) -> dict[tuple[str, str, str], float]:
    """Median seconds per (revision, program, warm|cold), ``python -c pass`` subtracted, runs interleaved."""
    samples: dict[tuple[str, str, str], list[float]] = {}
    for _ in range(rounds):
        for temperature in ("warm", "cold"):
            for name, root in roots.items():
                empty = run("pass", root, cold=False)
                for program, code in PROGRAMS.items():
                    key = (name, program, temperature)
                    samples.setdefault(key, []).append(run(code, root, temperature == "cold") - empty)
    return {key: statistics.median(values) for key, values in samples.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ref", default="aaf30fc", help="the reference revision (default: aaf30fc)")
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args(argv)
    roots = {"this": REPO, args.ref: checkout(args.ref)}
    for root in roots.values():
        compile_all(root)
    medians = measure(roots, args.rounds)
    print(f"{'program':<8} {'bytecode':<8} {'this ms':>8} {args.ref + ' ms':>12} {'ratio':>6}")
    for program in PROGRAMS:
        for temperature in ("warm", "cold"):
            this, ref = medians[("this", program, temperature)], medians[(args.ref, program, temperature)]
            print(f"{program:<8} {temperature:<8} {this * 1000:>8.1f} {ref * 1000:>12.1f} {this / ref:>5.2f}x")
    print(f"{'modules':<8} {'':<8} {modules(REPO):>8} {modules(roots[args.ref]):>12}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
