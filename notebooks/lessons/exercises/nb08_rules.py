"""Notebook 08's exercise 08.2, the two rules of ``run_supersteps`` it keeps: nodes of a superstep read the same
worksheet, and two writes to one plain field in a superstep are refused."""

from __future__ import annotations

import operator
from typing import Any

from mingraph_lite.graph import END, START
from . import Hint
from .nb08 import _run_loop


def check_kept_rules(run: Any) -> None:
    """The two rules of run_supersteps the exercise keeps: nodes of a superstep read the same worksheet, and two
    writes to one plain field in a superstep are refused (round 16's reader passed without either)."""
    def sees(name: str) -> Any:
        return lambda state: {"log": [name], f"{name}_saw": list(state["log"])}

    same = {"nodes": {"a": sees("a"), "b": sees("b")}, "edges": {START: ["a", "b"], "a": [END], "b": [END]},
            "routers": {}, "joins": {}, "reducers": {"log": operator.add}, "max_steps": 3}
    state, _ = _run_loop(run, same, {"log": []})
    if state.get("a_saw") != [] or state.get("b_saw") != []:
        raise Hint(f"a and b start together, yet one saw the other's write (a saw {state.get('a_saw')}, b saw "
                   f"{state.get('b_saw')}): run every node of a superstep on its own copy of the same worksheet, "
                   "and merge only after all of them ran, as run_supersteps does")
    plain = {"nodes": {"a": lambda state: {"x": 1}, "b": lambda state: {"x": 2}},
             "edges": {START: ["a", "b"], "a": [END], "b": [END]}, "routers": {}, "joins": {}, "reducers": {},
             "max_steps": 3}
    try:
        run(plain, {"x": 0})
    except NotImplementedError:
        raise
    except ValueError:
        return
    except Exception:  # another error: the hint below says which one run_supersteps raises
        pass
    raise Hint("a and b both wrote the plain field 'x' in one superstep and your loop kept one of them: refuse it "
               "with ValueError, as run_supersteps does (a field with no reducer takes one write a superstep)")
