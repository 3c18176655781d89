"""AG2 before 1.0 (``autogen.tools.Tool``): read with the name, description and parameters of its
``tool_schema`` (what AG2 sends), its ``Depends`` parameter left to AG2, and called as AG2 calls ``func``. It
shares the distribution name ``ag2`` with AG2 1.x (in the `frameworks` extra), so ``.ci/setup`` installs it in
``.venv-frameworks``, where ``test_frameworks_in_their_venv.py`` runs this file."""

from __future__ import annotations

import pytest

pytest.importorskip("autogen.tools", reason="ag2 < 1.0 (the autogen package) is not installed (see .ci/setup)")

from framework_tools import described, differences
from framework_tools.autogen_tools import CASES

import toolkit as tk


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_tool_reads_as_ag2_sends_it(name: str) -> None:
    case = CASES[name]
    declared = case.obj.tool_schema["function"]
    tool = tk.from_function(case.obj)
    assert differences(tool, declared["name"], declared["description"], declared["parameters"]) == []
    assert set(tool.declaration["parameters"]["properties"]) == case.visible
    assert described(tool.args_schema) == described(declared["parameters"]) == len(case.visible)
    assert not [lint for lint in tool.lints if lint.code.startswith("TK7")]


@pytest.mark.parametrize(("name", "args"), [("check_stock", {"sku": "LAMP-042"}), ("quote_price", {"sku": "LAMP-042"})])
def test_toolkit_calls_the_tool_as_ag2_does(name: str, args: dict[str, object]) -> None:
    obj = CASES[name].obj
    result = tk.from_function(obj).call(args)
    assert result.status == "ok", result
    assert result.data == obj.func(**args)
