"""How much an edit cost: the places and lines that changed between two pieces of source."""

from __future__ import annotations

import dataclasses
import difflib
import inspect


def cost(before: str, after: str) -> tuple[int, int]:
    """(places changed, lines changed) between two pieces of source; the def line itself is not counted.

    A place is a run of changed lines; a replaced run counts its longer side."""
    a, b = before.splitlines()[1:], after.splitlines()[1:]
    edits = [op for op in difflib.SequenceMatcher(a=a, b=b).get_opcodes() if op[0] != "equal"]
    return len(edits), sum(max(i2 - i1, j2 - j1) for _, i1, i2, j1, j2 in edits)


def edit_costs(loop: object, plain_run: object, errands_run: object, asking_card: object) -> tuple[tuple[int, int], ...]:
    """(places, lines) of the sticky-note edit, and of the card edit, both counted by ``cost``. The card edit is
    the errands card's changed runs, plus the new card whole (one place) and the hand-over line (one place: the
    line that makes CallingModel hand slips to the new errands card)."""
    from lessons.sticky_note import sticky_note_loop

    places, lines = cost(_code(plain_run), _code(errands_run))
    return cost(_code(sticky_note_loop), _code(loop)), (places + 2, lines + _card_lines(asking_card) + 1)


def _card_lines(card: type) -> int:
    """A new card's length: its decorator and class lines, one per field, and its own methods' source (a class's
    own source cannot be read in a notebook; the methods dataclass writes have none and do not count)."""
    made = ("<string>", dataclasses.__file__)  # where dataclass writes its methods and its __repr__'s wrapper
    methods = [m for m in vars(card).values() if inspect.isfunction(m) and m.__code__.co_filename not in made]
    return 2 + len(getattr(card, "__dataclass_fields__", {})) + sum(len(_code(m).splitlines()) for m in methods)


def ask_a_human_costs() -> tuple[tuple[int, int], ...]:
    """Notebook 03's count on our own versions of 03.2 and 03.3, unprinted."""
    from lessons.reference import reference

    ours = reference("03_state_cards")
    return edit_costs(ours.sticky_note_loop_with_human, ours.PlainRunningTools.run, ours.RunningToolsAskingHuman.run,
                      ours.AskingHuman)


def _print_costs(whose: str, sticky: tuple[int, int], cards: tuple[int, int]) -> None:
    """The count the claim rests on first (places in code that already ran), then new code, then all lines."""
    print(f"{whose} edits, places changed in code that already ran: note {sticky[0]}, cards {cards[0] - 2}")
    print(f"{whose} edits, new code only the new situation runs:   note 0, cards 2 (AskingHuman, the hand-over line)")
    print(f"{whose} edits, lines changed or added in all:           note {sticky[1]}, cards {cards[1]}")


def show_ask_a_human_costs() -> None:
    """Print notebook 03's count on our versions, and check what its prose says of it: the card edit changes fewer
    places of code that ran before it (the rest is new). The lines may go either way, so nothing is claimed of them."""
    sticky, cards = ask_a_human_costs()
    _print_costs("our", sticky, cards)
    assert cards[0] - 2 == 1 < sticky[0]  # one place of the errands card's rules, against the note's


def _code(thing: object) -> str:
    """Its source without the docstring every reference answer carries for the copy check: not part of the edit."""
    return "".join(line for line in inspect.getsource(thing).splitlines(keepends=True)
                   if not line.strip().startswith('"""The notebook\'s own answer to'))


def show_your_costs(loop: object, plain_run: object, errands_run: object, asking_card: object) -> None:
    """Notebook 03's count on the learner's own 03.2 and 03.3, the same way as ours, or "not written yet"."""
    written = ["raise NotImplementedError" not in inspect.getsource(t) for t in (loop, errands_run, asking_card.run)]
    if all(written):
        _print_costs("your", *edit_costs(loop, plain_run, errands_run, asking_card))
    else:
        print(f"{'03.2' if not written[0] else '03.3'} not written yet: your edits are counted once both are")


__all__ = ["ask_a_human_costs", "cost", "edit_costs", "show_ask_a_human_costs", "show_your_costs"]
