"""Claims that round 13's fixes added to notebooks 01, 11 and 13, each run here so that it fails if it is false."""

import pytest

from lessons.capstone import to_usd
from lessons.exercises import verdict
from lessons.exercises.nb01 import SCHEMA_CASES
from mingraph_lite import Agent, ScriptedLLM, ToolArgsError, ToolRegistry
from mingraph_lite.tools import Tool


def test_the_registry_writes_additional_properties_false_and_no_description_for_an_undocumented_argument():
    """01.1's task: "An argument with no Args: line gets no description; additionalProperties is optional"."""
    specs = [Tool.from_function(fn).spec["function"]["parameters"] for fn in SCHEMA_CASES]
    assert all(spec["additionalProperties"] is False for spec in specs)
    assert any("description" not in prop for spec in specs for prop in spec["properties"].values())


def test_14_2_accepts_the_currency_in_any_case_as_to_usd_does():
    """Was 13.3 in round 13; notebook 14 since the capstone was split."""
    assert verdict("14.2", ("to_usd", {"amount": 1.3, "currency": "eur"})).passed
    assert to_usd(1.3, "eur") == to_usd(1.3, "EUR")


def test_11_a_raising_tool_ends_the_run_and_only_a_bad_argument_is_answered():
    """11, Part 1: "A tool that raises ends the run; only a bad argument (ToolArgsError) is answered"."""

    def broken(city: str) -> str:
        """Break.

        Args:
            city: Any city.
        """
        raise ConnectionError("down")

    def picky(city: str) -> str:
        """Refuse.

        Args:
            city: Any city.
        """
        raise ToolArgsError("no such city")

    for tool, ends in ((broken, True), (picky, False)):
        registry = ToolRegistry()
        registry.add(tool)
        llm = ScriptedLLM([[(tool.__name__, {"city": "X"})], "done"], name="scripted: one errand")
        if ends:
            with pytest.raises(ConnectionError):
                Agent(llm, registry, "You help.").run({"question": "?"})
        else:
            assert Agent(llm, registry, "You help.").run({"question": "?"})["answer"] == "done"
