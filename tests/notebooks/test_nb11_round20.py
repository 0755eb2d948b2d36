"""Round 20's reader fixes for notebook 11: what question 2 points to is there, its hint keeps the answer back, and
11.2's check follows MAX_REPLANS without leaving it changed."""

from __future__ import annotations

from pathlib import Path

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "11_helpers_and_plans.py"


def test_q2_points_to_a_docstring_that_names_the_error_of_an_empty_task():
    import mingraph_lite.subagents as subagents

    assert "empty task is a ``ToolArgsError``" in subagents.__doc__
    said = NOTEBOOK.read_text()
    assert "`mingraph_lite.subagents`'s docstring names the error" in said
    assert "only a bad argument\n# (`ToolArgsError`) is answered" in said  # Part 1's rule the question leans on


def test_q2_wrong_answers_get_a_hint_that_does_not_give_the_answer():
    from lessons.exercises import verdict

    for wrong in ("A", "C"):
        message = verdict("11.Q2", wrong).message
        assert "docstring" in message
        assert not any(giveaway in message for giveaway in ("answered, not raised", "never called", '"B"', "B:"))


def test_the_router_check_sets_max_replans_for_a_run_and_puts_it_back():
    from lessons.exercises import verdict

    space: dict = {"MAX_REPLANS": 1}
    exec("def route(state):\n"
         "    if state['failed']:\n"
         "        return 'replan' if state['replans'] < MAX_REPLANS else 'give up'\n"
         "    return 'next' if state['done'] < len(state['plan']) else 'done'\n", space)
    assert verdict("11.2", space["route"]).status == "passed"
    assert space["MAX_REPLANS"] == 1
    frozen: dict = {"MAX_REPLANS": 1}
    exec("def route(state, budget=MAX_REPLANS):\n"
         "    if state['failed']:\n"
         "        return 'replan' if state['replans'] < budget else 'give up'\n"
         "    return 'next' if state['done'] < len(state['plan']) else 'done'\n", frozen)
    result = verdict("11.2", frozen["route"])
    assert result.status == "not yet" and "MAX_REPLANS itself" in result.message
    assert frozen["MAX_REPLANS"] == 1
