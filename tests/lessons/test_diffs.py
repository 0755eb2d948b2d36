"""The edit counter notebook 03 uses to compare what each version of "ask a human" cost."""

from __future__ import annotations

import inspect

from lessons.diffs import ask_a_human_costs, cost, show_ask_a_human_costs


def test_cost_counts_places_and_lines_and_skips_the_def_line():
    before = "def f():\n    a = 1\n    b = 2\n    return a + b\n"
    assert cost(before, before.replace("def f", "def g")) == (0, 0)
    assert cost(before, before.replace("a = 1", "a = 10")) == (1, 1)
    assert cost(before, "def f():\n    a = 5\n    b = 2\n    c = 3\n    d = 4\n    return a + b\n") == (2, 3)


def test_the_ask_a_human_count_diffs_our_versions_against_the_code_before_the_edit():
    """Notebook 03 prints these without loading our versions itself; the errands card's edit stays in one place."""
    (sticky_places, sticky_lines), (card_places, card_lines), new_card = ask_a_human_costs()
    assert card_places == 1 and card_places + 1 < sticky_places
    assert card_lines + 1 + new_card > sticky_lines and new_card > 5


def test_notebook_03_prints_the_count_it_diffs(capsys):
    show_ask_a_human_costs()
    (sticky_places, sticky_lines), (card_places, card_lines), new_card = ask_a_human_costs()
    out = capsys.readouterr().out
    assert f"sticky note: {sticky_lines} lines changed in {sticky_places} places" in out
    assert f"cards:       {card_lines} lines in {card_places} place of RunningTools.run + a {new_card}-line" in out


def test_the_learners_own_count_waits_for_written_code_then_diffs_it(capsys):
    from lessons.diffs import show_your_costs
    from lessons.reference import reference

    def stub(*args):
        raise NotImplementedError  # your code here

    ours = reference("03_state_cards")
    show_your_costs(stub, ours.PlainRunningTools.run, stub, stub)
    assert capsys.readouterr().out.count("not written yet") == 2
    show_your_costs(ours.sticky_note_loop_with_human, ours.PlainRunningTools.run, ours.RunningToolsAskingHuman.run,
                    ours.AskingHuman.run)
    from lessons.sticky_note import sticky_note_loop

    card = cost(inspect.getsource(ours.PlainRunningTools.run), inspect.getsource(ours.RunningToolsAskingHuman.run))
    sticky = cost(inspect.getsource(sticky_note_loop), inspect.getsource(ours.sticky_note_loop_with_human))
    out = capsys.readouterr().out
    assert "not written yet" not in out and f"card edit: {card[1]} lines in {card[0]} place(s)" in out
    assert f"sticky-note edit: {sticky[1]} lines in {sticky[0]} place(s)" in out and sticky[0] > card[0] > 0
