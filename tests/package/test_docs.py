"""The reference lives in ``docs/``: the generated pages equal what the code renders today, the README links every
page, and every relative link in README and ``docs/`` names a file that exists.

Internals: ``docs/generate.py``, the script that writes the generated pages (loaded from its file)."""

from __future__ import annotations

import argparse
import importlib.util
import re
import shutil
from pathlib import Path
from types import ModuleType

import pytest
from locations import REPO

from toolkit.cli import build_parser

LINK = re.compile(r"\]\(([^)#\s]+)(#[^)\s]*)?\)")


@pytest.fixture(scope="module")
def generate(repo_root: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location("docs_generate", repo_root / "docs" / "generate.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_generated_pages_are_what_the_code_renders(generate: ModuleType) -> None:
    stale = sorted(generate.stale_pages())
    assert not stale, f"docs/ is out of date with the code: {stale}; regenerate with `python docs/generate.py`"


def test_a_page_that_differs_is_found_and_rewritten(
    generate: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in generate.PAGES:
        shutil.copy(generate.DOCS / name, tmp_path / name)
    (tmp_path / "reference.md").write_text("# Reference\n\nedited by hand\n", encoding="utf-8")
    (tmp_path / "api.md").unlink()
    monkeypatch.setattr(generate, "DOCS", tmp_path)
    assert generate.main(["--check"]) == 1
    assert "docs/reference.md is out of date" in capsys.readouterr().out
    assert sorted(generate.stale_pages()) == ["api.md", "reference.md"]
    assert generate.main([]) == 0
    assert generate.stale_pages() == {}
    assert generate.main(["--check"]) == 0


def test_the_cli_page_shows_every_command_and_option(repo_root: Path) -> None:
    page = (repo_root / "docs" / "cli.md").read_text(encoding="utf-8")
    commands = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    for name, parser in commands.choices.items():
        section = page[page.index(f"\n## toolkit {name}\n") :].split("\n## ", 2)[1]
        options = [o for a in parser._actions for o in a.option_strings if o not in ("-h", "--help")]
        assert all(f"`{option}" in section for option in options), name


def test_the_readme_links_every_docs_page(repo_root: Path) -> None:
    linked = {target for target, _ in LINK.findall((repo_root / "README.md").read_text(encoding="utf-8"))}
    pages = {f"docs/{page.name}" for page in (repo_root / "docs").glob("*.md")}
    assert pages <= linked
    assert "docs/workbench.png" in linked
    assert (repo_root / "docs" / "workbench.png").read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


@pytest.mark.parametrize("page", ["README.md", *(f"docs/{p.name}" for p in sorted((REPO / "docs").glob("*.md")))])
def test_every_relative_link_names_a_file_that_exists(repo_root: Path, page: str) -> None:
    path = repo_root / page
    targets = [t for t, _ in LINK.findall(path.read_text(encoding="utf-8")) if "://" not in t]
    missing = [t for t in targets if not (path.parent / t).exists()]
    assert not missing, f"{page} links to files that do not exist: {missing}"


def test_a_link_to_an_anchor_names_a_heading_of_its_page(repo_root: Path) -> None:
    broken = []
    for page in [repo_root / "README.md", *sorted((repo_root / "docs").glob("*.md"))]:
        for target, anchor in LINK.findall(page.read_text(encoding="utf-8")):
            if anchor and target.endswith(".md"):
                headings = (page.parent / target).read_text(encoding="utf-8").splitlines()
                slugs = {_anchor(line.lstrip("#").strip()) for line in headings if line.startswith("#")}
                if anchor[1:] not in slugs:
                    broken.append(f"{page.name}: {target}{anchor}")
    assert not broken


def _anchor(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
