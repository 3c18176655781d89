"""Seeded mutations of the real OpenAPI corpus: hostile inputs for :func:`toolkit.from_openapi`.

Shared by ``tests/openapi/test_openapi_mutated.py`` (a bounded sample) and ``benchmarks/fuzz_openapi.py`` (10,000+
cases). :func:`cases` yields :class:`Case` objects, each a pure function of ``(seed, index)``: a base document
(a small spec whole, or a slice of a big one: a few paths and the components they reach), opted in with
``x-agent-tool`` for ``select="extension"``, then one to three tree mutations (keys deleted, duplicated or
retyped, values swapped, ``$ref``\\ s injected, Python object cycles, 10^5-deep nesting, non-string keys, huge
ints, NaN, bytes, odd ``type``/``in``/``style`` values, giant descriptions) and, for text sources, a text
mutation (5,000-digit literals, YAML anchors, aliases and tags, BOMs, invalid UTF-8, truncation). The
source is a dict, text, bytes or a path. :func:`run_case` builds one case under an alarm and classifies it.
"""

from __future__ import annotations

import json
import os
import random
import signal
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import yaml
from openapi_mutators import TREE_MUTATORS, odd_arguments, odd_overrides, odd_source, opt_in
from openapi_text_mutators import TEXT_MUTATORS

REPO = Path(__file__).resolve().parent.parent
CORPUS = Path(os.environ.get("TOOLKIT_OPENAPI_CORPUS") or REPO.parent / "shared" / "corpus" / "openapi")
"""The shared corpus beside the repo (``TOOLKIT_OPENAPI_CORPUS`` points elsewhere, for a worktree)."""

WHOLE = (
    "petstore-3.0.yaml",
    "petstore-expanded-3.0.yaml",
    "petstore-swagger2.yaml",
    "petstore-expanded-swagger2.yaml",
    "api-with-examples-3.0.yaml",
    "link-example-3.0.yaml",
    "tictactoe-3.1.yaml",
    "uspto-3.0.yaml",
    "callback-example-3.0.yaml",
    "tags-example-3.2.yaml",
    "non-oauth-scopes-3.1.yaml",
    "webhook-example-3.1.yaml",
)
SLICED = (
    "adyen-balanceplatform-v2-3.1.json",
    "discord-3.1.json",
    "stripe.json",
    "kubernetes-swagger2.json",
    "slack-web-swagger2.json",
    "openai-3.1.json",
    "github-3.0.json",
    "twilio-api-v2010.json",
    "sendgrid-swagger2.json",
    "temporal-3.0.yaml",
)
QUICK_SLICED = ("adyen-balanceplatform-v2-3.1.json", "discord-3.1.json", "github-3.0.json")
"""The big specs the CI sample slices (JSON ones whose slices stay small)."""

SLICES_PER_SPEC = 4
PATHS_PER_SLICE = 3


@dataclass(frozen=True, slots=True)
class Base:
    """A document to mutate: its name and its JSON text (parsed afresh for every case)."""

    name: str
    text: str


@dataclass(frozen=True, slots=True)
class Case:
    """One hostile input: what ``from_openapi`` is given, and how it was made."""

    id: str
    base: str
    mutations: tuple[str, ...]
    kind: str
    """``dict``, ``text``, ``bytes``, ``path`` or ``odd`` (a source of some other type)."""
    select: str
    payload: Any = field(repr=False)
    """The source itself, or the file's bytes when ``kind`` is ``path``."""
    suffix: str = ".json"
    path_as_text: bool = False
    overrides: Any = field(default=None, repr=False)
    arguments: dict[str, Any] = field(default_factory=dict, repr=False)
    """Other arguments of ``from_openapi`` (a hostile namespace or select)."""

    def source(self, tmp: Path) -> Any:
        if self.kind != "path":
            return self.payload
        path = tmp / f"case{self.suffix}"
        path.write_bytes(self.payload)
        return str(path) if self.path_as_text else path

    @property
    def label(self) -> str:
        return f"{self.id} {self.base} {self.kind}/{self.select} {'+'.join(self.mutations)}"


