"""The notebook's own version of an exercise comes from the solutions file, unprinted."""

import pytest

from lessons.exercises import verdict
from lessons.reference import reference


def test_a_reference_is_the_solutions_files_own_answer():
    import runpy

    from lessons.reference import SOLUTIONS

    (path,) = SOLUTIONS.glob("07_*.py")
    assert reference("07.2").__code__.co_code == runpy.run_path(str(path))["SOLUTIONS"]["07.2"].__code__.co_code


def test_an_unknown_exercise_or_notebook_is_named():
    with pytest.raises(KeyError, match="01.99"):
        reference("01.99")
    with pytest.raises(LookupError, match="77_"):
        reference("77.1")


def test_a_check_refuses_the_notebooks_own_version_handed_in_as_the_answer():
    for ex in ("01.1", "07.2"):
        result = verdict(ex, reference(ex))
        assert result.status == "not yet" and "notebook's own version" in result.message, str(result)


def test_a_check_refuses_an_answer_that_only_wraps_the_notebooks_own_version():
    own = reference("01.4")

    def mine(*args, **kwargs):
        return own(*args, **kwargs)

    result = verdict("01.4", mine)
    assert result.status == "not yet" and "notebook's own version" in result.message, str(result)
    assert verdict("01.Q5", 6).passed  # a checker may run the reference itself when the answer is a plain value


def test_an_answer_without_a_module_name_is_judged_not_crashed():
    namespace = {}
    exec("def mine(): pass", namespace)  # no __name__ in its globals: mine.__module__ is None
    assert namespace["mine"].__module__ is None
    from lessons.reference import is_reference

    assert not is_reference(namespace["mine"])


def test_a_value_taken_from_a_loaded_reference_module_is_refused_too():
    """A reader passed 03.4 with `ours.WHO_FIXES`, a dict from the module the notebook loads for later cells (that
    exercise is gone; 03.Q3's dict answer takes its place here)."""
    ours = reference("03_state_cards")
    result = verdict("03.Q3", ours.Q3_ANSWER)
    assert result.status == "not yet" and "notebook's own version" in result.message, str(result)
    assert verdict("03.Q3", dict(ours.Q3_ANSWER)).passed  # the same answer written out is the learner's to give


def test_a_later_exercise_may_run_the_earlier_ones_own_version_but_not_its_own(monkeypatch):
    """An exercise with may_use=("08.1",) passes an answer built on the notebook's collect_city; an answer that runs
    another exercise's own version (here 08.2's) stays refused."""
    from lessons.exercises import EXERCISES, Exercise

    def checker(answer):
        return f"ran {answer('Oslo')({'readings': []})['readings'][0]['city']}"

    monkeypatch.setitem(EXERCISES, "99.1", Exercise("99.1", "code", "a later exercise", checker, ("08.1",)))
    our_collect_city = reference("08.1")

    def built_on_it(city):  # the learner's own, built on the notebook's collect_city
        return our_collect_city(city)

    assert verdict("99.1", built_on_it).passed, str(verdict("99.1", built_on_it))

    def wraps_the_answer(graph, state):
        return reference("08.2")(graph, state)

    refused = verdict("08.2", wraps_the_answer)
    assert refused.status == "not yet" and "notebook's own version" in refused.message, str(refused)
