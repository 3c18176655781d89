"""Try tools live: send a prompt with the tools to a provider and see the model's calls with their envelopes.

    run = tk.try_live([search], "find login bugs since May", provider="gemini")   # GEMINI_API_KEY set
    run.calls[0].call.arguments, run.calls[0].result       # what the model sent, what it read back

Each turn sends the history with the tools (the exact :class:`~toolkit.PayloadSet` bodies, through the
provider's own SDK); every tool call the model makes is mapped back to its tool, validated (or, with
``execute=True``, called) and answered with the provider's function-response message, and the model gets
another turn, up to ``turns``. Without the provider's key in ``env`` (``os.environ`` by default) nothing is sent:
:class:`~toolkit.RuntimeConfigError` (slug ``missing_credential``) names the variable to set. ``base_url``
points the SDK elsewhere (a proxy, or a loopback server in tests). The key (and any credential in ``base_url``)
appears nowhere in what comes back: the envelopes, the model's text and a provider's error name it
``[GEMINI_API_KEY]`` instead (:mod:`toolkit.runtime.redaction`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from toolkit._display import Displayable, displayed_by
from toolkit._display._wire import LIVE_RUN_RENDERER
from toolkit._exceptions import ProviderError, RuntimeConfigError, UsageError
from toolkit._tool import Tool
from toolkit._wire import Call, PayloadSet, _sessions, payloads
from toolkit._wire._sessions import Request, Session, Turn
from toolkit.runtime.redaction import Redactor, url_secrets

__all__ = [
    "PROVIDERS",
    "LiveCall",
    "LiveRun",
    "Provider",
    "open_session",
    "provider_dialect",
    "provider_key",
    "try_live",
]


@dataclass(frozen=True, slots=True)
class Provider:
    """What trying one provider needs: its key's environment variables, dialects, default model and SDK."""

    keys: tuple[str, ...]
    dialects: tuple[str, ...]
    model: str
    package: str
    key_page: str


PROVIDERS: Mapping[str, Provider] = {
    "gemini": Provider(
        ("GEMINI_API_KEY", "GOOGLE_API_KEY"),
        ("gemini", "gemini_json"),
        "gemini-2.5-flash",
        "google-genai",
        "https://aistudio.google.com/apikey",
    ),
    "openai": Provider(
        ("OPENAI_API_KEY",), ("openai", "openai_responses"), "gpt-5.4-mini", "openai", "https://platform.openai.com"
    ),
    "anthropic": Provider(
        ("ANTHROPIC_API_KEY",), ("anthropic",), "claude-sonnet-4-6", "anthropic", "https://console.anthropic.com"
    ),
}


@dataclass(frozen=True, slots=True, eq=False)
class LiveCall:
    """One tool call the model made in turn ``turn``, and the envelope it read back."""

    turn: int
    call: Call
    result: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {"turn": self.turn, "call": self.call.to_dict(), "result": self.result}


@displayed_by(LIVE_RUN_RENDERER)
@dataclass(frozen=True, slots=True, eq=False)
class LiveRun(Displayable):
    """What happened: every call with its envelope, the model's last text, and how many turns it took."""

    provider: str
    dialect: str
    model: str
    payloads: PayloadSet
    calls: tuple[LiveCall, ...]
    text: str
    turns: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "provider": self.provider,
            "dialect": self.dialect,
            "model": self.model,
            "calls": [call.to_dict() for call in self.calls],
            "text": self.text,
            "turns": self.turns,
        }

    def __repr__(self) -> str:
        return f"<LiveRun {self.provider} {self.dialect} calls={len(self.calls)} turns={self.turns}>"


def try_live(
    tools: Tool | Iterable[Tool],
    prompt: str,
    provider: str = "gemini",
    *,
    dialect: str | None = None,
    model: str | None = None,
    env: Mapping[str, str] | None = None,
    base_url: str | None = None,
    turns: int = 2,
    execute: bool = False,
    timeout: float = 60.0,
) -> LiveRun:
    """Send ``prompt`` with ``tools`` to ``provider`` (``gemini``, ``openai``, ``anthropic``) and return the calls.

    ``dialect`` picks the payload (default: the provider's first: ``gemini``, ``openai``, ``anthropic``;
    also ``gemini_json``, ``openai_responses``); ``model`` defaults to :data:`PROVIDERS`' choice.
    """
    spec, dialect = provider_dialect(provider, dialect)
    name, key = provider_key(provider, spec, os.environ if env is None else env)
    hide = Redactor({name: key, **url_secrets(base_url or "", "BASE_URL")})
    wire = payloads(tools, dialect)
    model = model or spec.model
    send, history, close = open_session(dialect, Request(wire, prompt, model, key, base_url, timeout))
    try:
        return _run(wire, send, history, turns, execute, hide, LiveRun(provider, dialect, model, wire, (), "", 0))
    except ProviderError as error:  # the SDK's text may quote the key: re-raised redacted, without the SDK's own
        raise ProviderError(hide.text(error.message), slug=error.slug) from None
    finally:
        close()


def _run(
    wire: PayloadSet,
    send: Callable[[list[Any]], Turn],
    history: list[Any],
    turns: int,
    execute: bool,
    hide: Redactor,
    run: LiveRun,
) -> LiveRun:
    """The turns of one run: every envelope and the model's text pass through ``hide``."""
    calls: list[LiveCall] = []
    text, turn = "", 0
    while turn < max(1, turns):
        turn += 1
        items, raw_calls, text = send(history)
        history += items
        if not raw_calls:
            break
        replies = []
        for raw in raw_calls:
            call = wire.read(raw)
            result = hide.value(call.run(execute=execute).to_dict())
            calls.append(LiveCall(turn, call, result))
            replies.append(wire.reply(call, result))
        history += wire.turn(replies)
    return replace(run, calls=tuple(calls), text=hide.text(text), turns=turn)


def provider_dialect(provider: str, dialect: str | None) -> tuple[Provider, str]:
    """``provider``'s entry and the dialect to speak (its first when ``None``); :class:`~toolkit.UsageError`
    for an unknown provider or a dialect it does not take."""
    spec = PROVIDERS.get(provider)
    if spec is None:
        raise UsageError(f"unknown provider {provider!r}; use one of {', '.join(PROVIDERS)}")
    dialect = dialect or spec.dialects[0]
    if dialect not in spec.dialects:
        raise UsageError(f"{provider} takes the dialects {', '.join(spec.dialects)}, not {dialect!r}")
    return spec, dialect


def provider_key(provider: str, spec: Provider, env: Mapping[str, str]) -> tuple[str, str]:
    """The first of the provider's variables that is set, and its value (the key)."""
    for name in spec.keys:
        if env.get(name):
            return name, env[name]
    names = " or ".join(spec.keys)
    raise RuntimeConfigError(
        f"to try {provider} live, set {names} in the environment (a key from {spec.key_page}); nothing was sent",
        slug="missing_credential",
    )


def open_session(dialect: str, request: Request) -> Session:
    """The conversation with ``dialect``'s SDK: ``send(history)``, the first history, ``close()``."""
    build = {
        "gemini": _sessions.gemini,
        "gemini_json": _sessions.gemini,
        "openai": _sessions.openai_chat,
        "openai_responses": _sessions.openai_responses,
        "anthropic": _sessions.anthropic,
    }[dialect]
    return build(request)
