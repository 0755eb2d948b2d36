"""``borrowed`` finds an answer that only calls the package's own version, however it reaches it; own code passes."""

from __future__ import annotations

from lessons.exercises.borrowing import borrowed
from mingraph_lite.course.brief import BriefNodes

NAMES = {"BriefNodes", "route_after_check"}


def own_router(state, max_revisions):
    review = state["review"]
    return "accept" if review["passed"] else ("revise" if state["revisions"] < max_revisions else "hold")


def test_own_code_is_not_borrowed():
    assert borrowed(own_router, NAMES) is None
    assert borrowed(lambda old, new: old + new, NAMES) is None


def test_a_call_by_name_by_attribute_or_through_a_closure_is_found():
    assert borrowed(lambda s, m: BriefNodes(max_revisions=m).route_after_check(s), NAMES) == "BriefNodes"
    nodes = BriefNodes()
    assert borrowed(lambda s, m: nodes.route_after_check(s), NAMES) == "route_after_check"

    def factory(city):
        def node(state):
            return BriefNodes.collect_city({"city": city})
        return node

    assert borrowed(factory, {"BriefNodes"}) == "BriefNodes"


def test_an_object_captured_in_a_closure_or_the_package_function_itself_is_found():
    hidden = BriefNodes()
    ask = hidden.route_after_check

    def router(state, max_revisions):
        return ask(state)

    assert borrowed(router, {"BriefNodes"}) is not None
    assert borrowed(BriefNodes().route_after_check, set()) is not None


ASK = BriefNodes().route_after_check


def router_through_a_global(state, max_revisions):
    return ASK(state)


def test_a_package_method_kept_in_a_global_is_found():
    assert borrowed(router_through_a_global, {"BriefNodes"}) == "BriefNodes"
