"""What round 14's reader found in notebook 10 stays fixed (issue 21): 10.Q4's hint states the summariser runs the
run shows, the answer key agrees with the run, a summary can lose the question, and 10.3 is a token-budget window."""

from __future__ import annotations

from pathlib import Path

from lessons.conversation import run_conversation, summariser_llm
from lessons.exercises import verdict
from lessons.exercises.nb10 import _lost, _summarise_run
from lessons.exercises.nb10_budget import right_window, words
from lessons.reference import reference
from mingraph_lite import AssistantMessage, Summarise, ToolCall, ToolMessage, UserMessage
from mingraph_lite.course.scripts import SYSTEM_PROMPT

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "10_memory_and_cost.py"


def test_q4_hint_and_answer_key_state_the_runs_own_summariser_runs_and_tokens():
    two, four = _summarise_run(2), _summarise_run(4)
    assert two.total_tokens < four.total_tokens and len(two.summary_calls) < len(four.summary_calls)
    hint = verdict("10.Q4", "keep_last=4").message
    assert f"fewer summariser runs ({len(two.summary_calls)} against {len(four.summary_calls)}" in hint
    assert f"{two.summary_tokens} summary tokens against {four.summary_tokens}" in hint
    key = reference("10_memory_and_cost").QUESTIONS["10.Q4"]
    assert f"runs {len(two.summary_calls)} times instead of {len(four.summary_calls)}" in key
    assert f"{two.total_tokens:,} tokens against {four.total_tokens:,}" in key
    lost = _lost(two)
    assert lost and f"questions {lost[0]} and {lost[1]}" in key


def test_a_summary_can_lose_a_question_with_settings_other_than_q4s():
    tight = run_conversation(Summarise(SYSTEM_PROMPT, summariser_llm(), keep_last=1, trigger=7))
    assert _lost(tight)
    assert "keep_last=1, trigger=7" in NOTEBOOK.read_text(encoding="utf-8")


def test_10_2_one_too_many_names_both_causes_and_10_1_names_a_missing_floor():
    """The answers themselves are checked in test_exercises (WRONG); here, that they are there, with these hints."""
    wrong = reference("10_memory_and_cost").WRONG
    hints = {getattr(answer, "__name__", None): hint for ex in ("10.1", "10.2") for answer, hint in wrong[ex]}
    assert hints["smallest_n_counting_the_asking_reply"] == "counts the reply that asked for the first slip"
    assert hints["smallest_n_counting_the_answer"] == "counts the final answer"
    assert hints["NegativeStart"] == "messages so far" and hints["BacksOneStep"] == "asked for more than one tool"


def test_the_budget_window_drops_orphan_slips_keeps_an_exact_fit_and_may_be_empty():
    calls = (ToolCall("a", "get_weather", {"city": "Paris"}), ToolCall("b", "get_weather", {"city": "Oslo"}))
    history = [UserMessage("Paris and Oslo?"), AssistantMessage("", tool_calls=calls),
               ToolMessage("18 C", tool_call_id="a", name="get_weather"),
               ToolMessage("9 C", tool_call_id="b", name="get_weather"), AssistantMessage("Paris 18, Oslo 9.")]
    assert right_window(history, 6, words) == history[-1:]  # one slip fits, its request does not: dropped
    assert right_window(history, 8, words) == history[1:]  # an exact fit: 0 + 2 + 2 + 4 words
    assert right_window(history, 3, words) == []  # less than the last message: nothing but the system prompt
