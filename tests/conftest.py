"""Shared test fixtures: where the repo and the shared OpenAPI corpus are."""

from __future__ import annotations

from pathlib import Path

import pytest
from locations import CORPUS, REPO


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO


@pytest.fixture(scope="session")
def corpus_dir() -> Path:
    """The 26 real OpenAPI specs beside the repo; skipped on a clone without them."""
    if not (CORPUS / "MANIFEST.tsv").is_file():
        pytest.skip(f"OpenAPI corpus not found at {CORPUS} (it sits beside the repo in ../shared)")
    return CORPUS
