"""What notebook 02 prints about the sampled zero-shot runs holds for the recorded traces."""

from __future__ import annotations

from pathlib import Path

from lessons.replies import first_slips_and_ends, show_sampled_runs

RUNS = Path(__file__).resolve().parents[2] / "data" / "experiments" / "finish-right"


def test_the_sampled_runs_do_what_notebook_02_says():
    smol = first_slips_and_ends(RUNS / "smollm2-135m" / "traces")
    assert len(smol) == 16 and sum(calls[0][0] == "to_fahrenheit" for calls, _ in smol) >= 15
    assert all(end["reason"] == "step limit" for _, end in smol)
    gem = first_slips_and_ends(RUNS / "gemma3-270m" / "traces")
    no_tool = [end["answer"] for calls, end in gem if not calls]
    assert len(gem) == 16 and len(no_tool) == 9
    assert sum("your answer" in answer.lower() for answer in no_tool) > len(no_tool) / 2  # "more than half"
    assert all(end["reason"] == "step limit" for calls, end in gem if calls)


def test_show_sampled_runs_prints_the_counts(capsys):
    show_sampled_runs(RUNS)
    out = capsys.readouterr().out
    assert "SmolLM2, 16 sampled runs:" in out and "16 hit the step limit" in out
    assert "Gemma, 16 sampled runs: 9 answered at once, without a tool; 7 of the other 7 hit the step limit" in out
