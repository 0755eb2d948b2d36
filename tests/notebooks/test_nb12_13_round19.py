"""Reader r19f's fixes to notebooks 12 and 13 (13 since split into 13_capstone_agent and 14_capstone): a learner's
own 12 pieces paste into 13 and 14 and run; their texts name what the code does; 13's milestones check in the order
the notebook builds the agent."""

from __future__ import annotations

import builtins
import importlib.util
import inspect
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NB = ROOT / "notebooks"


def _solutions(name: str) -> types.ModuleType:
    spec = importlib.util.spec_from_file_location(f"sol_{name}", NB / "solutions" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _globals_used(obj: object) -> set[str]:
    """Every global name the code of a function or class (its methods too) reads."""
    codes = [obj.__code__] if inspect.isfunction(obj) else [
        f.__code__ for f in vars(obj).values() if inspect.isfunction(f)]
    names: set[str] = set()
    while codes:
        code = codes.pop()
        names |= set(code.co_names)
        codes += [c for c in code.co_consts if isinstance(c, types.CodeType)]
    if inspect.isclass(obj):
        names |= {base.__name__ for base in obj.__bases__ if base is not object}
    return names


def _first_cells_namespace(upto: str, stem: str = "13_capstone_agent") -> dict:
    """Run a notebook's code cells until the one containing ``upto`` (not included), as the kernel would."""
    text = (NB / f"{stem}.py").read_text(encoding="utf-8")
    cells = [c for c in text.split("\n# %%") if not c.lstrip().startswith("[markdown]")]
    namespace: dict = {"__name__": "__main__"}
    for cell in cells:
        if upto in cell:
            return namespace
        exec(compile(cell.removeprefix(" %%"), stem, "exec"), namespace)
    raise AssertionError(f"no cell with {upto!r}")


def test_names_of_12s_answers_are_defined_before_13_1(monkeypatch):
    monkeypatch.chdir(NB)
    monkeypatch.syspath_prepend(str(NB))
    sol = _solutions("12_capstone_pieces")
    used = set()
    for id in ("12.1", "12.2", "12.3", "12.4"):
        used |= {n for n in _globals_used(sol.SOLUTIONS[id]) if n in vars(sol)}
    used |= {"Observer", "ToolArgsError", "Send"}  # what the reader's own pieces used
    namespace = _first_cells_namespace("class PriceAgent:")
    missing = sorted(n for n in used if n not in namespace and not hasattr(builtins, n))
    assert not missing, f"13 lacks {missing} before 13.1: pasted 12 pieces would raise NameError"


def test_names_of_12s_and_13s_answers_are_defined_before_14_1(monkeypatch):
    """14 says: paste your PriceAgent from 13 (with its PriceState and your 12 pieces) to use it instead."""
    monkeypatch.chdir(NB)
    monkeypatch.syspath_prepend(str(NB))
    used = {"Observer", "ToolArgsError", "Send"}
    for stem, ids in (("12_capstone_pieces", ("12.1", "12.2", "12.3", "12.4")), ("13_capstone_agent", ("13.3",))):
        sol = _solutions(stem)
        for id in ids:
            used |= {n for n in _globals_used(sol.SOLUTIONS[id]) if n in vars(sol)}
    used |= {n for n in _globals_used(_solutions("13_capstone_agent").PriceState) if n != "TypedDict"}
    used |= {"operator", "Annotated", "TypedDict"}  # what PriceState's own lines name
    used -= {"PriceState", "BUDGET_SPENT"}  # the paste defines these itself
    namespace = _first_cells_namespace("class StopRepeats(", "14_capstone")
    missing = sorted(n for n in used if n not in namespace and not hasattr(builtins, n))
    assert not missing, f"14 lacks {missing} before 14.1: a pasted PriceAgent would raise NameError"


def _verdict(ex: str, answer: object):
    from lessons.exercises import verdict
    return verdict(ex, answer)


def test_13s_milestones_check_in_the_suggested_order(monkeypatch):
    """A learner at "the ceiling" step (no ceiling, no hooks yet) has passed 13.1 and hears about the ceiling in
    13.2, not the hooks; hooks come up only in 13.3."""
    monkeypatch.syspath_prepend(str(NB))
    sol = _solutions("13_capstone_agent")

    class NoCeilingNoHooks(sol.NoCeilingAgent):
        def tell(self, hook, *args):
            pass

    class OnlyNoHooks(sol.PriceAgent):
        def tell(self, hook, *args):
            pass

    class ErrandStub(sol.PriceAgent):
        def run_errand(self, packet):
            raise NotImplementedError

    class LoopOnly(OnlyNoHooks):
        def give_up(self, state):
            raise NotImplementedError

    assert _verdict("13.1", LoopOnly).passed and not _verdict("13.2", LoopOnly).passed
    assert "give_up is still a stub" in _verdict("13.2", LoopOnly).message
    assert "ceiling" in _verdict("13.2", NoCeilingNoHooks).message
    assert _verdict("13.2", OnlyNoHooks).passed
    assert "listeners" in _verdict("13.3", OnlyNoHooks).message
    assert "run_errand is still a stub" in _verdict("13.1", ErrandStub).message


SHOUT_TASK = '''
from mingraph_lite import ScriptedLLM, ToolRegistry

def shout(word: str) -> str:
    """Shout a word."""
    return word.upper() + "!"

TOOLS = ToolRegistry()
TOOLS.add(shout)
SYSTEM_PROMPT = "You shout words."
QUESTION = "Shout hello, please."

def SCRIPTED():
    return ScriptedLLM([[("shout", {"word": "hello"})], lambda messages, tools: messages[-1].content],
                       name="scripted: shouter")
'''


def test_what_14_says_a_task_file_defines_is_what_task_reads(tmp_path, monkeypatch):
    from mingraph_lite import cli

    text = (NB / "14_capstone.py").read_text(encoding="utf-8")
    named = ("TOOLS", "SYSTEM_PROMPT", "QUESTION", "SCRIPTED")
    assert all(f"`{name}`" in text for name in named)
    task = tmp_path / "task.py"
    task.write_text("TOOLS = SYSTEM_PROMPT = QUESTION = SCRIPTED = 1\n", encoding="utf-8")
    assert cli._task(str(task), False) == (1, 1, 1, 1)  # the four names suffice
    for name in named:  # and each is needed
        task.write_text("\n".join(f"{n} = 1" for n in named if n != name) + "\n", encoding="utf-8")
        try:
            cli._task(str(task), False)
        except ValueError as e:
            assert f"does not define {name}" in str(e)
        else:
            raise AssertionError(f"a task file without {name} loaded")
    assert cli._task(str(NB / "lessons" / "capstone.py"), False)[2].startswith("What does a coffee cost")


def test_agent_log_and_window_work_unchanged_on_another_task(tmp_path, monkeypatch):
    """14's claim: notebook 13's PriceAgent, with 12's PriceLog and window, runs any task file unchanged."""
    import json

    from mingraph_lite import cli
    monkeypatch.syspath_prepend(str(NB))
    task = tmp_path / "shout_task.py"
    task.write_text(SHOUT_TASK, encoding="utf-8")
    tools, system_prompt, question, scripted = cli._task(str(task), False)
    PriceLog = _solutions("12_capstone_pieces").SOLUTIONS["12.3"]
    agent = _solutions("13_capstone_agent").PriceAgent(scripted(), tools, system_prompt,
                                                       observers=[PriceLog(tmp_path / "log.jsonl")], window=2)
    assert agent.run({"question": question}) == {"answer": "HELLO!", "reason": "answered"}
    lines = [json.loads(line) for line in (tmp_path / "log.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(lines) == 2 and lines[-1]["reason"] == "answered"


def test_12_names_no_helper_of_last_n_and_shows_the_graph_before_12_4():
    text = (NB / "12_capstone_pieces.py").read_text(encoding="utf-8")
    assert "safe_start" not in text  # naming it sends a learner to the answer's three lines
    before = text[:text.index("### Exercise 12.4")] + text[text.index("### Exercise 12.4"):text.index("def route")]
    assert 'Send("errand", ...)' in before and "give_up -> END" in before
    for rule in ("one line per `ToolMessage`", "one line per finish", "append per line", "reset per run"):
        assert rule in text
