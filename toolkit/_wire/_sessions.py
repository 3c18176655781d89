"""One conversation per provider SDK, for :func:`toolkit.try_live`: the client, the first message, and a
``send(history)`` that returns the model's turn (its items for the history, its tool calls, its text).
``transport`` (given the SDK's ``httpx`` flavour, it returns a transport) routes every request, as
:mod:`toolkit._eval` does to record and replay every exchange; ``force`` (a name the provider sees) sets the
provider's tool choice to that one tool, for forced-choice contract tests.

Each SDK is imported inside its function (they are heavy, and optional: the ``providers`` extra). The
tool list is the :class:`~toolkit.PayloadSet`'s bodies, handed to the SDK as they are; the model's own turn
goes back into the history verbatim (Gemini needs its ``thoughtSignature`` parts). A provider's error
(refused request, bad key, unreachable host) raises :class:`~toolkit.ProviderError` with its message.
"""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any, NamedTuple

from toolkit._exceptions import MissingExtraError, ProviderError, ToolkitError
from toolkit._wire import PayloadSet

__all__ = ["Request", "Session", "Turn", "anthropic", "gemini", "openai_chat", "openai_responses", "text_turn"]

Turn = tuple[list[Any], list[Any], str]
Transport = Callable[[ModuleType], Any]


class Request(NamedTuple):
    """What one conversation needs: the request's payloads, the first prompt, the model, the key, where to send
    it (``base_url``: ``None`` for the provider's own), the timeout, the transport that routes every request
    (``None``: the SDK's own), and the one tool to force (``None``: the model chooses)."""

    wire: PayloadSet
    prompt: str
    model: str
    key: str
    base_url: str | None
    timeout: float
    transport: Transport | None = None
    force: str | None = None


Session = tuple[Callable[[list[Any]], Turn], list[Any], Callable[[], None]]
"""``send(history)``, the first history, and ``close()`` for the client's connections."""


def _missing(package: str) -> ToolkitError:
    return MissingExtraError(
        f"trying tools live needs the {package} package: install the `providers` extra "
        "(pip install 'toolkit-workbench[providers]')"
    )


def _client(sdk: ModuleType | None, transport: Transport | None, timeout: float) -> Any:
    """The ``httpx`` client over ``transport``, of the flavour ``sdk`` speaks (``httpx2`` or ``httpx``; ``None``:
    google-genai, which speaks ``httpx`` and has no ``_base_client`` to ask); ``None`` without a transport."""
    if transport is None:
        return None
    if sdk is None:
        import httpx  # google-genai speaks httpx; loaded only when a run routes its requests
    else:
        base = importlib.import_module(f"{sdk.__name__}._base_client")
        httpx = getattr(base, "httpx2", None) or base.httpx
    return httpx.Client(transport=transport(httpx), timeout=timeout)


def text_turn(dialect: str, role: str, text: str) -> dict[str, Any]:
    """A text message of the conversation (``role``: ``user`` or ``assistant``) in ``dialect``'s shape: Gemini's
    ``parts`` (its assistant is ``model``), everyone else's ``content``."""
    if dialect.startswith("gemini"):
        return {"role": "model" if role == "assistant" else "user", "parts": [{"text": text}]}
    return {"role": role, "content": text}


@contextlib.contextmanager
def _provider_errors(provider: str, *errors: type[BaseException]) -> Iterator[None]:
    try:
        yield
    except errors as error:
        raise ProviderError(f"{provider} answered with an error: {error}") from error


