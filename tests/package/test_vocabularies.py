"""The package's closed vocabularies each live in one table, and the source never strays from them.

Five vocabularies: ``FieldError.code`` and ``Notice.action`` (``toolkit._envelope_codes``), exception slugs
(``toolkit._exceptions.ERROR_SLUGS``, derived from each exception class's own ``slugs`` table), the
per-operation refusal slugs (``toolkit._openapi._refusal.SLUGS``) and the dialect refusal slugs
(``toolkit._lowering._dialect.DIALECT_SLUGS``). An ast scan of the package finds every literal written where one
of them goes: the code/action/slug argument of ``FieldError``, ``Notice``, ``Refusal``, ``Rejection`` and of
every function whose parameter is typed with a vocabulary's ``Literal`` alias, ``slug=`` of an exception
class, class-level ``slug = ...``, and the strings a local variable or module table feeds into those places.
Every literal must be in its table, every entry must be written somewhere (or say ``reserved:``), and
``docs/reference.md`` must equal the tables' rendering (``tests/package/test_docs.py``). The scan lives in
``tests/vocabulary_scan.py``.

Internals: every closed vocabulary table (slugs, codes, actions, refusals) and ``_exceptions``'s source, which this
module checks the package against.
"""

from __future__ import annotations

import ast
import typing
from collections.abc import Mapping
from pathlib import Path

import pytest
from vocabulary_scan import Finding, Scan, package_sources

from toolkit import ToolkitError, _exceptions
from toolkit._envelope_codes import FIELD_CODES, NOTICE_ACTIONS, FieldCode, NoticeAction
from toolkit._exceptions import ERROR_SLUGS
from toolkit._lowering._dialect import DIALECT_SLUGS, DialectSlug
from toolkit._openapi._refusal import SLUGS, RefusalSlug

TABLES: Mapping[str, tuple[Mapping[str, object], str]] = {
    "field code": (FIELD_CODES, "toolkit/_envelope_codes.py FIELD_CODES"),
    "notice action": (NOTICE_ACTIONS, "toolkit/_envelope_codes.py NOTICE_ACTIONS"),
    "exception slug": (ERROR_SLUGS, "the slugs table of its class in toolkit/_exceptions.py"),
    "refusal slug": (SLUGS, "toolkit/_openapi/_refusal.py SLUGS"),
    "dialect refusal slug": (DIALECT_SLUGS, "toolkit/_lowering/_dialect.py DIALECT_SLUGS"),
}


def _meaning(entry: object) -> str:
    return entry.meaning if isinstance(entry, _exceptions.Slug) else str(entry)


@pytest.fixture(scope="module")
def scan() -> Scan:
    return Scan(package_sources())


@pytest.fixture(scope="module")
def findings(scan: Scan) -> list[Finding]:
    return list(scan.findings())


# -- tables and their aliases ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("alias", "table"),
    [
        pytest.param(FieldCode, FIELD_CODES, id="field-codes"),
        pytest.param(NoticeAction, NOTICE_ACTIONS, id="notice-actions"),
        pytest.param(RefusalSlug, SLUGS, id="refusal-slugs"),
        pytest.param(DialectSlug, DIALECT_SLUGS, id="dialect-refusal-slugs"),
    ],
)
def test_literal_alias_lists_exactly_the_table_keys(alias: object, table: Mapping[str, object]) -> None:
    families = {key for key in table if "<" in key}  # filled in at run time: no Literal can spell them
    assert set(typing.get_args(alias)) == set(table) - families


@pytest.mark.parametrize("vocabulary", list(TABLES))
def test_every_meaning_is_one_short_line(vocabulary: str) -> None:
    table, _ = TABLES[vocabulary]
    bad = {key: _meaning(entry) for key, entry in table.items() if not 0 < len(_meaning(entry)) <= 110}
    bad |= {key: _meaning(entry) for key, entry in table.items() if "\n" in _meaning(entry)}
    assert not bad, f"{vocabulary} meanings must be one line of at most 110 characters: {bad}"


# -- the source against the tables -----------------------------------------------------------------------
@pytest.mark.parametrize("vocabulary", list(TABLES))
def test_every_literal_in_the_package_is_in_its_table(findings: list[Finding], vocabulary: str) -> None:
    table, home = TABLES[vocabulary]
    strays = sorted(f"{f.where}: {f.value!r}" for f in findings if f.vocabulary == vocabulary and f.value not in table)
    assert not strays, f"{vocabulary}s missing from {home} (add each with its meaning, and to its Literal): {strays}"


@pytest.mark.parametrize("vocabulary", list(TABLES))
def test_every_table_entry_is_written_somewhere_or_reserved(findings: list[Finding], vocabulary: str) -> None:
    table, home = TABLES[vocabulary]
    used = {f.value for f in findings if f.vocabulary == vocabulary}
    reserved = {key for key, entry in table.items() if _meaning(entry).startswith("reserved:")}
    assert set(table) - used == reserved, (
        f"{home}: an entry the package never writes must say 'reserved:' (or go), and a reserved one in use must "
        f"not; unused {sorted(set(table) - used)}, reserved {sorted(reserved)}"
    )


