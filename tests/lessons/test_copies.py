"""An answer pasted from the notebook's own version (``inspect.getsource`` of a reference, ``??`` in Jupyter) is
refused: readers passed 03.1 to 03.3, 06.1 and 13.1 that way. An answer the learner wrote is not, even in the
notebook's own words (round 12: 01.3, 01.4 and 02.1 were refused as copies), and a wrong one gets its hint."""

import ast
import inspect
import sys
import textwrap

import pytest

from lessons.copies import copies_reference
from lessons.exercises import COPIED, EXERCISES, verdict
from lessons.reference import reference


def pasted(exercise):
    """The reference answer's source, compiled again in a namespace of its own, as a learner's cell would."""
    answer = reference(exercise)
    parts = answer if isinstance(answer, tuple) else (answer,)
    namespace = dict(vars(sys.modules[parts[0].__module__]), __name__="__main__")
    for original in parts:
        exec(compile(inspect.getsource(original), "<ipython-input-1>", "exec"), namespace)
    copies = tuple(namespace[original.__name__] for original in parts)
    return copies if isinstance(answer, tuple) else copies[0]


def written(exercise, source, name, edit=lambda tree: tree, pasted_first=()):
    """``source`` compiled in a learner's cell (the reference module's names at hand, those in ``pasted_first``
    compiled there as the notebook's cells do), after ``edit`` of its tree."""
    module = sys.modules[reference(exercise).__module__]
    namespace = dict(vars(module), __name__="__main__")
    for earlier in pasted_first:
        exec(compile(inspect.getsource(getattr(module, earlier)), "<ipython-input-1>", "exec"), namespace)
    tree = edit(ast.parse(textwrap.dedent(source)))
    exec(compile(ast.fix_missing_locations(tree), "<ipython-input-2>", "exec"), namespace)
    return namespace[name]


def renamed(names):
    class Rename(ast.NodeTransformer):
        def visit_Name(self, node):
            node.id = names.get(node.id, node.id)
            return node

        def visit_arg(self, node):
            node.arg = names.get(node.arg, node.arg)
            return node

    return Rename().visit


# 02.1 is not here: its answer is four lines everybody writes alike (round 12's reader wrote the reference's own)
@pytest.mark.parametrize("exercise", ["01.4", "03.1", "03.2", "04.3", "06.1", "08.2", "10.1", "13.1"])
def test_a_pasted_copy_of_the_notebooks_own_version_is_refused(exercise):
    result = verdict(exercise, pasted(exercise))
    assert result.status == "not yet" and result.message == COPIED, str(result)


def test_a_pasted_copy_with_comments_blank_lines_and_local_names_changed_is_still_refused():
    source = inspect.getsource(reference("07.2"))
    lines = source.splitlines()
    edited = "\n".join([lines[0], "    # my own engine", "", *(line + "  # step" for line in lines[1:])])
    assert "# my own engine" in edited
    for exercise, text, name in [("07.2", edited, "run"),
                                 ("07.1", inspect.getsource(reference("07.1")), "route_after_check")]:
        copy = written(exercise, text, name, renamed({"state": "s", "review": "r", "node": "at", "steps": "n"}))
        result = verdict(exercise, copy)
        assert result.status == "not yet" and result.message == COPIED, (exercise, str(result))


def without_docstrings(tree):
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(node, ast.FunctionDef | ast.ClassDef) and ast.get_docstring(node) is not None:
            node.body = body[1:] or [ast.Pass()]
    return tree


@pytest.mark.parametrize("exercise", ["03.2", "13.1"])
def test_a_long_reference_pasted_with_its_docstrings_deleted_is_still_refused(exercise):
    # round 15's reader passed 13.1 and 13.2 so: getsource, delete the docstring, paste
    source = inspect.getsource(reference(exercise))
    assert any(ast.get_docstring(node) for node in ast.walk(ast.parse(textwrap.dedent(source)))
               if isinstance(node, ast.FunctionDef | ast.ClassDef))
    copy = written(exercise, source, reference(exercise).__name__, without_docstrings)
    result = verdict(exercise, copy)
    assert result.status == "not yet" and result.message == COPIED, str(result)


def test_a_short_reference_without_its_docstring_is_not_looked_for():
    # a known limit, kept on purpose: 01.4's 12 lines were written word for word by round 12's reader
    source = inspect.getsource(reference("01.4"))
    copy = written("01.4", source, reference("01.4").__name__, without_docstrings)
    assert verdict("01.4", copy).status == "passed"


