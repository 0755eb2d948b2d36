"""Notebook 05's run #10 (Gemma, worked example): the folder it read, and the gated reveal of its verdict with a
hint for each likely wrong guess."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mingraph_lite.course.classify import classify
from mingraph_lite.observers.trace import read_trace
from ..predict import reveal
from ..trace_lines import print_trace

EXPERIMENTS = Path(__file__).resolve().parents[3] / "data" / "experiments"


@dataclass(frozen=True)
class RunSettings:
    """What the run was asked with, not how it ended: its results row also holds the verdict, the prediction's answer."""

    variant: str
    index: int
    seed: int
    temperature: float


def _row_10() -> Any:
    from mingraph_lite.course.results_folder import read_results

    finish = EXPERIMENTS / "finish-right" / "gemma3-270m"
    return next(r for r in read_results(finish) if r.variant == "worked example" and r.index == 10)


def show_run_10_input() -> tuple[RunSettings, Path]:
    """Print Gemma's finish-right run #10's settings and the folder it read; return those settings and its trace."""
    from ..trace_lines import print_folder

    row = _row_10()
    settings = RunSettings(row.variant, row.index, row.seed, row.temperature)
    print(f"variant {row.variant!r}, run #{row.index}, seed {row.seed}, temperature {row.temperature}")
    trace = EXPERIMENTS / "finish-right" / "gemma3-270m" / row.trace
    print_folder(read_trace(trace)[0]["messages"])
    return settings, trace


def _run_10_hint(guess: Any, events: Sequence[dict[str, Any]], verdict: Any) -> str:
    """One hint per likely wrong guess at run #10, naming the line that rules it out."""
    try:
        case, line = (int(x) for x in guess)
    except (TypeError, ValueError):
        return "answer (case, line): two whole numbers, as in 05.2"
    kinds = [e["event"] for e in events]
    if case == 4:
        end = len(kinds) - kinds[::-1].index("finish") if "finish" in kinds else len(kinds)
        return f"it finished: line {end} is its finish line ({events[end - 1].get('reason', 'answered')!r})"
    if case in (1, 2):
        return ("every slip asks get_weather about Paris or Tokyo and every answer slip is the teaching data: "
                "no wrong slip, no wrong tool result; look at what the final reply writes")
    if case == verdict.case and 1 <= line <= len(kinds) and kinds[line - 1] != "model_reply":
        return f"right case; line {line} is a {kinds[line - 1]} line: case 3's wrong line is the final reply itself"
    return "check each line against the rules above: slips, answer slips, then the final reply's numbers"


def reveal_run_10(guess: Any, events: list[dict[str, Any]], row: Any) -> None:
    """The gated reveal of Gemma run #10's (case, line), then its verdict and what it means, printed only once the
    guess is right (in the notebook's code it would give the answer away)."""
    if guess is ...:  # the trace holds the answer: a guess first, then the trace to check it against
        print("write your guess (case, line) in the cell above and run both cells: the trace prints then")
        return
    print_trace(events, width=96)  # read top to bottom, stop at the first wrong line
    verdict = classify(events)
    reveal(guess, (verdict.case, verdict.line), "(case, line)", gated=True, hint=_run_10_hint(guess, events, verdict))
    if guess != (verdict.case, verdict.line):
        return
    recorded = _row_10()  # the results row, verdict included: read only now
    print(f"--> {verdict.outcome}: {verdict.why}; results.csv said case {recorded.case}, line {recorded.line}; "
          f"Celsius written as °F: {verdict.celsius_as_fahrenheit}")
    print("Lines 1 to 8 are right (both lookups, both answer slips); no to_fahrenheit slip; the final reply writes "
          "Celsius as °F, which case 3 catches. One run of a tiny sampled model shows what it wrote, not why.")
    print("No finish-right run is right; the only ones whose first wrong line is the final reply are four of Gemma's, "
          "all with the worked example in the folder (tests/notebooks/test_nb05_claims.py).")


def worked_example(settings: RunSettings) -> tuple[Any, Any]:
    """The run's variant of definition finish-right and the folder it started from: its system prompt, then the
    worked example's messages, before the question (as recorded)."""
    from mingraph_lite.course.definition import load
    from mingraph_lite.memory import KeepAll

    variant = next(v for v in load("finish-right").variants if v.name == settings.variant)
    folder = KeepAll(variant.system_prompt)
    for message in variant.messages:
        folder.add(message)
    return variant, folder
