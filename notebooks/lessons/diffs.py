"""How much an edit cost: the places and lines that changed between two pieces of source."""

from __future__ import annotations

import difflib


def cost(before: str, after: str) -> tuple[int, int]:
    """(places changed, lines changed) between two pieces of source; the def line itself is not counted.

    A place is a run of changed lines; a replaced run counts its longer side."""
    a, b = before.splitlines()[1:], after.splitlines()[1:]
    edits = [op for op in difflib.SequenceMatcher(a=a, b=b).get_opcodes() if op[0] != "equal"]
    return len(edits), sum(max(i2 - i1, j2 - j1) for _, i1, i2, j1, j2 in edits)


__all__ = ["cost"]
