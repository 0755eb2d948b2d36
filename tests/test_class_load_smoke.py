"""The class load benchmark at two students, so ``python -m benchmarks --only class`` cannot rot.

It starts ``serve`` itself on loopback and stops it; the figures of two students mean nothing and are not
checked, only that every call was timed, nothing failed, and the server's memory was read.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # benchmarks/ is a top-level package next to tests/, not installed
    sys.path.insert(0, str(ROOT))

from benchmarks import class_load  # noqa: E402

pytestmark = pytest.mark.slow


def test_two_students_share_one_server():
    section = class_load.run(students=2, parallel=2, max_tokens=16)
    if section.rows == (("skipped",),):
        pytest.skip(section.notes[0])
    data = section.data
    # Every run ends without a failure: at 16 tokens a call is cut short, and goes back as a JSON object that
    # llama.cpp accepts (it answered HTTP 500 to the raw text).
    assert not data["failures"] and data["answered"] + data["step_limited"] == 2
    assert 1 <= data["calls"] <= 2 * class_load.MAX_STEPS  # calls were made and timed, within the ceiling
    assert len(data["seconds"]) == data["calls"] and all(0 < s < class_load.TIMEOUT for s in data["seconds"])
    assert data["peak_rss_mib"] > 50  # a model is loaded in the server process we measured
    assert section.targets[1].met  # no call waited past the stated timeout


def test_a_server_that_cannot_start_is_a_skip_with_its_reason():
    section = class_load.run(students=1, parallel=1, model="no-such-model")
    assert section.rows == (("skipped",),)
    assert "no-such-model" in section.notes[0]


def test_rss_is_read_for_a_live_process():
    import os

    assert class_load.rss_mib(os.getpid()) > 1


@pytest.mark.skipif(importlib.util.find_spec("psutil") is None, reason="psutil is not installed")
def test_rss_without_psutil_reads_proc(monkeypatch):
    import os

    with_psutil = class_load.rss_mib(os.getpid())
    monkeypatch.setattr(class_load.importlib.util, "find_spec", lambda name: None)
    assert abs(class_load.rss_mib(os.getpid()) - with_psutil) < 50
