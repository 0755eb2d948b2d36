"""Notebook 06 shows no answer to copy (the interval's closed form never appears, the package's ``wilson`` only
after the 06.3 check, each exercise cell a stub), and the sentences it makes about intervals and runs hold."""

from __future__ import annotations

import math
from pathlib import Path

import jupytext

from lessons.exercises.nb06 import (
    INSIDE_CASES,
    INTERVAL_CASES,
    OVERLAP_CASES,
    RUNS_CASES,
    _apart,
    _runs_needed,
    _width,
)
from lessons.exercises.nb06_questions import SCRIPT_RIGHT, _chance, coverage, rerun_counts
from mingraph_lite.course.compare import wilson

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "06_how_sure.py"


def _sources() -> list[str]:
    return [cell.source for cell in jupytext.read(NOTEBOOK).cells]


def _first(sources: list[str], text: str) -> int:
    return next(i for i, s in enumerate(sources) if text in s)


def test_the_package_interval_appears_only_after_the_last_exercise():
    sources = _sources()
    assert not [s for s in sources[:_first(sources, 'check("06.3"')] if "wilson" in s]
    assert not [s for s in sources if "half-width" in s or "z²/" in s]  # the closed form is never printed


def test_each_exercise_cell_is_a_stub_and_comes_in_page_order():
    sources, text = _sources(), "\n".join(_sources())
    for stub in ("def inside(k, n, p0, z=1.96):\n    raise NotImplementedError",
                 "def interval(k, n, inside):\n    raise NotImplementedError",
                 "def runs_needed(width, share):\n    raise NotImplementedError",
                 "def apart(a, b, interval_of):\n    raise NotImplementedError",
                 "def coverage(p, n, trials=2000, seed=1):\n    raise NotImplementedError"):
        assert text.count(stub.split("(")[0] + "(") == 1 and stub in text
    checks = [_first(sources, f'check("06.{k}"') for k in (1, 2, 3, 4)]
    assert checks == sorted(checks)


def test_the_held_out_cases_are_not_in_the_notebook():
    """06.2 and 06.3: "pairs the notebook never shows"."""
    text = "\n".join(_sources())
    assert not [case for case in OVERLAP_CASES if f"{case[0]}, {case[1]}" in text]
    assert not [case for case in RUNS_CASES if f"runs_needed({case[0]}, {case[1]})" in text]


def test_the_intervals_the_notebook_quotes_for_6_of_8_and_0_of_8():
    """06: "A model right 45% of the time and one right 90% could both have shown 6 of 8, and 0 of 8 still allows a
    model right in nearly one run of three"."""
    top = wilson(0, 8)[1]
    assert wilson(6, 8)[0] < 0.45 and wilson(6, 8)[1] > 0.9 and 0.3 < top < 1 / 3 and round(100 * top) == 32


def test_the_scripted_rerun_samples_so_another_seed_can_give_another_count():
    """06: "they sample: not always 6 of 8", and question 3's answer."""
    counts = {seed: rerun_counts(seed)["18°C"] for seed in (5, 9)}
    assert counts[5] != counts[9] and 6 not in counts.values()


def test_the_held_out_cases_leave_room_for_an_interval_right_to_the_tolerance():
    """06.1 accepts ends within 0.002; 06.2 and 06.3 must not turn on a smaller difference than that."""
    for width, share in RUNS_CASES:
        n = _runs_needed(width, share)
        assert _width(share, n) <= width - 0.005 and all(_width(share, m) >= width + 0.005 for m in range(1, n))
    for a, b in OVERLAP_CASES:
        (a_low, a_high), (b_low, b_high) = wilson(*a), wilson(*b)
        assert min(abs(a_high - b_low), abs(b_high - a_low)) >= 0.005
    assert {_apart(a, b) for a, b in OVERLAP_CASES} == {True, False}


def test_the_overlap_rule_is_conservative():
    """06: "14 of 20 against 6 of 20 overlap, yet a two-proportion z-test separates them"."""
    (a_low, a_high), (b_low, b_high) = wilson(14, 20), wilson(6, 20)
    assert b_low < a_low < b_high < a_high  # the intervals overlap
    pooled = 20 / 40
    z = (14 / 20 - 6 / 20) / math.sqrt(pooled * (1 - pooled) * (1 / 20 + 1 / 20))
    assert z > 1.96


