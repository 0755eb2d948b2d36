"""The notebook's own version of an exercise comes from the solutions file, unprinted."""

import pytest

from lessons.exercises import verdict
from lessons.reference import reference


def test_a_reference_is_the_solutions_files_own_answer():
    import runpy

    from lessons.reference import SOLUTIONS

    (path,) = SOLUTIONS.glob("06_*.py")
    assert reference("06.2").__code__.co_code == runpy.run_path(str(path))["SOLUTIONS"]["06.2"].__code__.co_code


def test_an_unknown_exercise_or_notebook_is_named():
    with pytest.raises(KeyError, match="01.99"):
        reference("01.99")
    with pytest.raises(LookupError, match="77_"):
        reference("77.1")


def test_a_check_refuses_the_notebooks_own_version_handed_in_as_the_answer():
    for ex in ("01.1", "06.2"):
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


def test_a_later_exercise_may_run_the_earlier_ones_own_version_but_not_its_own():
    """A learner stuck on 07.1 can still do 07.2 with the notebook's collect_city; 07.2's own version stays refused."""
    from lessons.parallel_brief import END, START

    our_collect_city = reference("07.1")

    def declare_parallel(builder, nodes, cities):  # the learner's own, built on the notebook's collect_city
        for city in cities:
            builder.add_node(f"collect_{city}", our_collect_city(city))
            builder.add_edge(START, f"collect_{city}")
        for name in ("write_draft", "check_draft", "revise_draft", "publish", "hold"):
            builder.add_node(name, getattr(nodes, name))
        builder.add_edge([f"collect_{city}" for city in cities], "write_draft")
        builder.add_edge("write_draft", "check_draft")
        builder.add_conditional_edges("check_draft", nodes.route_after_check,
                                      {"accept": "publish", "revise": "revise_draft", "hold": "hold"})
        builder.add_edge("revise_draft", "check_draft")
        builder.add_edge("publish", END)
        builder.add_edge("hold", END)
        return builder

    assert verdict("07.2", declare_parallel).passed, str(verdict("07.2", declare_parallel))

    def wraps_the_answer(builder, nodes, cities):
        return reference("07.2")(builder, nodes, cities)

    refused = verdict("07.2", wraps_the_answer)
    assert refused.status == "not yet" and "notebook's own version" in refused.message, str(refused)
