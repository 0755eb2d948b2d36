"""How much an edit cost: the places and lines that changed between two pieces of source."""

from __future__ import annotations

import difflib
import inspect


def cost(before: str, after: str) -> tuple[int, int]:
    """(places changed, lines changed) between two pieces of source; the def line itself is not counted.

    A place is a run of changed lines; a replaced run counts its longer side."""
    a, b = before.splitlines()[1:], after.splitlines()[1:]
    edits = [op for op in difflib.SequenceMatcher(a=a, b=b).get_opcodes() if op[0] != "equal"]
    return len(edits), sum(max(i2 - i1, j2 - j1) for _, i1, i2, j1, j2 in edits)


def ask_a_human_costs() -> tuple[tuple[int, int], tuple[int, int], int]:
    """Notebook 03's count, on our own versions, unprinted: (places, lines) the sticky note's edit changed,
    (places, lines) the errands card's edit changed, and the new AskingHuman card's length in lines."""
    from lessons.reference import reference
    from lessons.sticky_note import sticky_note_loop

    ours = reference("03_state_cards")
    return (cost(_code(sticky_note_loop), _code(ours.sticky_note_loop_with_human)),
            cost(_code(ours.PlainRunningTools.run), _code(ours.RunningToolsAskingHuman.run)),
            len(_code(ours.AskingHuman).splitlines()))


def show_ask_a_human_costs() -> None:
    """Print notebook 03's count, and check what its prose says of it: fewer places, more lines for the cards."""
    sticky, errands, new_card = ask_a_human_costs()
    print(f"sticky note: {sticky[1]} lines changed in {sticky[0]} places of the one function every situation runs")
    print(f"cards:       {errands[1]} lines in {errands[0]} place of RunningTools.run + a {new_card}-line new card"
          " + 1 hand-over line")
    assert errands[0] + 1 < sticky[0]  # fewer places: RunningTools' and the hand-over line, against the note's
    assert errands[1] + 1 + new_card > sticky[1]  # more lines: those and the whole new card, against the note's


def _code(thing: object) -> str:
    """Its source without the docstring every reference answer carries for the copy check: not part of the edit."""
    return "".join(line for line in inspect.getsource(thing).splitlines(keepends=True)
                   if not line.strip().startswith('"""The notebook\'s own answer to'))


__all__ = ["ask_a_human_costs", "cost", "show_ask_a_human_costs"]


def show_your_costs(loop: object, plain_run: object, errands_run: object, asking_run: object) -> None:
    """Notebook 03's count on the learner's own 03.2 and 03.3, or "not written yet" for a stub."""
    from lessons.sticky_note import sticky_note_loop

    def written(thing: object) -> bool:
        return "raise NotImplementedError" not in inspect.getsource(thing)

    if written(errands_run) and written(asking_run):
        places, lines = cost(inspect.getsource(plain_run), inspect.getsource(errands_run))
        print(f"your card edit: {lines} lines in {places} place(s) + AskingHuman, whose run is "
              f"{len(inspect.getsource(asking_run).splitlines())} lines")
    else:
        print("03.3 not written yet: your card edit is counted once it is")
    if written(loop):
        places, lines = cost(inspect.getsource(sticky_note_loop), inspect.getsource(loop))
        print(f"your sticky-note edit: {lines} lines in {places} place(s) of the one function every situation runs")
    else:
        print("03.2 not written yet: your sticky-note edit is counted once it is")