def test_the_coverage_the_answers_quote():
    """06.Q6's answer: "the simulation gives 93.05%" at p = 0.5, and "97%" at p = 0.75."""
    assert coverage(0.5, 8) == 0.9305 and round(100 * coverage(0.75, 8)) == 97


def test_the_06_1_text_counts_the_cases_the_check_tries():
    """06.1: "The check tests `inside` on 12 candidates, compares your interval's ends ... on 13 cases"."""
    text = " ".join("\n".join(_sources()).replace("# ", "").split())
    assert f"`inside` on {len(INSIDE_CASES)} candidates" in text and f"on {len(INTERVAL_CASES)} cases" in text


def test_the_undescribed_18_runs_keep_asking_and_never_finish():
    """06: "The script plays the other 2 as runs that keep asking until the step limit; seed 5 drew none"; and the
    article's notes say nothing of those 2 runs."""
    import tempfile

    from mingraph_lite.course.experiments import run_experiment
    from mingraph_lite.course.modelled import REPORTED_NOTES

    def eighteen(seed):
        out = Path(tempfile.mkdtemp()) / "unit"
        runs = run_experiment(None, out=out, experiment="unit", runs=8, seed=seed, progress=False).runs
        return {(r.outcome, r.script.split(" (")[0]) for r in runs if r.variant == "18"}

    assert eighteen(5) == {("wrong final reasoning", "celsius as fahrenheit")}
    assert ("never finished", "kept asking") in eighteen(10)
    assert '"18"' not in REPORTED_NOTES


def test_the_real_runs_never_reach_the_unit():
    """Question 5's answer: 28 of the 32 real runs slip before any tool result comes back, the other 4 never
    finish, so no real run reaches a final reply where the unit could matter."""
    import json

    from mingraph_lite.course.classify import classify

    data = NOTEBOOK.parents[1] / "data" / "experiments"
    outcomes = []
    for trace in sorted(data.glob("*/traces/*.jsonl")):
        if trace.parts[-3] not in ("smollm2-135m", "gemma3-270m"):
            continue
        events = [json.loads(line) for line in trace.read_text().splitlines() if line.strip()]
        verdict = classify(events)
        outcomes.append(verdict.outcome)
        if verdict.outcome == "wrong slip":
            assert not [e for e in events[:verdict.line - 1] if e.get("event") == "tool_return"], trace
    assert len(outcomes) == 32 and outcomes.count("wrong slip") == 28 and outcomes.count("never finished") == 4


def test_seed_13_falls_outside_seed_5s_interval():
    """Question 3's answer: seed 5 gives 7 of 8 for 18°C (53-98%), which holds 5, 6 or 7 of 8; at the script's 0.75
    a run those counts have a chance of about 79% (21%, 31%, 27%); seed 13 gives 3 of 8, outside, and shares no
    run with seed 5 ("run i of seed s draws with seed s + i")."""
    from mingraph_lite.course.experiments import plan

    seeds = {s: {run_seed for _, _, run_seed in plan(["18°C"], 8, s)} for s in (5, 13)}
    assert seeds[5] == set(range(5, 13)) and not seeds[5] & seeds[13]
    five, nine = rerun_counts(5)["18°C"], rerun_counts(13)["18°C"]
    low, high = wilson(five, 8)
    assert SCRIPT_RIGHT == 0.75 and (round(100 * low), round(100 * high)) == (53, 98)
    assert [k for k in range(9) if low <= k / 8 <= high] == [5, 6, 7]
    assert round(_chance([5, 6, 7])) == 79 and [round(_chance([k])) for k in (5, 6, 7)] == [21, 31, 27]
    assert five == 7 and nine == 3 and nine / 8 < low


def test_the_scripts_share_is_what_it_draws():
    """Question 3: "The script makes each `18°C` run right with chance 0.75": over 30 seeds that share no run,
    about 6 in 8 right, and about 79% of the counts inside 53-98% (5, 6 or 7 of 8)."""
    rights = [rerun_counts(seed)["18°C"] for seed in range(13, 13 + 8 * 30, 8)]
    assert abs(sum(rights) / (8 * len(rights)) - SCRIPT_RIGHT) < 0.06
    assert abs(sum(k in (5, 6, 7) for k in rights) / len(rights) - 0.79) < 0.12


def test_question_6s_true_coverage_is_far_enough_from_95_to_reject_it():
    """Question 6 passes within 1.5 points of the simulation; the naive 95 must fall outside that."""
    assert abs(100 * coverage(0.5, 8) - 95) > 1.5 and abs(100 * coverage(0.5, 8) - 93) < 0.5


