"""YAML read a block at a time: the value equals one parse of the whole text (the oracle), or the text is not cut.

Texts are real specs dumped as YAML (both list styles), edited one block at a time, and hand-written YAML that
a cut could misread (anchors across blocks, flow collections and quoted scalars over several lines, block
scalars with comment-like lines, duplicate keys, CRLF, tabs, document markers).

Internals: ``_paste._chunks`` (``parse_blocks``, ``CACHE_LIMIT``), ``paste`` and ``parse_text``, the block reader
and its oracle.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from toolkit import SpecError
from toolkit._openapi._parse import parse_text
from toolkit._paste import paste
from toolkit._paste._chunks import CACHE_LIMIT, parse_blocks


class _Indented(yaml.SafeDumper):
    """Lists indented under their key (PyYAML's default puts them at the key's indent)."""

    def increase_indent(self, flow: bool = False, indentless: bool = False) -> Any:
        return super().increase_indent(flow, False)


def _dumps(value: Any) -> list[str]:
    return [
        yaml.safe_dump(value, sort_keys=False, allow_unicode=True, width=100),
        yaml.dump(value, Dumper=_Indented, sort_keys=False, allow_unicode=True, width=100, indent=4),
    ]


def _agrees(text: str, cache: dict[str, Any] | None = None) -> Any:
    """The cut value, checked against one parse of the whole text."""
    value = parse_blocks(text, {} if cache is None else cache)
    if value is not None:
        assert value == parse_text(text)
        assert json.dumps(value) == json.dumps(parse_text(text)), "same keys in the same order"
    return value


@pytest.mark.corpus
@pytest.mark.parametrize("spec", ["petstore-expanded-3.0.yaml", "tictactoe-3.1.yaml", "uspto-3.0.yaml"])
def test_a_real_spec_read_by_blocks_equals_one_parse_and_an_edit_parses_one_block(corpus_dir: Path, spec: str) -> None:
    document = parse_text((corpus_dir / spec).read_bytes())
    for text in [(corpus_dir / spec).read_text(encoding="utf-8"), *_dumps(document)]:
        cache: dict[str, Any] = {}
        assert _agrees(text, cache) is not None, "an ordinary block document is cut"
        before = len(cache)
        path = next(iter(document["paths"]))
        edited = text.replace(path, path + "/edited", 1)
        assert edited != text
        assert _agrees(edited, cache) is not None
        assert len(cache) - before <= 1, "only the edited block is parsed again"


TRICKY = {
    "anchor in another block": "a: &x {k: 1}\nb: *x\n",
    "anchor in the same block": "a:\n  one: &x {k: 1}\n  two: *x\nb: 1\n",
    "alias across child blocks": "paths:\n  /a: &x {get: {}}\n  /b: *x\n",
    "merge key": "base: &b {k: 1}\nc:\n  <<: *b\n  m: 2\n",
    "flow over lines at child indent": "paths:\n  /a: {get: {x: 1},\n  post: {}}\n  /b: {}\n",
    "quoted scalar over lines": 'info:\n  title: "one\n  two: three"\n  version: "1"\n',
    "single-quoted over lines": "a: 'x\nb: y'\nc: 1\n",
    "block scalar with a comment-like line": "a:\n  d: |\n    text\n    # not a comment\n  e: 2\nb: 1\n",
    "comment at column 0 inside a block": "a:\n  d: 1\n# a comment\n  e: 2\nb: 1\n",
    "duplicate keys": "a:\n  x: 1\n  y: 2\na:\n  z: 3\n  w: 4\nb: {x: 1}\nb: 2\n",
    "duplicate child keys": "a:\n  x: 1\n  y: 2\n  x: 3\n",
    "indentless lists": "a:\n- 1\n- 2\nb:\n  c:\n  - x\n  d: 1\n",
    "list at top": "- a: 1\n- b: 2\n",
    "crlf": "a:\r\n  x: 1\r\n  y: 2\r\nb: 3\r\n",
    "no final line end": "a:\n  x: 1\n  y: 2\nb: 3",
    "tab indentation": "a:\n\tx: 1\nb: 2\n",
    "document marker": "---\na: 1\nb: 2\n",
    "two documents": "a: 1\n---\nb: 2\n",
    "directive": "%YAML 1.2\n---\na: 1\n",
    "leading comment and blank lines": "# spec\n\n\na:\n  x: 1\n  y: 2\n",
    "indented first line": "  a: 1\n  b: 2\n",
    "quoted keys": "'a': 1\n\"b\":\n  'x': 1\n  \"y\": 2\n",
    "explicit key": "? a\n: 1\nb: 2\n",
    "tagged values": "a: !!str 1\nb:\n  c: !!int '2'\n  d: 3\n",
    "dates and big ints": "a: 2024-01-01\nb:\n  c: 123456789012345678901234567890\n  d: 1.5\n",
    "empty values": "a:\nb:\n  c:\n  d: ~\n",
    "key with colon in value": "a: 'x: y'\nb: http://example.com\n",
    "deep keys": "a:\n  b:\n    c: 1\n  d:\n    e: 2\n",
}


@pytest.mark.parametrize("text", TRICKY.values(), ids=TRICKY.keys())
def test_text_a_cut_could_misread_is_read_as_one_parse_reads_it_or_not_cut(text: str) -> None:
    try:
        whole: Any = parse_text(text)
    except SpecError:  # text that does not parse whole must not be cut either
        assert parse_blocks(text, {}) is None
        return
    cache: dict[str, Any] = {}
    _agrees(text, cache)
    _agrees(text, cache)  # from the cache, still equal
    assert whole == parse_text(text), "the cache's values were not changed"


@pytest.mark.parametrize(
    ("text", "cut"),
    [
        ("a: &x {k: 1}\nb: *x\n", False),
        ("paths:\n  /a: {get: {x: 1},\n  post: {}}\n  /b: {}\n", False),
        ("a:\n- 1\n- 2\nb:\n  c:\n  - x\n  d: 1\n", True),
        ("a:\r\n  x: 1\r\n  y: 2\r\nb: 3\r\n", True),
        ("---\na: 1\n", False),
        ("# spec\n\na:\n  x: 1\n# between\n  y: 2\nb: 3\n", True),
    ],
)
def test_what_is_cut_and_what_is_read_whole(text: str, cut: bool) -> None:
    assert (parse_blocks(text, {}) is not None) is cut


def test_the_cache_keeps_at_most_its_limit() -> None:
    cache: dict[str, Any] = {}
    for n in range(CACHE_LIMIT + 10):
        assert _agrees(f"a{n}: 1\nb: 2\n", cache) is not None
    assert len(cache) <= CACHE_LIMIT


FRAGMENT = """paths:
  /pets/{petId}:
    get:
      operationId: getPet
      x-agent-tool: true
      description: Look up one pet by its id. Use it when the user names a pet by id.
      parameters:
      - name: petId
        in: path
        required: true
        description: The pet's id, as listed by listPets.
        schema: {type: string}
  /pets:
    get:
      operationId: listPets
      x-agent-tool: true
      description: List the pets in the shop. Use it to find a pet's id.
      parameters:
      - name: limit
        in: query
        schema: {type: integer, maximum: 100}
"""


def test_a_fragment_drafted_through_the_blocks_cache_builds_what_one_parse_builds() -> None:
    cache: dict[str, Any] = {}
    for text in [FRAGMENT, FRAGMENT.replace("maximum: 100", "maximum: 50"), FRAGMENT.replace("getPet", "fetchPet")]:
        cached, whole = paste(text, namespace="pets", blocks=cache), paste(text, namespace="pets")
        assert cached.ok
        assert [t.declaration for t in cached.tools] == [t.declaration for t in whole.tools]
    assert cache, "the fragment was read by blocks"


def test_a_mistake_read_through_the_blocks_cache_is_still_located() -> None:
    broken = FRAGMENT.replace("schema: {type: integer, maximum: 100}", "schema: {type: integer, maximum: 100")
    draft = paste(broken, namespace="pets", blocks={})
    assert draft.problem is not None
    assert draft.problem.slug == "parse_error"
    assert draft.problem.line == paste(broken, namespace="pets").problem.line  # type: ignore[union-attr]
    assert draft.problem.line is not None
