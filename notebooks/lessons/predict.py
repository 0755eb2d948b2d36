"""Predictions: the learner writes a guess in a cell, and the reveal cell sets it beside what happened."""

from __future__ import annotations

from typing import Any


def _show(value: Any) -> str:
    # A set's order changes from run to run (string hashing is salted); print it sorted, the same every time.
    if isinstance(value, (set, frozenset)):
        return "{" + ", ".join(sorted(map(repr, value))) + "}"
    return repr(value)


def reveal(guess: Any, actual: Any, what: str = "what happened", *, gated: bool = False) -> None:
    """Print the learner's written guess beside what the run did (``...`` means not written yet).

    ``gated``: what the run did shows only once the guess is right, so a saved notebook gives nothing away."""
    if gated and guess != actual:
        mine = "(not written yet)" if guess is ... else f"{_show(guess)} | not this time"
        print(f"your guess: {mine} | {what}: shown once your guess is right")
    elif guess is ...:
        print(f"your guess: (not written yet) | {what}: {_show(actual)}")
    else:
        verdict = "right" if guess == actual else "not this time"
        print(f"your guess: {_show(guess)} | {what}: {_show(actual)} | {verdict}")


__all__ = ["reveal"]