# -- bases -------------------------------------------------------------------------------------------------
def _plain(node: Any) -> Any:
    """JSON values only: YAML dates and integer keys become text (the corpus's YAML specs have both)."""
    if isinstance(node, dict):
        return {str(k): _plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_plain(v) for v in node]
    if node is None or isinstance(node, (str, int, float, bool)):
        return node
    return str(node)


def _read(path: Path) -> Any:
    if path.suffix == ".json":
        return json.loads(path.read_bytes())
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    return _plain(yaml.load(path.read_text(encoding="utf-8"), Loader=loader))


def _refs(node: Any) -> Iterator[str]:
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            ref = item.get("$ref")
            if isinstance(ref, str):
                yield ref
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def _tokens(ref: str) -> list[str]:
    return [t.replace("~1", "/").replace("~0", "~") for t in ref[2:].split("/")]


def _slice(doc: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A few paths of a big document and every local ``$ref`` target they reach (transitively)."""
    shared = ("paths", "components", "definitions", "parameters", "responses", "webhooks")
    out: dict[str, Any] = {k: v for k, v in doc.items() if k not in shared}
    keys = sorted(doc.get("paths") or {})
    out["paths"] = {k: doc["paths"][k] for k in rng.sample(keys, min(PATHS_PER_SLICE, len(keys)))}
    for name in ("securitySchemes",):
        if name in (doc.get("components") or {}):
            out.setdefault("components", {})[name] = doc["components"][name]
    if "securityDefinitions" in doc:
        out["securityDefinitions"] = doc["securityDefinitions"]
    todo, seen = list(_refs(out["paths"])), set()
    while todo:
        ref = todo.pop()
        if ref in seen or not ref.startswith("#/"):
            continue
        seen.add(ref)
        source, target, tokens = doc, out, _tokens(ref)
        for token in tokens[:-1]:
            if not isinstance(source, dict) or token not in source:
                break
            source = source[token]
            target = target.setdefault(token, {})
        else:
            if isinstance(source, dict) and tokens[-1] in source and isinstance(target, dict):
                target[tokens[-1]] = source[tokens[-1]]
                todo.extend(_refs(source[tokens[-1]]))
    return out


@cache
def bases(corpus: Path = CORPUS, sliced: Sequence[str] = SLICED) -> tuple[Base, ...]:
    """The small specs whole and :data:`SLICES_PER_SPEC` slices of each big one (always the same slices)."""
    found: list[Base] = []
    for name in WHOLE:
        if (corpus / name).is_file():
            found.append(Base(name, json.dumps(_read(corpus / name))))
    for name in sliced:
        if not (corpus / name).is_file():
            continue
        doc, rng = _read(corpus / name), random.Random(name)
        found.extend(Base(f"{name}[{i}]", json.dumps(_slice(doc, rng))) for i in range(SLICES_PER_SPEC))
    return tuple(found)


# -- cases -------------------------------------------------------------------------------------------------
def _serialise(tree: Any, rng: random.Random) -> tuple[str, str] | None:
    """JSON or YAML text of ``tree`` and its suffix, or ``None`` when only a dict can carry it."""
    try:
        text = json.dumps(tree)
        if len(text) > 50_000 or rng.random() < 0.6:  # PyYAML's representer is slow on big trees
            return (json.dumps(tree, indent=1) if len(text) < 20_000 and rng.random() < 0.3 else text), ".json"
        dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
        return yaml.dump(tree, Dumper=dumper, sort_keys=False, allow_unicode=rng.random() < 0.5), ".yaml"
    except (ValueError, TypeError, RecursionError, yaml.YAMLError):
        return None


def make_case(seed: int, index: int, pool: Sequence[Base]) -> Case:
    """The case at ``index`` of the stream ``seed`` (a pure function of both and of ``pool``)."""
    rng = random.Random(f"{seed}:{index}")
    case_id = f"{seed}:{index}"
    select = rng.choice(("all", "extension"))
    if rng.random() < 0.02:
        kind, payload = odd_source(rng)
        return Case(case_id, "-", ("odd_source",), kind, select, payload)
    base = rng.choice(pool)
    tree: Any = json.loads(base.text)
    if select == "extension":
        opt_in(tree, rng)
    names: list[str] = []
    python_only = False
    for _ in range(rng.choice((1, 1, 1, 2, 2, 3))):
        name, mutate, only_dict = rng.choice(TREE_MUTATORS)
        tree = mutate(tree, rng)
        names.append(name)
        python_only = python_only or only_dict
    overrides = odd_overrides(tree, rng) if rng.random() < 0.04 else None
    if overrides is not None:
        names.append("odd_overrides")
    arguments = odd_arguments(rng) if rng.random() < 0.01 else {}
    if arguments:
        names.append("odd_arguments")
    text = None if python_only or rng.random() < 0.3 else _serialise(tree, rng)
    if text is None:
        return Case(case_id, base.name, tuple(names), "dict", select, tree, overrides=overrides, arguments=arguments)
    body, suffix = text
    data: str | bytes = body
    if rng.random() < 0.5:
        name, mutate_text = rng.choice(TEXT_MUTATORS)
        data = mutate_text(body, suffix, rng)
        names.append(name)
    kind = rng.choice(("text", "bytes", "path")) if isinstance(data, str) else rng.choice(("bytes", "path"))
    if kind == "text":
        return Case(case_id, base.name, tuple(names), "text", select, data, suffix, False, overrides, arguments)
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    as_text = rng.random() < 0.5
    return Case(case_id, base.name, tuple(names), kind, select, raw, suffix, as_text, overrides, arguments)


def cases(count: int, seed: int = 0, pool: Sequence[Base] | None = None) -> Iterator[Case]:
    pool = pool if pool is not None else bases()
    for index in range(count):
        yield make_case(seed, index, pool)


# -- running -----------------------------------------------------------------------------------------------
class Hang(BaseException):
    """Raised by the alarm: a case ran past its bound (a BaseException, so no ``except Exception`` eats it)."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one case gave: ``verdict`` is ``toolset``, ``spec_error``, ``crash``, ``internal_error`` or ``hang``;
    ``detail`` the refusal slugs, the error slug or the exception type."""

    label: str
    """The case's :attr:`Case.label` (not the case: its payload may be large)."""
    verdict: str
    detail: str
    seconds: float
    message: str = ""

    @property
    def failed(self) -> bool:
        return self.verdict in ("crash", "internal_error", "hang")


def _on_alarm(signum: int, frame: Any) -> None:
    raise Hang()


def run_case(case: Case, tmp: Path, *, alarm_s: float = 20.0) -> Outcome:
    """Build one case under an alarm of ``alarm_s`` seconds and classify what came back."""
    import toolkit as tk
    from toolkit._openapi import SLUGS

    source = case.source(tmp)
    previous = signal.signal(signal.SIGALRM, _on_alarm)
    signal.setitimer(signal.ITIMER_REAL, alarm_s)
    start = time.perf_counter()
    try:
        arguments = {"namespace": "fuzz", "overrides": case.overrides, "select": case.select, **case.arguments}
        toolset = tk.from_openapi(source, **arguments)
    except tk.ToolkitError as exc:
        return Outcome(case.label, "spec_error", exc.slug, time.perf_counter() - start)
    except Hang:
        return Outcome(case.label, "hang", f"over {alarm_s:g} s", time.perf_counter() - start)
    except Exception as exc:  # the point of the fuzz: anything but a ToolkitError is a crash
        return Outcome(case.label, "crash", type(exc).__name__, time.perf_counter() - start, _short(exc))
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    seconds = time.perf_counter() - start
    bad = [r for r in toolset.rejected if r.slug == "internal_error" or r.slug not in SLUGS]
    if bad:
        cause = bad[0].message.partition(":")[0] if bad[0].slug == "internal_error" else bad[0].slug
        return Outcome(case.label, "internal_error", cause, seconds, bad[0].message[:300])
    return Outcome(case.label, "toolset", ",".join(sorted({r.slug for r in toolset.rejected})) or "-", seconds)


def _short(exc: BaseException) -> str:
    try:
        return str(exc)[:300]
    except Exception:  # a message that cannot even be shown
        return "?"
