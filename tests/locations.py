"""Where things are, for tests in any folder under ``tests/`` and the support modules beside them: this folder
(``tests/``, with its data folders), the repo root, and the shared OpenAPI corpus beside the repo."""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent
CORPUS = REPO.parent / "shared" / "corpus" / "openapi"
