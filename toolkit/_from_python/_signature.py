"""Read a callable: the object whose docstring describes it, its name, and its parameters with annotations.

Annotations are resolved the way :func:`inspect.signature` does (``eval_str``), but one parameter at a time
when the whole signature cannot be: an annotation naming a type imported only under ``if TYPE_CHECKING:``
(typical for a framework's context) stays a string, which :mod:`._injected` can still recognise. A
signature a framework rewrote (FastMCP sets ``__signature__`` with string annotations) is resolved too.
"""

from __future__ import annotations

import functools
import inspect
import re
from collections.abc import Callable, Mapping
from typing import Any

from toolkit._contract import PARAMETER_NAME, TOOL_NAME
from toolkit._exceptions import NamingError, NotCallableError, SignatureError
from toolkit._from_python._injected import namespace_of

__all__ = ["callable_target", "check_kind", "check_name", "parameters", "qualname", "tool_name", "unresolved"]


def callable_target(fn: Any) -> Any:
    """The object whose docstring describes ``fn`` (the function inside a partial, or the callable itself)."""
    if isinstance(fn, staticmethod | classmethod):
        raise NotCallableError(
            f"{fn!r} is a raw {type(fn).__name__} object; pass it through its class, e.g. from_function(MyClass.name)"
        )
    if not callable(fn):
        raise NotCallableError(f"{fn!r} is not callable; pass a function, method or callable object")
    while isinstance(fn, functools.partial):
        fn = fn.func
    return fn


def qualname(fn: Any) -> str:
    target = fn.func if isinstance(fn, functools.partial) else fn
    return str(getattr(target, "__qualname__", None) or type(target).__qualname__)


def parameters(fn: Callable[..., Any]) -> list[tuple[inspect.Parameter, Any]]:
    """Each parameter with its resolved annotation, or the annotation string where it cannot be resolved."""
    try:
        signature = inspect.signature(fn, eval_str=True)
    except (NameError, AttributeError, SyntaxError):  # one unresolvable annotation: resolve one by one below
        signature = inspect.signature(fn)
    except (TypeError, ValueError) as exc:
        raise SignatureError(
            f"cannot read the signature of {fn!r} ({exc}); wrap it in a typed Python function",
            slug="no_signature",
        ) from exc
    _check_bound(fn, signature)
    globalns, _ = namespace_of(fn)
    return [(p, _resolve(p.annotation, globalns)) for p in signature.parameters.values()]


def _resolve(annotation: Any, globalns: Mapping[str, Any]) -> Any:
    if not isinstance(annotation, str):
        return annotation
    try:
        return eval(annotation, dict(globalns))  # what inspect.signature(eval_str=True) does, per parameter
    except Exception:  # NameError above all: the name is imported for type checking only
        return annotation


def unresolved(name: str, annotation: str, where: str) -> SignatureError:
    return SignatureError(
        f"cannot resolve the annotation {annotation!r} of parameter {name!r} of {where}. Define the type at "
        "module level (string annotations are resolved in the function's module) or import it there",
        slug="unresolved_annotation",
    )


def _check_bound(fn: Callable[..., Any], signature: inspect.Signature) -> None:
    first = next(iter(signature.parameters.values()), None)
    if (
        inspect.isfunction(fn)
        and first is not None
        and first.name in ("self", "cls")
        and first.annotation is first.empty
    ):
        raise SignatureError(
            f"{qualname(fn)} is an unbound method (its first parameter is {first.name!r}); pass a bound method "
            "instead, e.g. from_function(instance.method) or from_function(MyClass.class_method)",
            slug="unbound_method",
        )


def check_kind(p: inspect.Parameter, where: str) -> None:
    if p.kind is p.VAR_POSITIONAL:
        raise SignatureError(
            f"{where} takes *{p.name}; the model calls tools with named arguments only. Replace it with a "
            f"named list parameter, e.g. `{p.name}: list[str]`",
            slug="varargs",
        )
    if p.kind is p.VAR_KEYWORD:
        raise SignatureError(
            f"{where} takes **{p.name}; an open bag of keywords cannot be declared or validated. Name each "
            "argument as a typed parameter (or take a typed model/TypedDict)",
            slug="varkw",
        )
    if p.kind is p.POSITIONAL_ONLY:
        raise SignatureError(
            f"parameter {p.name!r} of {where} is positional-only; the model passes arguments by name. Remove "
            "the '/' from the signature",
            slug="positional_only",
        )


def check_name(name: str, where: str) -> None:
    if not PARAMETER_NAME.fullmatch(name):
        raise SignatureError(
            f"parameter {name!r} of {where} breaks the declaration rule [A-Za-z_][A-Za-z0-9_]{{0,63}}; rename it "
            "with ASCII letters, digits and '_', at most 64 characters",
            slug="bad_parameter_name",
        )


def tool_name(fn: Any, namespace: str | None, name: str | None) -> str:
    base = name if name is not None else _default_name(fn)
    full = f"{namespace}_{base}" if namespace else base
    if not TOOL_NAME.fullmatch(full):
        raise NamingError(
            f"tool name {full!r} breaks the declaration name rule [A-Za-z_][A-Za-z0-9_.:-]{{0,127}}; "
            "pass name= (and namespace=) made of letters, digits, '_', '.', ':' and '-', at most 128 characters",
            slug="bad_tool_name",
        )
    return full


def _default_name(fn: Any) -> str:
    target = fn.func if isinstance(fn, functools.partial) else fn
    name = getattr(target, "__name__", None)
    if name == "<lambda>":
        raise SignatureError("a lambda has no name the model can call; pass name='...'", slug="lambda_needs_name")
    if isinstance(name, str) and not isinstance(target, type):
        return name
    cls = target if isinstance(target, type) else type(target)  # classes and callable objects: snake_case
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", cls.__name__).lower()
