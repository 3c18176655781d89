"""Safe YAML for OpenAPI documents: the safe loader, bounded alias expansion, keys and dates as text.

Integers over 4,000 digits and the tags with no JSON form (``!!set``, ``!!omap``, ``!!pairs``) are refused.

Loaded only when a document (or an overrides file) is not JSON, so JSON specs never pay for the import.
A "billion laughs" document is refused before anything is constructed: the expanded size of the node graph
is measured first (memoised per node, so the check itself stays linear), and recursive aliases are refused.
"""

from __future__ import annotations

from typing import Any

import yaml

from toolkit._exceptions import SpecError
from toolkit._openapi._plain import check_int_literal

__all__ = ["MAX_YAML_NODES", "parse_yaml"]

MAX_YAML_NODES = 5_000_000
"""The largest YAML node tree, counted with every alias expanded (a YAML bomb exceeds it at once)."""

_SafeLoader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _Loader(_SafeLoader):  # type: ignore[valid-type,misc]
    """The safe loader with dates kept as strings and mapping keys kept as their source text."""


def _construct_str(loader: yaml.SafeLoader, node: yaml.Node) -> str:
    return str(node.value)


def _construct_mapping(loader: yaml.SafeLoader, node: yaml.MappingNode) -> dict[str, Any]:
    if not isinstance(node, yaml.MappingNode):
        raise SpecError(
            f"the YAML value at line {node.start_mark.line + 1} is tagged !!map but is not one", slug="parse_error"
        )
    loader.flatten_mapping(node)
    out: dict[str, Any] = {}
    for key_node, value_node in node.value:
        if isinstance(key_node, yaml.ScalarNode):
            key = str(key_node.value)
        else:
            raise SpecError("a YAML mapping key is itself a list or mapping; keys must be strings", slug="parse_error")
        out[key] = loader.construct_object(value_node, deep=True)
    return out


def _construct_int(loader: yaml.SafeLoader, node: yaml.ScalarNode) -> int:
    check_int_literal(str(node.value).replace("_", ""))  # before int() meets 5,000 digits (or 0x...)
    return int(_construct_tagged(loader, node, "int"))


def _construct_tagged(loader: yaml.SafeLoader, node: yaml.Node, tag: str) -> Any:
    """A scalar read by the safe loader's own constructor for ``tag`` (int, float, bool); a value that is not one
    (``!!float abc``) raises a bare ValueError or KeyError there, a parse error here."""
    try:
        return getattr(yaml.constructor.SafeConstructor, f"construct_yaml_{tag}")(loader, node)
    except (ValueError, LookupError):
        raise SpecError(
            f"the YAML value at line {node.start_mark.line + 1} is tagged !!{tag} but is not one", slug="parse_error"
        ) from None


def _refuse_tag(loader: yaml.SafeLoader, node: yaml.Node) -> Any:
    tag = node.tag.replace("tag:yaml.org,2002:", "!!")
    raise SpecError(
        f"the YAML tag {tag} at line {node.start_mark.line + 1} has no JSON equivalent; use a list or a map",
        slug="parse_error",
    )


_Loader.add_constructor("tag:yaml.org,2002:int", _construct_int)
_Loader.add_constructor("tag:yaml.org,2002:float", lambda loader, node: _construct_tagged(loader, node, "float"))
_Loader.add_constructor("tag:yaml.org,2002:bool", lambda loader, node: _construct_tagged(loader, node, "bool"))
for _tag in ("set", "omap", "pairs"):
    _Loader.add_constructor(f"tag:yaml.org,2002:{_tag}", _refuse_tag)
_Loader.add_constructor("tag:yaml.org,2002:timestamp", _construct_str)
_Loader.add_constructor("tag:yaml.org,2002:binary", _construct_str)
_Loader.add_constructor("tag:yaml.org,2002:map", _construct_mapping)


def _expanded_size(root: yaml.Node) -> int:
    """Count nodes with every alias expanded, memoised per node; refuse cycles and oversize graphs."""
    return _size(root, {}, set())


def _size(node: yaml.Node, sizes: dict[int, int], on_stack: set[int]) -> int:
    """:func:`_expanded_size` of one node (a module function: a nested one calling itself would be a
    function-cell cycle, left for the cyclic collector)."""
    key = id(node)
    if key in sizes:
        return sizes[key]
    if key in on_stack:
        raise SpecError("the YAML has a recursive alias (an anchor that contains itself)", slug="yaml_recursive")
    total = 1
    if isinstance(node, yaml.MappingNode):
        on_stack.add(key)
        total += sum(_size(k, sizes, on_stack) + _size(v, sizes, on_stack) for k, v in node.value)
        on_stack.discard(key)
    elif isinstance(node, yaml.SequenceNode):
        on_stack.add(key)
        total += sum(_size(item, sizes, on_stack) for item in node.value)
        on_stack.discard(key)
    if total > MAX_YAML_NODES:
        raise SpecError(
            f"the YAML expands to more than {MAX_YAML_NODES:,} nodes through aliases (a YAML bomb); "
            "remove the anchors/aliases or inline them",
            slug="yaml_bomb",
        )
    sizes[key] = total
    return total


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
