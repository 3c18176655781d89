"""Eval view: a selection eval's table of variants x cases x measures, and, for the case picked, every sample's
calls, the envelopes the model read back, and its correction."""

from __future__ import annotations

import json
from typing import Any

import ipywidgets as widgets

from toolkit._display._markup import esc
from toolkit._eval import CaseResult, EvalReport, Sample
from toolkit.widgets._base import View, html_widget

__all__ = ["EvalView"]


def _call_html(title: str, call: dict[str, Any] | None) -> str:
    if call is None:
        return ""
    arguments = json.dumps(call["arguments"], ensure_ascii=False, sort_keys=True)
    envelope = json.dumps(call["envelope"], ensure_ascii=False, indent=1, sort_keys=True)
    return (
        f"<p><b>{esc(title)}</b>: <code>{esc(call['name'])}</code> <code>{esc(arguments)}</code></p>"
        f"<pre class='tk-code'>{esc(envelope)}</pre>"
    )


def _sample_html(number: int, sample: Sample) -> str:
    marks = ", ".join(
        f"{name}: {'yes' if value else 'no'}"
        for name, value in (
            ("selection", sample.selection),
            ("valid first call", sample.valid_first),
            ("recovered", sample.recovered),
        )
        if value is not None
    )
    head = f"<h4>sample {number} · {esc(sample.outcome)}{' · ' + esc(marks) if marks else ''}</h4>"
    parts = [head, _call_html("first call", sample.first), _call_html("after the envelope", sample.second)]
    if sample.text:
        parts.append(f"<p>model's text: {esc(sample.text)}</p>")
    if sample.error:
        parts.append(f"<p class='tk-fail'>{esc(sample.error)}</p>")
    return "".join(parts)


def case_html(result: CaseResult) -> str:
    """Every sample of one case under one variant."""
    return "".join(_sample_html(number, sample) for number, sample in enumerate(result.samples, 1))


class EvalView(View):
    """The report's table, and a picker over (variant, case) that shows that case's samples."""

    def __init__(self, report: EvalReport) -> None:
        self.report = report
        self.table = html_widget(report._repr_mimebundle_()["text/html"])
        options = [(f"{result.variant} · {result.case}", index) for index, result in enumerate(report.results)]
        self.picker = widgets.Dropdown(
            options=options,
            value=0 if options else None,
            description="Case",
            layout=widgets.Layout(width="auto"),
        )
        self.detail = html_widget()
        self.picker.observe(lambda _change: self._draw(), names="value")
        self.widget = widgets.VBox([self.table, self.picker, self.detail])
        self._draw()

    def _draw(self) -> None:
        index = self.picker.value
        self.detail.value = "" if index is None else case_html(self.report.results[index])

    def pick(self, variant: str, case: str) -> CaseResult:
        """Show one case under one variant; the result shown."""
        result = self.report.result(variant, case)
        self.picker.value = self.report.results.index(result)
        return result

    def summary(self) -> str:
        verdict = "failed" if self.report.failed else "passed"
        return (
            f"Eval on {self.report.provider}: {len(self.report.cases)} cases x {len(self.report.variants)} variants, "
            f"{len(self.report.regressions)} regressions, {len(self.report.stale)} stale; {verdict}"
        )
