"""Selection-eval cases as data: a user message, the tool the model should call (or none), and what its
arguments should be, in the spirit of the Berkeley Function Calling Leaderboard's possible answers.

A cases file is YAML (or JSON)::

    cases:
      - id: login-bugs
        message: Find open bugs about the login timeout, five at most.
        expect: issues_search_issues          # the contract's tool name; `none`: no tool should be called
        args:
          query: {contains: login}            # a substring, case-insensitive
          limit: 5                            # this exact value (after validation)
          state: {one_of: [open, null]}       # any of these values
          labels: any                         # present, any valid value
      - id: small-talk
        message: Thanks, that was helpful!
        expect: none
        history:                              # optional earlier text turns
          - {role: user, content: Hi}
          - {role: assistant, content: Hello! How can I help?}
      - id: forced-search
        message: login timeout
        expect: issues_search_issues
        force: true                           # tool_choice forces the tool: only its arguments are measured

Arguments are compared after the validator has read them (what the function would receive), by subset: a
parameter the case does not name is not checked. A file that cannot be read, or a case that does not fit this
shape, is an :class:`~toolkit.EvalError` (``bad_eval_case``) naming the case and the field.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolkit._exceptions import EvalError, SpecError

__all__ = ["ANY", "ArgExpectation", "Case", "load_cases", "parse_cases"]

ANY = "any"
_ROLES = ("user", "assistant")


@dataclass(frozen=True, slots=True)
class ArgExpectation:
    """What one argument must be: ``equals`` a value, ``one_of`` several, ``contains`` a substring, or ``any``."""

    kind: str
    value: Any = None

    def met_by(self, arguments: Mapping[str, Any], name: str) -> bool:
        if name not in arguments:
            return False
        given = arguments[name]
        if self.kind == "any":
            return True
        if self.kind == "contains":
            return isinstance(given, str) and str(self.value).casefold() in given.casefold()
        if self.kind == "one_of":
            return any(_same(given, option) for option in self.value)
        return _same(given, self.value)

    def to_dict(self) -> Any:
        return ANY if self.kind == "any" else self.value if self.kind == "equals" else {self.kind: self.value}


def _same(given: Any, wanted: Any) -> bool:
    """JSON equality: ``1 == 1.0`` as numbers, but ``True`` is not ``1`` and ``"5"`` is not ``5``."""
    if isinstance(given, bool) or isinstance(wanted, bool):
        return type(given) is type(wanted) and given == wanted
    return bool(given == wanted) and (isinstance(given, str) == isinstance(wanted, str))


@dataclass(frozen=True, slots=True)
class Case:
    """One case: what the user says, what the model should call (``expect=None``: nothing), and how."""

    id: str
    message: str
    expect: str | None
    args: Mapping[str, ArgExpectation]
    history: tuple[tuple[str, str], ...] = ()
    force: bool = False

    def arguments_met(self, arguments: Mapping[str, Any]) -> bool:
        return all(expectation.met_by(arguments, name) for name, expectation in self.args.items())

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "message": self.message,
            "expect": self.expect or "none",
            "args": {name: expectation.to_dict() for name, expectation in self.args.items()},
            "history": [{"role": role, "content": content} for role, content in self.history],
            "force": self.force,
        }


def load_cases(path: str | os.PathLike[str]) -> tuple[Case, ...]:
    """The cases of a YAML or JSON file; :class:`~toolkit.EvalError` (``bad_eval_case``) when it cannot be used."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise EvalError(f"cannot read the cases file {str(path)!r}: {error}", slug="bad_eval_case") from None
    return parse_cases(text, str(path))


