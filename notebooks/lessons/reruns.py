"""Re-runs of the scripted `unit` experiment for one seed, for notebook 06's question 3 (no answers in here)."""
from __future__ import annotations

import tempfile
from pathlib import Path

from mingraph_lite.course.experiments import run_experiment


def rerun_counts(seed: int) -> dict[str, int]:
    """Right runs per variant of the scripted `unit` re-run (8 runs each) for one seed."""
    folder = Path(tempfile.mkdtemp()) / "unit"
    results = run_experiment(None, out=folder, experiment="unit", runs=8, seed=seed, progress=False)
    return {variant: counts["right"] for variant, counts in results.counts().items()}
