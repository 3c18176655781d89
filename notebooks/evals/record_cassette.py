"""Re-record ``issues.cassette.json``, the cassette notebook 08 replays (run from the repo root):

    .venv/bin/python notebooks/evals/record_cassette.py

CI has no provider key, so this cassette is recorded from the tests' scripted model (``tests/eval_support.py``):
a loopback server that answers the Anthropic API's wire from a stated script, through the real ``anthropic``
SDK. With a key, record from the real model instead, the same way notebook 08 describes::

    tk.evaluate(cases, variants, "anthropic", samples=3, record="notebooks/evals/issues.cassette.json")

Re-record after any change to the example tool's declaration, the cases or the variants below: the notebook's
replay then reports the stale cases until it is.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent / "tests"))

import toolkit as tk  # noqa: E402
from eval_support import CASES_FILE, ScriptedModel, issue_scripts  # noqa: E402
from toolkit import examples  # noqa: E402

GOLDEN = tk.from_function(examples.search_issues, namespace="issues", effect="read")
EDITED = tk.from_function(
    examples.search_issues, namespace="issues", effect="read", description="Find issues by free text, newest first."
)
"""The two variants of notebook 08: the tool as its golden file has it, and the author's shortened description."""


def main() -> int:
    with ScriptedModel("anthropic", issue_scripts("anthropic")) as server:
        report = tk.evaluate(
            tk.load_cases(CASES_FILE),
            {"golden": [GOLDEN], "edited": [EDITED]},
            "anthropic",
            samples=3,
            env={"ANTHROPIC_API_KEY": "scripted-model-needs-no-key"},
            base_url=server.url,
            record=HERE / "issues.cassette.json",
        )
    print(report._repr_mimebundle_()["text/plain"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
