"""ipywidgets views over the core objects, and the :class:`Workbench` facade that opens them.

One module per view (declaration, lints, losses, fixtures, envelope inspector, playground, binding, wire,
golden, tool, toolset, selection eval) and the paste box (``editor``). Views are attached to frozen core data
and call the public functions; each displays with a stable ``text/plain`` fallback for nbval and plain IPython. This
package imports ipywidgets, so it loads lazily: ``tk.Workbench`` is resolved on first use.
"""

from __future__ import annotations

from toolkit.widgets.binding import BindingView
from toolkit.widgets.declaration import DeclarationView
from toolkit.widgets.editor import PasteBox
from toolkit.widgets.envelope import EnvelopeInspector
from toolkit.widgets.evaluation import EvalView
from toolkit.widgets.fixtures import FixturesView
from toolkit.widgets.golden import GoldenView
from toolkit.widgets.lints import LintsView
from toolkit.widgets.losses import LossesView
from toolkit.widgets.playground import Playground
from toolkit.widgets.tool import ToolView
from toolkit.widgets.toolset import ToolsetView
from toolkit.widgets.wire import WireView
from toolkit.widgets.workbench import Workbench

__all__ = [
    "BindingView",
    "DeclarationView",
    "EnvelopeInspector",
    "EvalView",
    "FixturesView",
    "GoldenView",
    "LintsView",
    "LossesView",
    "PasteBox",
    "Playground",
    "ToolView",
    "ToolsetView",
    "WireView",
    "Workbench",
]
