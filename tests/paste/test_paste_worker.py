"""The paste box builds every edit in a worker process: nothing the pasted code does reaches this process (the
kernel) until Keep, and nothing it does can hang or end this process.

Internals: ``toolkit._paste._worker.Previewer``, the worker process under test."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_paste import FUNCTION

from toolkit._paste._worker import Previewer
from toolkit.widgets import Workbench

TIME_LIMIT, GRACE = 0.5, 1.5


@pytest.fixture(scope="module")
def previewer() -> Iterator[Previewer]:
    made = Previewer(time_limit=TIME_LIMIT, grace=GRACE)
    yield made
    made.close()


def test_a_top_level_side_effect_runs_in_the_worker_and_in_the_kernel_only_on_keep(
    previewer: Previewer, tmp_path: Path
) -> None:
    marker = tmp_path / "ran"
    effect = (
        "import os\nos.environ['TOOLKIT_PASTED'] = 'yes'\n"
        f"with open({str(marker)!r}, 'a') as out:\n    out.write(f'{{os.getpid()}}\\n')\n"
    )
    box = Workbench().editor(previewer=previewer)
    for end in range(len(FUNCTION) - 40, len(FUNCTION) + 1, 10):  # typing: every version runs the paste
        box.set_text(effect + FUNCTION[:end])
    assert box.draft.ok
    pids = set(marker.read_text().split())
    assert pids, "the preview ran the paste"
    assert str(os.getpid()) not in pids, "... never in this process"
    assert "TOOLKIT_PASTED" not in os.environ
    box.keep()
    try:
        assert marker.read_text().split().count(str(os.getpid())) == 1, "Keep ran it here, once"
        assert "its source ran once in this kernel" in box.message.value
    finally:
        os.environ.pop("TOOLKIT_PASTED", None)


def test_a_loop_that_swallows_the_interrupt_is_killed_and_the_next_edit_builds(previewer: Previewer) -> None:
    loop = "import time\nwhile True:\n    try:\n        time.sleep(10)\n    except:\n        pass\n"
    assert previewer.build(FUNCTION).ok  # warm
    started = time.monotonic()
    draft = previewer.build(loop + FUNCTION)
    waited = time.monotonic() - started
    assert draft.problem is not None
    assert (draft.problem.slug, "could not be interrupted" in draft.problem.message) == ("preview_timeout", True)
    assert previewer.started == 1, "the worker stays warm: only its child was killed"
    assert waited < TIME_LIMIT + GRACE + 1.0
    assert previewer.build(FUNCTION).ok


def test_a_plain_endless_loop_is_interrupted_inside_the_worker_and_located(previewer: Previewer) -> None:
    previewer.build(FUNCTION)
    pid = previewer.pid
    draft = previewer.build("while True:\n    pass\n" + FUNCTION)
    assert draft.problem is not None
    assert (draft.problem.slug, draft.problem.line) == ("preview_timeout", 1), "the timeout's slug, not an import's"
    assert "still running after" in draft.problem.message
    assert previewer.pid == pid, "an interruptible loop does not cost the warm worker"


def test_os_exit_ends_the_worker_not_this_process(previewer: Previewer) -> None:
    draft = previewer.build("import os\nos._exit(1)\n" + FUNCTION)
    assert draft.problem is not None
    assert (draft.problem.slug, "ended its preview process with code 1" in draft.problem.message) == (
        "preview_exited",
        True,
    )
    assert previewer.build(FUNCTION).ok


def test_twenty_edits_that_start_threads_leave_no_thread_behind(previewer: Previewer) -> None:
    threads = threading.active_count()
    spawn = "import threading, time\nthreading.Thread(target=time.sleep, args=(60,)).start()\n"
    for n in range(20):
        assert previewer.build(spawn + FUNCTION.replace("create_ticket", f"create_ticket_{n}")).ok
    assert threading.active_count() == threads
    status = Path(f"/proc/{previewer.pid}/status")
    if status.exists():
        assert "Threads:\t1\n" in status.read_text(), "a worker left with threads is replaced"


def test_memory_is_bounded_in_the_worker(previewer: Previewer) -> None:
    draft = previewer.build("hoard = bytearray(8 << 30)\n" + FUNCTION)
    assert draft.problem is not None
    assert "MemoryError" in draft.problem.message


def test_a_warm_worker_builds_an_edit_well_under_a_second(previewer: Previewer) -> None:
    previewer.build(FUNCTION)
    started = time.monotonic()
    for n in range(5):
        assert previewer.build(FUNCTION.replace("create_ticket", f"create_ticket_{n}")).ok
    assert (time.monotonic() - started) / 5 < 0.5
    assert previewer.started == 1, "one warm worker for every build"


def test_the_worker_runs_in_its_own_session_so_interrupting_the_kernel_spares_it(previewer: Previewer) -> None:
    assert previewer.build(FUNCTION).ok
    assert previewer.pid is not None
    assert os.getsid(previewer.pid) != os.getsid(0)
