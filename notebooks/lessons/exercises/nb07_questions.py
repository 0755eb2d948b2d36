"""Checkers for notebook 07's questions: each answer is compared with a run of the code it asks about.

They live apart from ``nb07.py``'s exercises to keep each module short; they reuse its helpers.
"""

from __future__ import annotations

from typing import Any, TypedDict, get_type_hints
from mingraph_lite.course.brief import BriefNodes, BriefState, initial_state
from mingraph_lite import GraphStepLimit
from . import exercise, number_answer
from .nb07 import brief_graph, walk


def _number(answer: Any, want: int, hints: dict[int, str], what: str, how: str = "") -> str:
    return number_answer(answer, want, hints, what, how or f"count the {what} again, node by node")


@exercise("07.Q2", kind="reasoning", title="events without a reducer")
def check_q2(answer: Any) -> str:
    fields = get_type_hints(BriefState, include_extras=True)
    plain = TypedDict("PlainEvents", {**fields, "events": list[str]})  # `events` replaced, not added to
    final, _ = walk(brief_graph(BriefNodes("missing-notice", 1), plain).compile(max_steps=8),
                    initial_state(["Tokyo", "Paris"]))
    return _number(answer, len(final["events"]), {
        7: "7 is what the reducer gives (one event per node, one more for the second city); without it each "
           "slip's events replace the list", 6: "6 is one event per node: without a reducer each slip replaces the list"},
        "entries", "without a reducer each slip replaces `events`: which node wrote it last, and how many entries did "
        "that one slip hold?")


@exercise("07.Q4", kind="reasoning", title="the stubborn writer's path length")
def check_q4(answer: Any) -> str:
    _, path = walk(brief_graph(BriefNodes("stubborn", 3)).compile(max_steps=20), initial_state(["Tokyo", "Paris"]))
    return _number(answer, len(path), {
        9: "9 leaves out one node: after the last (revise, check) pair, hold runs too",
        7: "7 counts one check for all revisions: each revision is followed by its own check"}, "nodes",
        "count every node that runs: collect, write_draft, the first check_draft, then one (revise_draft, "
        "check_draft) pair per revision allowed, then the exit node")


def _smallest(finishes: Any) -> int:
    return next(bound for bound in range(1, 30) if finishes(bound))


def _ours_finishes(bound: int) -> bool:
    try:
        brief_graph(BriefNodes("complete", 2)).compile(max_steps=bound).invoke(initial_state(["Tokyo", "Paris"]))
    except GraphStepLimit:
        return False
    return True


@exercise("07.Q5", kind="reasoning", title="the smallest max_steps")
def check_q5(answer: Any) -> str:
    return _number(answer, _smallest(_ours_finishes), {
        5: "5 is LangGraph's count, which adds START's own superstep; our engine counts your nodes only",
        8: "8 is step_bound(2), the longest legal run; the complete writer passes the first check"}, "supersteps",
        "count the nodes on the complete writer's path from collect to its exit; our max_steps counts one "
        "superstep per node here, START not included")