def test_the_two_reported_counts_are_apart():
    """06: "The two intervals, 41-93% and 0-32%, do not overlap"."""
    (low, high), top = wilson(6, 8), wilson(0, 8)[1]
    assert round(100 * low) == 41 and round(100 * high) == 93 and round(100 * top) == 32 and top < low


def test_06_4s_held_out_pairs_tell_the_score_interval_from_the_wald_one():
    """06.4 accepts within COVERAGE_TOLERANCE of the exact chance; k/n ± 1.96 SE at k/n must fall outside it."""
    from lessons.exercises.nb06 import COVERAGE_CASES, COVERAGE_TOLERANCE, _wald, exact_coverage

    text = "\n".join(_sources())
    for p, n in COVERAGE_CASES:
        assert f"coverage({p}, {n})" not in text
        assert abs(exact_coverage(p, n) - exact_coverage(p, n, _wald)) > 2 * COVERAGE_TOLERANCE
        assert abs(coverage(p, n) - exact_coverage(p, n)) < COVERAGE_TOLERANCE / 2


def test_no_code_cell_above_06_1_holds_its_answer():
    """06.1 cannot be lifted from the cells above it: the worked candidate is in markdown, and the code cells above
    only call the helpers (no comparison, no square root, no scan over candidates)."""
    sources = _sources()
    cells = jupytext.read(NOTEBOOK).cells[:_first(sources, 'check("06.1"')]
    code = "\n".join(c.source for c in cells if c.cell_type == "code")
    assert "show_candidate(6, 8, 0.40)" in code and "draw_gap_reach(6, 8)" in code
    assert not [token for token in ("<=", "sqrt", "range(", " for ", "abs(") if token in code]


def test_the_worked_candidate_in_the_markdown_is_what_the_helper_computes():
    """06: "the gap is |0.75 − 0.40| = 0.350, and 1.96 standard errors at 0.40 are 1.96 · √(0.40 · 0.60 / 8) =
    1.96 · 0.173 = 0.339. The gap is wider: 0.40 is just outside"."""
    from lessons.candidates import gap_and_reach

    text = " ".join("\n".join(_sources()).split())
    gap, reach = gap_and_reach(6, 8, 0.40)
    assert f"= {gap:.3f}," in text and f"1.96 · {math.sqrt(0.40 * 0.60 / 8):.3f} = {reach:.3f}" in text
    assert reach < gap < reach + 0.02 and wilson(6, 8)[0] > 0.40  # just outside


def test_get_weather_answers_a_bare_18_and_with_the_unit_18_celsius():
    """06: "`get_weather` answers a bare "18" ...; the change makes it answer "18°C"."""
    from mingraph_lite import ToolCall
    from mingraph_lite.course.weather import weather_registry

    call = ToolCall("t1", "get_weather", {"city": "Paris"})
    assert [weather_registry(unit_in_result=unit).run(call).content for unit in (False, True)] == ["18", "18°C"]


def test_the_18_celsius_rows_wrong_slip_is_the_made_up_run():
    """06: "The "18°C" row's one wrong slip plays the article's run that skipped get_weather and made up 10°C and
    5°C: converting numbers no tool returned is a slip"; and the "18" runs are all wrong final reasoning."""
    import tempfile

    from mingraph_lite.course.experiments import run_experiment
    from mingraph_lite.course.modelled import REPORTED_NOTES

    runs = run_experiment(None, out=Path(tempfile.mkdtemp()) / "unit", experiment="unit", runs=8, seed=5,
                          progress=False).runs
    slips = [r for r in runs if r.variant == "18°C" and r.outcome == "wrong slip"]
    assert len(slips) == 1 and slips[0].script.startswith("made up numbers")
    assert "skipped get_weather, made up 10°C and 5°C" in REPORTED_NOTES
    eighteen = [r for r in runs if r.variant == "18"]
    assert len(eighteen) == 8
    assert all(r.outcome == "wrong final reasoning" and r.celsius_as_fahrenheit for r in eighteen)


def test_q6_reads_a_share_as_the_percentage_it_stands_for():
    from lessons.exercises import verdict

    assert verdict("06.Q6", 0.93).passed and verdict("06.Q6", 93).passed
    assert not verdict("06.Q6", 0.95).passed  # 95%: the target, not this interval's coverage at 8 runs