def gemini(request: Request) -> Session:
    wire, prompt, model, key, base_url, timeout, transport, force = request
    try:  # google-genai is heavy and optional
        from google import genai
        from google.genai import errors, types
    except ImportError as error:
        raise _missing("google-genai") from error
    options = types.HttpOptions(
        base_url=base_url, timeout=int(timeout * 1000), httpx_client=_client(None, transport, timeout)
    )
    client = genai.Client(api_key=key, http_options=options)
    declarations = [types.FunctionDeclaration.model_validate(body) for body in wire.bodies]
    forced = None
    if force is not None:
        calling = types.FunctionCallingConfig(mode=types.FunctionCallingConfigMode.ANY, allowed_function_names=[force])
        forced = types.ToolConfig(function_calling_config=calling)
    config = types.GenerateContentConfig(
        tools=[types.Tool(function_declarations=declarations)],
        automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True),
        tool_config=forced,
    )

    def send(history: list[Any]) -> Turn:
        contents = [item if isinstance(item, types.Content) else types.Content.model_validate(item) for item in history]
        with _provider_errors("gemini", errors.APIError):
            response = client.models.generate_content(model=model, contents=contents, config=config)
        content = response.candidates[0].content if response.candidates else None
        if content is None:
            return [], [], ""
        parts = content.parts or []
        text = "".join(part.text for part in parts if part.text and not part.thought)
        calls = [part.function_call for part in parts if part.function_call is not None]
        return [content], calls, text  # the SDK's own object: thought signatures go back byte for byte

    return send, [text_turn("gemini", "user", prompt)], client.close


def openai_chat(request: Request) -> Session:
    wire, prompt, model, key, base_url, timeout, transport, force = request
    try:  # openai is heavy and optional
        import openai
    except ImportError as error:
        raise _missing("openai") from error
    client = openai.OpenAI(
        api_key=key, base_url=base_url, timeout=timeout, http_client=_client(openai, transport, timeout)
    )
    tools: Any = wire.bodies
    choice: Any = {} if force is None else {"tool_choice": {"type": "function", "function": {"name": force}}}

    def send(history: list[Any]) -> Turn:
        with _provider_errors("openai", openai.APIError):
            response = client.chat.completions.create(model=model, messages=history, tools=tools, **choice)
        message = response.choices[0].message
        calls = list(message.tool_calls or [])
        return [message.model_dump(mode="json", exclude_none=True)], calls, message.content or ""

    return send, [text_turn("openai", "user", prompt)], client.close


def openai_responses(request: Request) -> Session:
    wire, prompt, model, key, base_url, timeout, transport, force = request
    try:  # openai is heavy and optional
        import openai
    except ImportError as error:
        raise _missing("openai") from error
    client = openai.OpenAI(
        api_key=key, base_url=base_url, timeout=timeout, http_client=_client(openai, transport, timeout)
    )
    tools: Any = wire.bodies
    choice: Any = {} if force is None else {"tool_choice": {"type": "function", "name": force}}

    def send(history: list[Any]) -> Turn:
        with _provider_errors("openai", openai.APIError):
            response = client.responses.create(model=model, input=history, tools=tools, **choice)
        items = [item.model_dump(mode="json", exclude_none=True) for item in response.output]
        calls = [item for item in response.output if item.type == "function_call"]
        return items, calls, response.output_text

    return send, [text_turn("openai", "user", prompt)], client.close


def anthropic(request: Request) -> Session:
    wire, prompt, model, key, base_url, timeout, transport, force = request
    try:  # anthropic is heavy and optional
        import anthropic as sdk
    except ImportError as error:
        raise _missing("anthropic") from error
    client = sdk.Anthropic(
        api_key=key, base_url=base_url, timeout=timeout, http_client=_client(sdk, transport, timeout)
    )
    tools: Any = wire.bodies
    choice: Any = {} if force is None else {"tool_choice": {"type": "tool", "name": force}}

    def send(history: list[Any]) -> Turn:
        with _provider_errors("anthropic", sdk.APIError):
            response = client.messages.create(model=model, max_tokens=1024, messages=history, tools=tools, **choice)
        blocks = [block.model_dump(mode="json", exclude_none=True) for block in response.content]
        calls = [block for block in response.content if block.type == "tool_use"]
        text = "".join(block.text for block in response.content if block.type == "text")
        return [{"role": "assistant", "content": blocks}], calls, text

    return send, [text_turn("anthropic", "user", prompt)], client.close