def parse_cases(text: str, source: str = "<cases>") -> tuple[Case, ...]:
    """The cases in ``text`` (YAML or JSON)."""
    from toolkit._openapi._yaml import parse_yaml  # PyYAML loads when a cases file is read, not with the package

    try:
        data = json.loads(text) if text.lstrip().startswith("{") else parse_yaml(text)
    except (ValueError, SpecError) as error:
        raise EvalError(f"{source}: not YAML or JSON: {error}", slug="bad_eval_case") from None
    if not isinstance(data, Mapping) or not isinstance(data.get("cases"), list) or not data["cases"]:
        raise EvalError(f"{source}: expected a mapping with a non-empty `cases:` list", slug="bad_eval_case")
    cases = [_case(item, number, source) for number, item in enumerate(data["cases"], 1)]
    seen: set[str] = set()
    for case in cases:
        if case.id in seen:
            raise EvalError(f"{source}: two cases have the id {case.id!r}; ids must be unique", slug="bad_eval_case")
        seen.add(case.id)
    return tuple(cases)


def _bad(source: str, where: str, problem: str) -> EvalError:
    return EvalError(f"{source}: {where}: {problem}", slug="bad_eval_case")


def _case(item: Any, number: int, source: str) -> Case:
    where = f"case {number}"
    if not isinstance(item, Mapping):
        raise _bad(source, where, "a case is a mapping with `id`, `message` and `expect`")
    unknown = sorted(set(item) - {"id", "message", "expect", "args", "history", "force"})
    if unknown:
        raise _bad(source, where, f"unknown field(s) {', '.join(map(repr, unknown))}")
    case_id = item.get("id", f"case-{number}")
    if not isinstance(case_id, str) or not case_id:
        raise _bad(source, where, "`id` is a non-empty string")
    where = f"case {case_id!r}"
    message, expect = item.get("message"), item.get("expect")
    if not isinstance(message, str) or not message.strip():
        raise _bad(source, where, "`message` is the user's message, a non-empty string")
    if not isinstance(expect, str) or not expect:
        raise _bad(source, where, "`expect` is the tool's name, or `none` when no tool should be called")
    args = item.get("args") or {}
    if not isinstance(args, Mapping):
        raise _bad(source, where, "`args` maps parameter names to expectations")
    if expect == "none" and args:
        raise _bad(source, where, "a case that expects no call cannot expect arguments")
    force = item.get("force", False)
    if not isinstance(force, bool) or (force and expect == "none"):
        raise _bad(source, where, "`force` is true or false, and only a case that expects a tool can force it")
    return Case(
        case_id,
        message,
        None if expect == "none" else expect,
        {str(name): _expectation(value, f"{where}, argument {name!r}", source) for name, value in args.items()},
        _history(item.get("history") or [], where, source),
        force,
    )


def _expectation(value: Any, where: str, source: str) -> ArgExpectation:
    if value == ANY:
        return ArgExpectation("any")
    if isinstance(value, Mapping):
        if len(value) != 1 or next(iter(value)) not in ("one_of", "contains", "equals"):
            raise _bad(source, where, "a mapping expectation is {one_of: [...]}, {contains: text} or {equals: value}")
        kind, inner = next(iter(value.items()))
        if kind == "one_of" and (not isinstance(inner, list) or not inner):
            raise _bad(source, where, "`one_of` takes a non-empty list of values")
        if kind == "contains" and not isinstance(inner, str):
            raise _bad(source, where, "`contains` takes a string")
        return ArgExpectation(kind, inner)
    return ArgExpectation("equals", value)


def _history(turns: Any, where: str, source: str) -> tuple[tuple[str, str], ...]:
    if not isinstance(turns, list):
        raise _bad(source, where, "`history` is a list of {role: user|assistant, content: text}")
    out = []
    for turn in turns:
        if (
            not isinstance(turn, Mapping)
            or turn.get("role") not in _ROLES
            or not isinstance(turn.get("content"), str)
            or set(turn) != {"role", "content"}
        ):
            raise _bad(source, where, "each `history` turn is {role: user|assistant, content: text}")
        out.append((str(turn["role"]), str(turn["content"])))
    return tuple(out)
