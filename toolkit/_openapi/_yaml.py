"""Safe YAML for OpenAPI documents: the safe loader, bounded alias expansion, keys and dates as text.

Loaded only when a document (or an overrides file) is not JSON, so JSON specs never pay for the import.
A "billion laughs" document is refused before anything is constructed: the expanded size of the node graph
is measured first (memoised per node, so the check itself stays linear), and recursive aliases are refused.
"""

from __future__ import annotations

from typing import Any

import yaml

from toolkit._exceptions import SpecError

__all__ = ["MAX_YAML_NODES", "parse_yaml"]

MAX_YAML_NODES = 5_000_000
"""The largest YAML node tree, counted with every alias expanded (a YAML bomb exceeds it at once)."""

_SafeLoader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _Loader(_SafeLoader):  # type: ignore[valid-type,misc]
    """The safe loader with dates kept as strings and mapping keys kept as their source text."""


def _construct_str(loader: yaml.SafeLoader, node: yaml.Node) -> str:
    return str(node.value)


def _construct_mapping(loader: yaml.SafeLoader, node: yaml.MappingNode) -> dict[str, Any]:
    loader.flatten_mapping(node)
    out: dict[str, Any] = {}
    for key_node, value_node in node.value:
        if isinstance(key_node, yaml.ScalarNode):
            key = str(key_node.value)
        else:
            raise SpecError("a YAML mapping key is itself a list or mapping; keys must be strings", slug="parse_error")
        out[key] = loader.construct_object(value_node, deep=True)
    return out


_Loader.add_constructor("tag:yaml.org,2002:timestamp", _construct_str)
_Loader.add_constructor("tag:yaml.org,2002:binary", _construct_str)
_Loader.add_constructor("tag:yaml.org,2002:map", _construct_mapping)


def _expanded_size(root: yaml.Node) -> int:
    """Count nodes with every alias expanded, memoised per node; refuse cycles and oversize graphs."""
    sizes: dict[int, int] = {}
    on_stack: set[int] = set()

    def size(node: yaml.Node) -> int:
        key = id(node)
        if key in sizes:
            return sizes[key]
        if key in on_stack:
            raise SpecError("the YAML has a recursive alias (an anchor that contains itself)", slug="yaml_recursive")
        total = 1
        if isinstance(node, yaml.MappingNode):
            on_stack.add(key)
            total += sum(size(k) + size(v) for k, v in node.value)
            on_stack.discard(key)
        elif isinstance(node, yaml.SequenceNode):
            on_stack.add(key)
            total += sum(size(item) for item in node.value)
            on_stack.discard(key)
        if total > MAX_YAML_NODES:
            raise SpecError(
                f"the YAML expands to more than {MAX_YAML_NODES:,} nodes through aliases (a YAML bomb); "
                "remove the anchors/aliases or inline them",
                slug="yaml_bomb",
            )
        sizes[key] = total
        return total

    size(root)
    return sizes[id(root)]


def parse_yaml(text: str) -> Any:
    """Parse YAML text safely, or raise :class:`~toolkit.SpecError` (``parse_error``, ``yaml_bomb``...)."""
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        _expanded_size(node)
        return loader.construct_document(node)
    except yaml.YAMLError as exc:
        raise SpecError(f"not valid YAML: {_describe(exc)}", slug="parse_error") from None
    finally:
        loader.dispose()


def _describe(error: yaml.YAMLError) -> str:
    """``line 5, column 1: did not find expected node content (while parsing a flow node)``: the parser's
    words with 1-based positions, without the ``"<unicode string>"`` stand-in for a file name."""
    mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
    problem = getattr(error, "problem", None) or str(error)
    context = getattr(error, "context", None)
    where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark is not None else ""
    return f"{where}{problem}" + (f" ({context})" if context else "")
