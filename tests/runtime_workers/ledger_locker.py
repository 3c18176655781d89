"""Holds a SQLite file's write lock, as another program sharing the ledger file might.

--after FILE    wait until FILE exists before taking the lock
--locked FILE   touch FILE once the lock is held
--until FILE    keep the lock until FILE exists (at most 30 s), then commit and exit
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
import time
from pathlib import Path


def wait_for(path: Path) -> None:
    deadline = time.monotonic() + 30
    while not path.exists():
        if time.monotonic() > deadline:
            sys.exit(f"{path} never appeared")
        time.sleep(0.005)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--ledger", required=True)
    parser.add_argument("--after")
    parser.add_argument("--locked", required=True)
    parser.add_argument("--until", required=True)
    options = parser.parse_args()
    if options.after:
        wait_for(Path(options.after))
    conn = sqlite3.connect(options.ledger, timeout=30, isolation_level=None)
    conn.execute("BEGIN IMMEDIATE")
    conn.execute("CREATE TABLE IF NOT EXISTS lock_holder (at REAL)")
    conn.execute("INSERT INTO lock_holder VALUES (?)", (time.time(),))
    Path(options.locked).touch()
    wait_for(Path(options.until))
    conn.execute("COMMIT")
    conn.close()


if __name__ == "__main__":
    main()
