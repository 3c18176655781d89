"""Selection eval: does the model still pick the right tool, with valid arguments, and correct itself after an
error envelope? The same cases against two or more declaration sets of the same tools, side by side.

    cases = tk.load_cases("evals/issues.yaml")
    report = tk.evaluate(cases, {"golden": golden_tools, "edited": [search]}, "openai", samples=5,
                         record="evals/issues.cassette.json")
    report.regressions          # case by case, against the first variant
    # later, in CI, with no key and no network:
    tk.evaluate(cases, {...}, "openai", samples=5, replay="evals/issues.cassette.json").failed

Each sample is one conversation through the provider's own SDK (:mod:`toolkit._wire._sessions`): the case's
history and message with the variant's exact payloads; the model's first call is read back and validated
(never executed); if the validator refused it, the envelope goes back as the tool result and the model gets one
more turn. :mod:`toolkit._eval._report` defines the three measures; :mod:`toolkit._eval._cassette` records and
replays every HTTP exchange, keyed by the exact request, so a changed declaration is *stale*, never a silent
pass. Keys come from the environment (as for :func:`toolkit.try_live`) and appear in no report or cassette.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from toolkit._eval._cases import ArgExpectation, Case, load_cases, parse_cases
from toolkit._eval._cassette import Cassette, CassetteTransport
from toolkit._eval._report import CaseResult, EvalReport, Measure, Regression, Sample, regressions
from toolkit._exceptions import ProviderError, UsageError
from toolkit._tool import Tool
from toolkit._wire import Call, PayloadSet, payloads
from toolkit._wire._live import open_session, provider_dialect, provider_key
from toolkit._wire._sessions import Request, text_turn
from toolkit.runtime.redaction import Redactor, url_secrets

__all__ = [
    "ArgExpectation",
    "Case",
    "CaseResult",
    "EvalReport",
    "Measure",
    "Regression",
    "Sample",
    "Variant",
    "evaluate",
    "load_cases",
    "parse_cases",
]

_NO_KEY = "replay-needs-no-key"


@dataclass(frozen=True, slots=True)
class Variant:
    """One declaration set: the tools, and optionally the declaration bodies to send instead of theirs.

    ``bodies`` maps a tool's name to the exact body to offer in the run's dialect (a golden file's declaration,
    say); the model's call is still validated by the tool. A tool without an entry is sent as it is.
    """

    name: str
    tools: tuple[Tool, ...]
    bodies: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    def wire(self, dialect: str) -> PayloadSet:
        offered = payloads(self.tools, dialect)
        if not self.bodies:
            return offered
        swapped = []
        for payload in offered.payloads:
            body = self.bodies.get(payload.tool)
            if body is not None and payload.accepted:
                named = offered.rules.view(body).get("name")  # the dialect reads its own body's name
                name = named if isinstance(named, str) and named else payload.name
                payload = replace(payload, body=dict(body), name=name)
            swapped.append(payload)
        return replace(offered, payloads=tuple(swapped))


def _variants(given: Mapping[str, Any] | Sequence[Variant]) -> list[Variant]:
    if isinstance(given, Mapping):
        found = [Variant(str(name), _tools(tools)) for name, tools in given.items()]
    else:
        found = list(given)
    if not found or not all(isinstance(variant, Variant) for variant in found):
        raise UsageError("evaluate() takes {name: tools} or a list of Variant, with at least one variant")
    names = [variant.name for variant in found]
    if len(set(names)) != len(names):
        raise UsageError(f"variant names must differ: {names}")
    return found


def _tools(tools: Tool | Iterable[Tool]) -> tuple[Tool, ...]:
    items = (tools,) if isinstance(tools, Tool) else tuple(tools)
    if not items or not all(isinstance(tool, Tool) for tool in items):
        raise UsageError("each variant is a Tool, a Toolset or a list of Tools")
    return items


def evaluate(
    cases: Sequence[Case] | str | os.PathLike[str],
    variants: Mapping[str, Any] | Sequence[Variant],
    provider: str = "gemini",
    *,
    dialect: str | None = None,
    model: str | None = None,
    samples: int = 1,
    env: Mapping[str, str] | None = None,
    base_url: str | None = None,
    record: str | os.PathLike[str] | None = None,
    replay: str | os.PathLike[str] | None = None,
    timeout: float = 60.0,
    forced: bool = False,
) -> EvalReport:
    """Run every case ``samples`` times against every variant on ``provider`` and measure them side by side.

    ``record`` writes every exchange to a cassette file; ``replay`` answers from one, with no key and no network
    (a request it does not hold makes the sample *stale*). With ``base_url`` (an OpenAI-compatible local server,
    a proxy) and no key in the environment, the SDK is given a placeholder key. ``forced=True`` makes every case
    that expects a tool a forced-choice contract test (as ``force: true`` does for one case): the provider's
    tool choice names the tool, so only whether its arguments pass the validator and meet the case is measured.
    """
    spec, dialect = provider_dialect(provider, dialect)
    if record is not None and replay is not None:
        raise UsageError("record or replay a cassette, not both")
    if samples < 1:
        raise UsageError(f"samples must be at least 1, not {samples}")
    found = tuple(load_cases(cases) if isinstance(cases, (str, os.PathLike)) else cases)
    if forced:
        found = tuple(replace(case, force=True) if case.expect is not None else case for case in found)
    chosen = _variants(variants)
    environment = os.environ if env is None else env
    if replay is not None:
        name, key = "API_KEY", environment.get(spec.keys[0]) or _NO_KEY
    elif base_url is not None and not any(environment.get(variable) for variable in spec.keys):
        name, key = "API_KEY", _NO_KEY
    else:
        name, key = provider_key(provider, spec, environment)
    cassette = Cassette.load(replay) if replay is not None else Cassette(Path(record) if record is not None else None)
    transport = CassetteTransport(cassette, replay=replay is not None)
    runner = _Runner(dialect, model or spec.model, key, base_url, timeout, transport)
    runner.hide = Redactor({name: key, **url_secrets(base_url or "", "BASE_URL")})
    try:
        results = [
            CaseResult(variant.name, case.id, case.expect, tuple(runner.sample(variant, case) for _ in range(samples)))
            for variant in chosen
            for case in found
        ]
    finally:
        transport.shutdown()
    if record is not None:
        cassette.save(record)
    names = tuple(variant.name for variant in chosen)
    return EvalReport(
        provider,
        dialect,
        runner.model,
        samples,
        names,
        tuple(case.id for case in found),
        tuple(results),
        regressions(results, names),
    )


@dataclass
class _Runner:
    dialect: str
    model: str
    key: str
    base_url: str | None
    timeout: float
    transport: CassetteTransport
    hide: Redactor = field(default_factory=lambda: Redactor({}))

    def sample(self, variant: Variant, case: Case) -> Sample:
        wire = variant.wire(self.dialect)
        force = wire.names.get(case.expect) if case.force and case.expect is not None else None
        if case.force and force is None:
            return Sample("error", error=f"cannot force {case.expect!r}: {variant.name} does not offer it")
        stale_before = len(self.transport.stale)
        request = Request(
            wire, case.message, self.model, self.key, self.base_url, self.timeout, self.transport.transport, force
        )
        send, history, close = open_session(self.dialect, request)
        history = [*(text_turn(self.dialect, role, text) for role, text in case.history), *history]
        try:
            return self._conversation(wire, send, history, case)
        except ProviderError as error:
            if len(self.transport.stale) > stale_before:
                return Sample("stale", error="the cassette does not hold this request: re-record needed")
            return Sample("error", error=self.hide.text(error.message))
        finally:
            close()

    def _conversation(self, wire: PayloadSet, send: Any, history: list[Any], case: Case) -> Sample:
        items, raw_calls, text = send(history)
        history += items
        if not raw_calls:
            expected = case.expect is None
            return Sample("no_call", expected, None if expected else False, text=self.hide.text(text))
        calls = [wire.read(raw) for raw in raw_calls]
        results = [call.run() for call in calls]
        first, envelope = calls[0], results[0]
        shown = _shown(first, envelope.to_dict())
        if case.expect is None:
            return Sample("called", selection=False, first=shown, text=self.hide.text(text))
        selected = first.tool is not None and first.tool.name == case.expect
        valid = selected and envelope.ok and case.arguments_met(envelope.data or {})
        if not selected or envelope.ok:
            return Sample("called", selected, valid, None, shown, text=self.hide.text(text))
        history += wire.turn([wire.reply(call, result) for call, result in zip(calls, results, strict=True)])
        items, raw_calls, text = send(history)
        if not raw_calls:
            return Sample("called", True, False, False, shown, text=self.hide.text(text))
        retry = wire.read(raw_calls[0])
        answer = retry.run()
        fixed = retry.tool is not None and retry.tool.name == case.expect and answer.ok
        fixed = fixed and case.arguments_met(answer.data or {})
        return Sample("called", True, False, fixed, shown, _shown(retry, answer.to_dict()), self.hide.text(text))


def _shown(call: Call, envelope: dict[str, Any]) -> dict[str, Any]:
    return {
        "tool": None if call.tool is None else call.tool.name,
        "name": call.name,
        "arguments": call.arguments,
        "envelope": envelope,
    }
