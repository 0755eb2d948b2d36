"""Measurement 5: the whole offline course, every notebook executed top to bottom, timed.

Each notebook runs in a fresh kernel, as ``scripts/execute_notebooks.py`` runs them (cwd = notebooks/,
``MINGRAPH_LLM=scripted``, real model requests refused), but on a copy in memory: nothing is written
back, so benchmarking never changes the stored outputs that nbval compares against. The wall time
includes starting the kernel, which a learner pays too.
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from pathlib import Path

from .report import ROOT, Section

OFFLINE = {"MINGRAPH_LLM": "scripted", "MINGRAPH_REAL_MODELS": "off"}


def execute(nb, workdir: Path, timeout: int = 600) -> float:
    """Run a notebook object in a fresh kernel; return the wall seconds. Raises on a failing cell."""
    from nbclient import NotebookClient

    saved = {k: os.environ.get(k) for k in OFFLINE}
    os.environ.update(OFFLINE)
    try:
        started = time.perf_counter_ns()
        NotebookClient(nb, timeout=timeout, kernel_name="python3",
                       resources={"metadata": {"path": str(workdir)}}).execute()
        return (time.perf_counter_ns() - started) / 1e9
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def tiny_notebook():
    """One cell that imports the package: the smoke test's stand-in for the course."""
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.cells.append(nbformat.v4.new_code_cell("import mingraph_lite\nprint(mingraph_lite.__version__)"))
    return nb


def run(paths: Sequence[Path] | None = None, *, quick: bool = False) -> Section:
    import nbformat

    if quick:
        work = [("tiny (smoke test)", tiny_notebook(), ROOT / "notebooks")]
    else:
        paths = list(paths) if paths is not None else sorted((ROOT / "notebooks").glob("*.ipynb"))
        work = [(p.name, nbformat.read(p, as_version=4), p.parent) for p in paths]
    rows, total, per = [], 0.0, {}
    for name, nb, where in work:
        seconds = execute(nb, where)
        cells = sum(c.cell_type == "code" for c in nb.cells)
        per[name] = seconds
        total += seconds
        rows.append((name, f"{cells}", f"{seconds:.1f} s"))
    rows.append(("total", f"{len(work)} notebooks", f"{total:.1f} s"))
    notes = ("one fresh kernel per notebook, started and shut down inside the timing",)
    return Section("course", "5. The whole offline course", ("notebook", "code cells", "wall time"),
                   tuple(rows), (), notes, {"seconds": per, "total_s": total})
