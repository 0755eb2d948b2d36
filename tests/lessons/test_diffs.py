"""The edit counter notebook 03 uses to compare what each version of "ask a human" cost."""

from __future__ import annotations

import inspect

from lessons.diffs import ask_a_human_costs, cost, edit_costs, show_ask_a_human_costs, show_your_costs
from lessons.reference import reference


def test_cost_counts_places_and_lines_and_skips_the_def_line():
    before = "def f():\n    a = 1\n    b = 2\n    return a + b\n"
    assert cost(before, before.replace("def f", "def g")) == (0, 0)
    assert cost(before, before.replace("a = 1", "a = 10")) == (1, 1)
    assert cost(before, "def f():\n    a = 5\n    b = 2\n    c = 3\n    d = 4\n    return a + b\n") == (2, 3)


def test_the_card_edit_counts_the_new_card_whole_and_the_hand_over_line():
    ours = reference("03_state_cards")
    _, (places, lines) = edit_costs(ours.sticky_note_loop_with_human, ours.PlainRunningTools.run,
                                    ours.RunningToolsAskingHuman.run, ours.AskingHuman)
    run_places, run_lines = cost(*(inspect.getsource(f) for f in (ours.PlainRunningTools.run,
                                                                  ours.RunningToolsAskingHuman.run)))
    assert places == run_places + 2 and lines > run_lines + 5  # AskingHuman's lines and the hand-over line


def test_notebook_03_prints_our_count_and_the_card_edit_changes_fewer_places_of_old_code(capsys):
    show_ask_a_human_costs()
    (sticky_places, sticky_lines), (card_places, card_lines) = ask_a_human_costs()
    out = capsys.readouterr().out
    assert card_places - 2 < sticky_places  # the card edit's places in code that ran before it
    assert f"our edits, places changed in code that already ran: note {sticky_places}, cards {card_places - 2}" in out
    assert f"our edits, lines changed or added in all:           note {sticky_lines}, cards {card_lines}" in out


def test_the_learners_own_count_waits_for_written_code_then_counts_it_like_ours(capsys):
    def stub(*args):
        raise NotImplementedError  # your code here

    ours = reference("03_state_cards")
    show_your_costs(stub, ours.PlainRunningTools.run, stub, ours.AskingHuman)
    assert "not written yet" in capsys.readouterr().out
    show_your_costs(ours.sticky_note_loop_with_human, ours.PlainRunningTools.run, ours.RunningToolsAskingHuman.run,
                    ours.AskingHuman)
    (sticky_places, sticky_lines), (card_places, card_lines) = ask_a_human_costs()
    out = capsys.readouterr().out
    assert "not written yet" not in out
    assert f"your edits, places changed in code that already ran: note {sticky_places}, cards {card_places - 2}" in out
    assert f"your edits, lines changed or added in all:           note {sticky_lines}, cards {card_lines}" in out


def test_a_new_card_is_counted_by_its_fields_and_methods_like_its_whole_source():
    import inspect

    from lessons.diffs import _card_lines

    card = reference("03_state_cards").AskingHuman
    assert _card_lines(card) == len([line for line in inspect.getsource(card).splitlines() if line.strip()])
