"""A scripted model behind each provider's real wire, for the selection-eval tests.

:class:`ScriptedModel` is a loopback HTTP server that answers every provider's request shape (Gemini,
OpenAI chat, OpenAI Responses, Anthropic) the way its SDK parses (``wire_support.REPLIES``). How it decides,
deterministically, from the request alone:

* **selection**: a request that forces a tool (the provider's tool choice) gets a call to it. Otherwise the
  user's last message is looked up in the script; its ``keyword`` is searched in every offered tool's
  description (case-insensitive). The first tool whose description holds it is called; when no description
  does (or the script has no keyword: small talk), the model answers in text and calls nothing.
* **first call**: the script's ``first`` arguments.
* **after an envelope**: when the request carries a tool result whose ``status`` is ``invalid_arguments`` and
  whose ``errors`` name the field the script says it will correct (``fixes``), the model calls the same tool
  with that field replaced; an envelope that does not name the field gets the same call again.

Every request is kept (``requests``) with its headers, so tests can check what reached the wire.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from locations import REPO
from wire_support import REPLIES, Captured, Recorder, sent_replies

__all__ = ["CASES_FILE", "Script", "ScriptedModel", "forced", "issue_scripts"]


@dataclass(frozen=True)
class Script:
    """What the scripted model does for one user message."""

    keyword: str | None
    first: dict[str, Any] = field(default_factory=dict)
    fixes: dict[str, Any] = field(default_factory=dict)


def _offered(dialect: str, body: dict[str, Any]) -> list[tuple[str, str]]:
    if dialect.startswith("gemini"):
        tools = body["tools"][0]["functionDeclarations"]
        return [(tool["name"], tool.get("description", "")) for tool in tools]
    if dialect == "openai":
        return [(tool["function"]["name"], tool["function"].get("description", "")) for tool in body["tools"]]
    return [(tool["name"], tool.get("description", "")) for tool in body["tools"]]


CASES_FILE = REPO / "notebooks" / "evals" / "issues.yaml"
"""The example cases (notebook 08 and the tests): `toolkit.examples.search_issues` under namespace ``issues``."""


def issue_scripts(dialect: str) -> dict[str, Script]:
    """What the scripted model does for each message of :data:`CASES_FILE`. The OpenAI dialects send every
    optional parameter (their strict mode lists all properties as required), so the script does too."""
    nulls = {"state": None, "labels": None, "updated_since": None} if dialect.startswith("openai") else {}
    return {
        "Find open login bugs, five at most.": Script("issue tracker", {"query": "login", "limit": 5, **nulls}),
        "Show me ten login issues.": Script(
            "issue tracker", {"query": "login", "limit": "ten", **nulls}, fixes={"limit": 10}
        ),
        "Thanks, that is all.": Script(None),
    }


def forced(dialect: str, body: dict[str, Any]) -> str | None:
    """The tool a request forces, read from the provider's own tool-choice field (``None``: the model chooses)."""
    if dialect.startswith("gemini"):
        calling = body.get("toolConfig", {}).get("functionCallingConfig", {})
        names = calling.get("allowedFunctionNames") or []
        return names[0] if calling.get("mode") == "ANY" and len(names) == 1 else None
    choice = body.get("tool_choice")
    if not isinstance(choice, dict):
        return None
    return choice["function"]["name"] if dialect == "openai" else choice.get("name")


def _last_user_text(dialect: str, body: dict[str, Any]) -> str:
    if dialect.startswith("gemini"):
        texts = [p["text"] for c in body["contents"] if c["role"] == "user" for p in c["parts"] if "text" in p]
    else:
        items = body["input"] if dialect == "openai_responses" else body["messages"]
        texts = [item["content"] for item in items if item.get("role") == "user" and isinstance(item["content"], str)]
    return texts[-1]


class ScriptedModel(Recorder):
    """A :class:`~wire_support.Recorder` whose answers come from ``scripts`` (user message -> :class:`Script`)."""

    def __init__(self, dialect: str, scripts: dict[str, Script]) -> None:
        super().__init__([])
        self.dialect, self.scripts = dialect, scripts
        self.calls = 0

    def answer(self, captured: Captured) -> tuple[int, Any]:
        body = captured.json
        script = self.scripts[_last_user_text(self.dialect, body)]
        self.calls += 1
        call_id = f"c{self.calls}"
        offered = _offered(self.dialect, body)
        chosen = forced(self.dialect, body) or next(
            (name for name, text in offered if script.keyword and script.keyword.lower() in text.lower()), None
        )
        if chosen is None:
            return 200, REPLIES[self.dialect]([], "No tool is needed for that.")
        replies = sent_replies(self.dialect, captured)
        if not replies:
            return 200, REPLIES[self.dialect]([(call_id, chosen, script.first)], "")
        envelope = replies[0]["envelope"]
        named = {error["field"] for error in envelope.get("errors", [])}
        arguments = dict(script.first)
        if envelope.get("status") == "invalid_arguments":
            arguments.update({name: value for name, value in script.fixes.items() if name in named})
        return 200, REPLIES[self.dialect]([(call_id, chosen, arguments)], "")