ROOT_RAISED: dict[str, str] = {}
"""Where the package still raises the root itself, with the slug it passes (none: each raises its slug's class);
the tests below hold this list to exactly the sites that remain."""


def test_exception_slugs_name_exactly_the_classes_that_raise_them(findings: list[Finding]) -> None:
    raised: dict[str, set[str]] = {}
    for f in findings:
        if f.vocabulary == "exception slug" and ROOT_RAISED.get(f.where.partition(":")[0]) != f.value:
            raised.setdefault(f.value, set()).add(f.raiser)
    documented = {slug: {entry.raised_by.__name__} for slug, entry in ERROR_SLUGS.items()}
    wrong = {slug: (sorted(raised[slug]), sorted(by)) for slug, by in documented.items() if raised.get(slug, by) != by}
    assert not wrong, f"a slug is raised by a class other than the one whose table states it (seen, stated): {wrong}"


def test_every_error_class_states_its_own_slugs_once() -> None:
    """Each class of the tree has its own ``slugs`` table (its own slug first), no slug is in two tables, and
    ``toolkit/_exceptions.py`` writes each slug exactly once."""
    classes = [c for c in vars(_exceptions).values() if isinstance(c, type) and issubclass(c, ToolkitError)]
    assert all(c.__dict__.get("slugs") and c.slug == next(iter(c.slugs)) for c in classes)
    assert len(ERROR_SLUGS) == sum(len(c.__dict__["slugs"]) for c in classes)
    assert {entry.raised_by for entry in ERROR_SLUGS.values()} == set(classes)
    source = Path(_exceptions.__file__).read_text(encoding="utf-8")
    counts = {slug: source.count(f'"{slug}"') for slug in ERROR_SLUGS}
    assert {slug: n for slug, n in counts.items() if n != 1} == {}


def test_the_root_is_raised_only_where_listed(scan: Scan) -> None:
    sites = {
        module.path
        for module in scan.modules
        for node in ast.walk(module.tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "ToolkitError"
    }
    assert sites == set(ROOT_RAISED)


def test_the_typed_parameters_are_the_ones_the_scan_follows(scan: Scan) -> None:
    typed = scan.typed
    names = ("error", "notice", "_bad_binding", "Refusal", "reject", "refuse")
    assert {name: typed[name][0] for name in names} == {
        "error": "field code",
        "notice": "notice action",
        "_bad_binding": "field code",
        "Refusal": "refusal slug",
        "reject": "refusal slug",
        "refuse": "dialect refusal slug",
    }


# -- the scan itself: it sees every kind of site (so the tests above can fail) ----------------------------
SAMPLE = """
from toolkit._envelope_codes import FieldCode
from toolkit._exceptions import SpecError

class MineError(SpecError):
    slug = "sample_class_slug"

class Quiet(SpecError):
    pass

def helper(loc, code: FieldCode, problem):
    return FieldError(loc, code, problem, "")

_TABLE = {403: "sample_table_code"}

def build(run, refusal, status, flag):
    run.error(None, "sample_run_code", "p", "e")
    run.notice(None, "sample_run_action", "m")
    helper(None, "sample_helper_code", "p")
    FieldError("", code="sample_keyword_code", problem="p", expected="e")
    Notice(field="", action="sample_keyword_action")
    code = _TABLE.get(status, f"sample_{status}")
    FieldError("", code, "p", "e")
    FieldError("", "sample_if_a" if flag else "sample_if_b", "p", "e")
    Rejection(None, "", "", "sample_rejection_slug", "m")
    Refusal(refusal.slug, "passed on, not a new slug")
    Quiet("m", slug="sample_subclass_slug")
    raise Refusal("sample_refusal_slug", "m")

def opaque(run, made):
    run.error(None, made(), "p", "e")
"""


@pytest.mark.slow
def test_the_scan_finds_a_literal_at_every_kind_of_site() -> None:
    scan = Scan({**package_sources(), "sample.py": SAMPLE})
    found = {(f.vocabulary, f.value, f.raiser) for f in scan.findings() if f.where.startswith("sample.py")}
    assert found == {
        ("exception slug", "sample_class_slug", "SpecError"),
        ("exception slug", "sample_subclass_slug", "SpecError"),
        ("field code", "sample_run_code", ""),
        ("field code", "sample_helper_code", ""),
        ("field code", "sample_keyword_code", ""),
        ("field code", "sample_table_code", ""),
        ("field code", "sample_<status>", ""),
        ("field code", "sample_if_a", ""),
        ("field code", "sample_if_b", ""),
        ("field code", "<cannot tell: made()>", ""),
        ("notice action", "sample_run_action", ""),
        ("notice action", "sample_keyword_action", ""),
        ("refusal slug", "sample_rejection_slug", ""),
        ("refusal slug", "sample_refusal_slug", ""),
    }
