"""What a selection eval found: per variant and case, three measures with counts and a 95 % interval, and the
regressions between variants, case by case.

The three measures, each over the samples that reached the provider (stale and failed samples are counted
apart and never pass):

* **selection** - the expected tool was the first one called (``expect: none``: no tool was called);
* **valid first call** - that first call passed toolkit's validator and its arguments meet the case's
  expectations (not measured for ``expect: none``);
* **recovered** - over the samples whose first call named the right tool and was *refused by the validator*:
  after the error envelope went back as the tool result, the model's next call was valid and met them.

A **regression** is a measure whose rate in a variant is lower than in the first variant (the baseline), for one
case; with few samples the interval says how much that means. A run with a regression or a stale sample fails
its check (``toolkit eval`` exits 1).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from toolkit._display import Displayable, Renderer, displayed_by
from toolkit._display._markup import esc, wrap
from toolkit._exceptions import EvalError

__all__ = ["MEASURES", "CaseResult", "EvalReport", "Measure", "Regression", "Sample", "wilson"]

MEASURES = ("selection", "valid_first", "recovered")
"""The measures, in the order they are shown."""

_TITLES = {"selection": "selection", "valid_first": "valid first call", "recovered": "recovered"}


def wilson(passed: int, total: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of ``passed / total`` (95 % by default); ``(0, 1)`` for no samples."""
    if total <= 0:
        return 0.0, 1.0
    rate = passed / total
    denominator = 1 + z * z / total
    centre = (rate + z * z / (2 * total)) / denominator
    half = z * math.sqrt(rate * (1 - rate) / total + z * z / (4 * total * total)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True, slots=True)
class Measure:
    """``passed`` of ``total`` samples, with the rate's 95 % Wilson interval."""

    passed: int
    total: int

    @property
    def rate(self) -> float | None:
        return self.passed / self.total if self.total else None

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.passed, self.total)

    def __str__(self) -> str:
        if not self.total:
            return "-"
        low, high = self.interval
        return f"{self.passed}/{self.total} [{low:.2f}, {high:.2f}]"

    def to_dict(self) -> dict[str, Any]:
        low, high = self.interval
        return {"passed": self.passed, "total": self.total, "rate": self.rate, "interval": [low, high]}


@dataclass(frozen=True, slots=True)
class Sample:
    """One conversation: what the model called first and, after an envelope, next; and how it scored.

    ``outcome`` is ``called``, ``no_call``, ``stale`` (a replayed request the cassette does not hold) or
    ``error`` (the provider refused the request: ``error`` says why, with any key redacted).
    """

    outcome: str
    selection: bool | None = None
    valid_first: bool | None = None
    recovered: bool | None = None
    first: dict[str, Any] | None = None
    second: dict[str, Any] | None = None
    text: str = ""
    error: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "outcome": self.outcome,
            "selection": self.selection,
            "valid_first": self.valid_first,
            "recovered": self.recovered,
            "first": self.first,
            "second": self.second,
            "text": self.text,
            "error": self.error,
        }


@dataclass(frozen=True, slots=True)
class CaseResult:
    """One case under one variant: its samples and their three measures."""

    variant: str
    case: str
    expect: str | None
    samples: tuple[Sample, ...]

    def measure(self, name: str) -> Measure:
        values = [getattr(sample, name) for sample in self.samples if sample.outcome in ("called", "no_call")]
        counted = [value for value in values if value is not None]
        return Measure(sum(1 for value in counted if value), len(counted))

    @property
    def stale(self) -> int:
        return sum(1 for sample in self.samples if sample.outcome == "stale")

    @property
    def errors(self) -> int:
        return sum(1 for sample in self.samples if sample.outcome == "error")

    def to_dict(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "case": self.case,
            "expect": self.expect or "none",
            **{name: self.measure(name).to_dict() for name in MEASURES},
            "stale": self.stale,
            "errors": self.errors,
            "samples": [sample.to_dict() for sample in self.samples],
        }


@dataclass(frozen=True, slots=True)
class Regression:
    """A measure of one case that is lower in ``variant`` than in the baseline."""

    case: str
    measure: str
    baseline: str
    variant: str
    before: Measure
    after: Measure

    def __str__(self) -> str:
        return (
            f"{self.case}: {_TITLES[self.measure]} {self.before} in {self.baseline} -> {self.after} in {self.variant}"
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "case": self.case,
            "measure": self.measure,
            "baseline": self.baseline,
            "variant": self.variant,
            "before": self.before.to_dict(),
            "after": self.after.to_dict(),
        }


def regressions(results: Sequence[CaseResult], variants: Sequence[str]) -> tuple[Regression, ...]:
    """Every case and measure whose rate is lower in a later variant than in the first."""
    if len(variants) < 2:
        return ()
    by_key = {(result.variant, result.case): result for result in results}
    found = []
    for result in results:
        if result.variant == variants[0]:
            continue
        base = by_key.get((variants[0], result.case))
        if base is None:
            continue
        for name in MEASURES:
            before, after = base.measure(name), result.measure(name)
            if before.rate is not None and after.rate is not None and after.rate < before.rate:
                found.append(Regression(result.case, name, variants[0], result.variant, before, after))
    return tuple(found)


