"""Reader r21b's fixes to notebook 13: the learner watches their own agent run (and with the stub reads "not written
yet"), nothing later leans on that run, and the window prediction shows its figures only to a right guess."""

from __future__ import annotations

from pathlib import Path

from lessons.reference import reference

NB = Path(__file__).resolve().parents[2] / "notebooks" / "13_capstone_agent.py"


def _cells() -> list[str]:
    text = NB.read_text(encoding="utf-8")
    return [c.removeprefix(" %%") for c in text.split("\n# %%") if not c.lstrip().startswith("[markdown]")]


def _upto(marker: str, namespace: dict) -> str:
    """Run the code cells before the one holding ``marker``; return that cell's source."""
    for cell in _cells():
        if marker in cell:
            return cell
        exec(compile(cell, NB.name, "exec"), namespace)
    raise AssertionError(f"no cell with {marker!r}")


def test_the_watch_cell_runs_the_learners_agent_and_prints_its_supersteps(capsys):
    namespace: dict = {"__name__": "__main__"}
    cell = _upto("watched = PriceAgent(", namespace)
    exec(compile(cell, NB.name, "exec"), dict(namespace))  # the stub
    assert capsys.readouterr().out.strip().endswith("not written yet")
    exec(compile(cell, NB.name, "exec"), {**namespace, "PriceAgent": reference("13_capstone_agent").PriceAgent})
    out = capsys.readouterr().out
    assert "[step 1]" in out and "'reason': 'answered'" in out  # the run, told to its ConsoleLogger, and its result
    listing = [line for line in out.splitlines() if line.startswith("superstep ")]
    assert listing == ["superstep 1: model", "superstep 2: errand, errand", "superstep 3: model",
                       "superstep 4: errand, errand", "superstep 5: model"]  # as the notebook's listing shows


def test_no_later_cell_uses_the_watched_run():
    cells = _cells()
    at = next(i for i, c in enumerate(cells) if "watched = PriceAgent(" in c)
    later = "\n".join(cells[at + 1:])
    assert "watched" not in later and "your_graph" not in later


def test_the_window_prediction_shows_figures_only_to_a_right_guess(capsys):
    namespace: dict = {"__name__": "__main__"}
    cell = _upto("def prompt_sizes(", namespace)
    for guess, shown in (("A", False), ("D", False), (..., False), ("C", True)):
        exec(compile(cell, NB.name, "exec"), {**namespace, "guess_share": guess})
        out = capsys.readouterr().out
        assert ("fewer characters" in out) == shown, (guess, out)
        assert ("| right" in out) == shown
