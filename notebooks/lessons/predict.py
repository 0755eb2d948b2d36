"""Predictions: the learner writes a guess in a cell, and the reveal cell sets it beside what happened."""

from __future__ import annotations

from typing import Any, Callable


def _show(value: Any) -> str:
    # A set's order changes from run to run (string hashing is salted); print it sorted, the same every time.
    if isinstance(value, (set, frozenset)):
        return "{" + ", ".join(sorted(map(repr, value))) + "}"
    return repr(value)


def reveal(guess: Any, actual: Any, what: str = "what happened", *, gated: bool = False, hint: str = "") -> None:
    """Print the learner's written guess beside what the run did (``...``, or None where the run's is not None, means
    not written yet: never "not this time" for a guess nobody entered).

    ``gated``: what the run did shows only once the guess is right, so a saved notebook gives nothing away.
    ``hint``: one line printed after a written guess that is wrong."""
    if guess is None and actual is not None:
        guess = ...
    if gated and guess != actual:
        mine = "(not written yet)" if guess is ... else f"{_show(guess)} | not this time"
        print(f"your guess: {mine} | {what}: shown once your guess is right")
        if hint and guess is not ...:
            print(f"hint: {hint}")
    elif guess is ...:
        print(f"your guess: (not written yet) | {what}: {_show(actual)}")
    else:
        verdict = "right" if guess == actual else "not this time"
        print(f"your guess: {_show(guess)} | {what}: {_show(actual)} | {verdict}")
        if hint and guess != actual:
            print(f"hint: {hint}")


def ending(call: Callable[..., Any], *args: Any, **kwargs: Any) -> str:
    """How ``call(*args, **kwargs)`` ended: "answer" when it returned, else the name of the exception it raised."""
    try:
        call(*args, **kwargs)
    except Exception as e:  # the name is the outcome a prediction asks for
        return type(e).__name__
    return "answer"


__all__ = ["ending", "reveal"]