def _report_text(report: EvalReport) -> str:
    lines = [
        f"eval on {report.provider} ({report.dialect}, {report.model}): {len(report.cases)} case(s) x "
        f"{len(report.variants)} variant(s) x {report.samples} sample(s)"
    ]
    width = max([len("case"), *(len(case) for case in report.cases)])
    for variant in report.variants:
        lines.append(f"\n{variant}")
        lines.append((f"  {'case':<{width}}  " + "  ".join(f"{_TITLES[name]:<22}" for name in MEASURES)).rstrip())
        for result in report.for_variant(variant):
            cells = "  ".join(f"{result.measure(name)!s:<22}" for name in MEASURES)
            flags = (f"  STALE x{result.stale} (re-record needed)" if result.stale else "") + (
                f"  ERROR x{result.errors}" if result.errors else ""
            )
            lines.append(f"  {result.case:<{width}}  {cells}{flags}".rstrip())
    if report.regressions:
        lines.append("\nregressions:")
        lines += [f"  {regression}" for regression in report.regressions]
    verdict = "FAILED" if report.failed else "passed"
    stale = sum(result.stale for result in report.results)
    lines.append(f"\n{verdict}: {len(report.regressions)} regression(s), {stale} stale sample(s)")
    return "\n".join(lines)


def _report_html(report: EvalReport) -> str:
    head = "".join(f"<th>{esc(_TITLES[name])}</th>" for name in MEASURES)
    rows = []
    for result in report.results:
        cells = "".join(f"<td>{esc(str(result.measure(name)))}</td>" for name in MEASURES)
        flag = " <span class='tk-fail'>stale: re-record needed</span>" if result.stale else ""
        rows.append(f"<tr><td>{esc(result.variant)}</td><td>{esc(result.case)}{flag}</td>{cells}</tr>")
    table = f"<table><tr><th>variant</th><th>case</th>{head}</tr>{''.join(rows)}</table>"
    found = "".join(f"<li>{esc(str(regression))}</li>" for regression in report.regressions)
    title = f"eval on {report.provider} ({report.dialect}, {report.model})"
    verdict = "FAILED" if report.failed else "passed"
    parts = [f"<div class='tk-headline'><b>{esc(title)}: {verdict}</b></div>", table]
    if found:
        parts.append(f"<p class='tk-fail'>Regressions</p><ul>{found}</ul>")
    return wrap("eval", "".join(parts))


@displayed_by(Renderer(_report_text, _report_html))
@dataclass(frozen=True, slots=True, eq=False)
class EvalReport(Displayable):
    """Every case under every variant, the regressions against the first variant, and the run's settings."""

    provider: str
    dialect: str
    model: str
    samples: int
    variants: tuple[str, ...]
    cases: tuple[str, ...]
    results: tuple[CaseResult, ...]
    regressions: tuple[Regression, ...]

    @property
    def stale(self) -> tuple[CaseResult, ...]:
        """The results with a sample the cassette did not hold."""
        return tuple(result for result in self.results if result.stale)

    @property
    def failed(self) -> bool:
        """Whether the check fails: a regression, or a stale sample (never passes silently)."""
        return bool(self.regressions or self.stale)

    def check(self) -> EvalReport:
        """This report, if it passes; else :class:`~toolkit.EvalError`: ``stale_cassette`` (re-record) first, then
        ``eval_regression``, each naming the cases. For a test in CI: ``tk.evaluate(..., replay=...).check()``."""
        if self.stale:
            where = ", ".join(f"{result.case} ({result.variant})" for result in self.stale)
            message = f"the cassette does not hold these cases' requests: {where}; re-record the cassette"
            raise EvalError(message, slug="stale_cassette")
        if self.regressions:
            found = "; ".join(str(regression) for regression in self.regressions)
            raise EvalError(f"{len(self.regressions)} regression(s): {found}", slug="eval_regression")
        return self

    def for_variant(self, variant: str) -> tuple[CaseResult, ...]:
        return tuple(result for result in self.results if result.variant == variant)

    def result(self, variant: str, case: str) -> CaseResult:
        for result in self.results:
            if (result.variant, result.case) == (variant, case):
                return result
        raise KeyError((variant, case))

    def to_dict(self) -> dict[str, Any]:
        return {
            "provider": self.provider,
            "dialect": self.dialect,
            "model": self.model,
            "samples": self.samples,
            "variants": list(self.variants),
            "results": [result.to_dict() for result in self.results],
            "regressions": [regression.to_dict() for regression in self.regressions],
            "failed": self.failed,
        }

    def __repr__(self) -> str:
        shape = f"variants={len(self.variants)} cases={len(self.cases)}"
        return f"<EvalReport {self.provider} {shape} failed={self.failed}>"