# round 12's readers' own answers, which the old fingerprint (names, variables, constants) called copies
OWN_01_3 = """
def one_city_at_a_time():
    return ScriptedLLM([
        [("get_weather", {"city": "Paris"})],
        [("get_weather", {"city": "Tokyo"})],
        [("to_fahrenheit", {"celsius": 18}), ("to_fahrenheit", {"celsius": 24})],
        "Paris: 64°F, Tokyo: 75°F",
    ], name="scripted: one city at a time")
"""
OWN_01_4 = """
def errand_budget_loop(llm, registry, system_prompt, question, *, max_tool_calls=6):
    folder = [SystemMessage(system_prompt), UserMessage(question)]
    errands = calls = 0
    while True:
        response = llm.generate(folder, registry.tools)
        calls += 1
        folder.append(response.message)
        if not response.message.tool_calls:
            return response.message.content
        for slip in response.message.tool_calls:
            if errands == max_tool_calls:
                raise StepLimitReached(f"errand budget of {max_tool_calls} spent after {calls} model calls",
                                       steps=calls)  # one line in the reader's, too long for ruff here
            folder.append(registry.run(slip))
            errands += 1
"""
OWN_02_1 = """
class FixedAgent(NaiveAgent):
    def __init__(self, llm, registry, system_prompt, memory=None):
        if memory is None:
            memory = KeepAll(system_prompt)
        super().__init__(llm, registry, system_prompt, memory)
"""
OWN_04_3 = """
class ToolLedger(Observer):
    def __init__(self):
        self.asked = {}
        self.results = {}

    def on_model_reply(self, response):
        for call in response.message.tool_calls:
            self.asked[call.name] = self.asked.get(call.name, 0) + 1

    def on_tool_return(self, result):
        if not result.is_error:
            self.results[result.name] = self.results.get(result.name, 0) + 1
"""
OFF_BY_ONE_01_4 = """
def wrong_offby1(llm, registry, system_prompt, question, *, max_tool_calls=6):
    folder = [SystemMessage(system_prompt), UserMessage(question)]
    errands = calls = 0
    while True:
        response = llm.generate(folder, registry.tools); calls += 1
        folder.append(response.message)
        if not response.message.tool_calls:
            return response.message.content
        for slip in response.message.tool_calls:
            errands += 1
            if errands >= max_tool_calls:
                raise StepLimitReached("budget", steps=calls)
            folder.append(registry.run(slip))
"""


@pytest.mark.parametrize(("exercise", "source", "name"), [("01.3", OWN_01_3, "one_city_at_a_time"),
                                                          ("01.4", OWN_01_4, "errand_budget_loop"),
                                                          ("02.1", OWN_02_1, "FixedAgent"),
                                                          # round 13: the reference's code word for word, bar its
                                                          # comments and docstring: not a copy
                                                          ("04.3", OWN_04_3, "ToolLedger")])
def test_the_readers_own_answers_in_the_notebooks_words_pass(exercise, source, name):
    result = verdict(exercise, written(exercise, source, name, pasted_first=["NaiveAgent"] * (exercise == "02.1")))
    assert result.passed, str(result)


def test_a_wrong_answer_gets_its_hint_even_in_the_notebooks_words():
    result = verdict("01.4", written("01.4", OFF_BY_ONE_01_4, "wrong_offby1"))
    assert result.status == "not yet" and result.message != COPIED, str(result)
    assert "exactly max_tool_calls" in result.message, str(result)
    # the same loop with the reference's own first line, too: the check runs before the copy test
    same_start = OFF_BY_ONE_01_4.replace("folder = [SystemMessage(system_prompt), UserMessage(question)]\n    "
                                         "errands = calls = 0", "folder, errands, calls = "
                                         "[SystemMessage(system_prompt), UserMessage(question)], 0, 0")
    assert "folder, errands, calls" in same_start
    assert "exactly max_tool_calls" in verdict("01.4", written("01.4", same_start, "wrong_offby1")).message


def test_code_of_ones_own_is_not_a_copy_and_the_solutions_file_itself_is_not_either():
    def schema_of(fn):  # a wrong answer, but the learner's own: it gets the check's hint, not "copied"
        return {"type": "function", "function": {"name": fn.__name__}}

    assert not copies_reference("01.1", schema_of)
    assert "copied" not in verdict("01.1", schema_of).message
    # the course's own tests run the reference answers from the solutions file: that is the file, not a copy
    solved = {ex: reference(ex) for ex in EXERCISES if not ex.split(".")[1].startswith("Q")}
    assert not any(copies_reference(ex, answer) for ex, answer in solved.items() if callable(answer))


def test_the_solutions_file_run_from_a_relative_path_is_still_the_file(monkeypatch):
    import runpy

    from lessons.reference import SOLUTIONS

    monkeypatch.chdir(SOLUTIONS.parent)
    solved = runpy.run_path("solutions/12_capstone_pieces.py")  # co_filename is relative here
    assert not copies_reference("12.3", solved["SOLUTIONS"]["12.3"])
