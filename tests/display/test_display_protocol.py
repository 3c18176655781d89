"""The one display protocol: every displayable class has a renderer, include/exclude are honoured, and the
display package sits at the bottom of the import graph (it imports no data module at run time).

Internals: the display protocol itself (``_display``: ``Displayable``, ``Renderer``, ``displayed_by``,
``renderer_for``), which this module tests."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import display_samples as samples
import pytest

import toolkit
from toolkit._display import Displayable, Renderer, displayed_by, mimebundle, renderer_for
from toolkit._display._core import TOOL_RENDERER

DISPLAY_PACKAGE = Path(toolkit.__file__).parent / "_display"


def _toolkit_classes() -> Iterator[type]:
    """Every class defined in a toolkit module, as its module holds it (so as users get it)."""
    for info in pkgutil.walk_packages(toolkit.__path__, "toolkit."):
        module = importlib.import_module(info.name)
        for _, value in inspect.getmembers(module, inspect.isclass):
            if value.__module__ == info.name:
                yield value


CLASSES = sorted(set(_toolkit_classes()), key=lambda c: f"{c.__module__}.{c.__qualname__}")
DISPLAYABLE = [c for c in CLASSES if issubclass(c, Displayable) and c is not Displayable]


def test_the_package_has_displayable_classes_to_check() -> None:
    names = {c.__name__ for c in DISPLAYABLE}
    assert {"Tool", "Toolset", "ToolResult", "FixtureReport", "DeclarationDiff", "GoldenReport", "View"} <= names


@pytest.mark.parametrize("cls", [c for c in DISPLAYABLE if not c.__name__.startswith("_")], ids=lambda c: c.__name__)
def test_every_public_displayable_class_has_a_renderer(cls: type) -> None:
    assert renderer_for(cls) is not None, f"{cls.__qualname__} inherits Displayable but has no @displayed_by"


def test_no_class_writes_its_own_display_hook() -> None:
    own = [f"{c.__module__}.{c.__qualname__}" for c in CLASSES if "_repr_mimebundle_" in vars(c)]
    assert own == ["toolkit._display.Displayable"]


DISPLAY_CASES: dict[str, Callable[[], Any]] = {
    "tool": samples.order_tool,
    "toolset": samples.toolset,
    "result": samples.invalid_result,
    "batch": samples.batch,
    "saga": samples.saga,
    "lint": lambda: samples.LINTS[0],
    "rejection": lambda: samples.toolset().rejected[0],
    "fixture_report": samples.fixture_report,
    "declaration_diff": samples.declaration_diff,
}


@pytest.mark.parametrize("case", sorted(DISPLAY_CASES))
def test_include_returns_only_the_requested_mimetypes(case: str) -> None:
    obj = DISPLAY_CASES[case]()
    full = obj._repr_mimebundle_()
    assert set(full) == {"text/plain", "text/html"}
    assert obj._repr_mimebundle_(include=["text/plain"]) == {"text/plain": full["text/plain"]}
    assert obj._repr_mimebundle_(include={"text/html", "image/png"}) == {"text/html": full["text/html"]}
    assert obj._repr_mimebundle_(include=["image/png"]) == {}


@pytest.mark.parametrize("case", sorted(DISPLAY_CASES))
def test_exclude_drops_mimetypes(case: str) -> None:
    obj = DISPLAY_CASES[case]()
    full = obj._repr_mimebundle_()
    assert obj._repr_mimebundle_(exclude=["text/html"]) == {"text/plain": full["text/plain"]}
    assert obj._repr_mimebundle_(include=["text/plain", "text/html"], exclude=("text/plain",)) == {
        "text/html": full["text/html"]
    }
    assert obj._repr_mimebundle_(exclude=["text/plain", "text/html"]) == {}


def test_an_empty_include_means_every_mimetype_as_ipython_reads_it() -> None:
    tool = samples.order_tool()
    assert tool._repr_mimebundle_(include=[]) == tool._repr_mimebundle_()


def _broken_html(obj: Any) -> str:
    raise RuntimeError("this renderer is broken")


@displayed_by(Renderer(lambda obj: f"Probe {obj.name}", _broken_html))
@dataclass(frozen=True, slots=True)
class Probe(Displayable):
    name: str


def test_a_mimetype_left_out_is_not_rendered() -> None:
    assert Probe("p")._repr_mimebundle_(include=["text/plain"]) == {"text/plain": "Probe p"}


def test_a_failing_renderer_falls_back_to_the_escaped_repr_and_still_honours_include() -> None:
    assert Probe("<b>")._repr_mimebundle_() == mimebundle(Probe("<b>"))
    assert Probe("<b>")._repr_mimebundle_()["text/plain"] == "Probe(name='<b>')"
    html = Probe("<b>")._repr_mimebundle_(include=["text/html"])
    assert list(html) == ["text/html"]
    assert "Probe(name=&#x27;&lt;b&gt;&#x27;)" in html["text/html"]


def test_the_class_object_made_by_slots_is_the_one_registered() -> None:
    assert renderer_for(Probe) is not None
    assert Probe.__slots__ == ("name",)


def test_a_subclass_uses_its_nearest_registered_base() -> None:
    class Named(Probe):
        __slots__ = ()

    assert renderer_for(Named) is renderer_for(Probe)
    assert Named("q")._repr_mimebundle_(include=["text/plain"]) == {"text/plain": "Probe q"}


def test_a_renderer_named_by_its_module_is_imported_on_first_display() -> None:
    @displayed_by("toolkit._display._core:TOOL_RENDERER")
    class Named(Displayable):
        __slots__ = ()

    assert renderer_for(Named) is TOOL_RENDERER


def test_a_name_that_is_no_renderer_raises_on_first_display_not_a_repr() -> None:
    @displayed_by("toolkit._display._core:NO_SUCH_RENDERER")
    class Misnamed(Displayable):
        __slots__ = ()

    with pytest.raises(TypeError, match="names no Renderer"):
        mimebundle(Misnamed())


def test_displayed_by_refuses_a_class_without_the_mixin() -> None:
    with pytest.raises(TypeError, match="inherits Displayable"):

        @displayed_by(Renderer(repr))
        class Plain:
            pass


def _run_time_imports(path: Path) -> list[str]:
    """The toolkit modules ``path`` imports when it runs (not under ``if TYPE_CHECKING:``, not in functions)."""
    out: list[str] = []

    def visit(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                out.append(node.module)
            elif isinstance(node, ast.Import):
                out.extend(alias.name for alias in node.names)
            elif isinstance(node, ast.If) and not (isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"):
                visit(node.body + node.orelse)
            elif isinstance(node, ast.Try):
                visit(node.body + node.orelse + node.finalbody)
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                assert not [n for n in ast.walk(node) if isinstance(n, ast.Import | ast.ImportFrom)], (
                    f"{path.name}: {node.name} imports inside a function"
                )

    visit(ast.parse(path.read_text(encoding="utf-8")).body)
    return [name for name in out if name.split(".")[0] == "toolkit"]


@pytest.mark.parametrize("path", sorted(DISPLAY_PACKAGE.glob("*.py")), ids=lambda p: p.name)
def test_the_display_package_imports_no_data_module_at_run_time(path: Path) -> None:
    """Data modules import their renderers, so a renderer importing a data module would be an import circle.

    A leaf module (one that imports no toolkit module, such as ``toolkit._regex``) cannot close a circle."""
    imported = [name for name in _run_time_imports(path) if not name.startswith("toolkit._display")]
    leaves = [name for name in imported if not _run_time_imports(_source_of(name))]
    assert imported == leaves, imported


def _source_of(module: str) -> Path:
    base = Path(toolkit.__file__).parent.joinpath(*module.split(".")[1:])
    return base / "__init__.py" if base.is_dir() else base.with_suffix(".py")
