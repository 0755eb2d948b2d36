"""The weather brief, a workflow with two exits:

    START =Send per city=> collect_city (x N) -> write_draft -> check_draft
    check_draft --accept--> publish -> END
    check_draft --revise--> revise_draft -> check_draft
    check_draft --hold----> hold -> END

Draft styles: ``missing-notice`` forgets the notice once, ``complete`` never, ``stubborn`` always (hold).
"""

from __future__ import annotations

import argparse
import operator
from collections.abc import Iterable, Sequence
from copy import deepcopy
from typing import Annotated, Any, TypedDict

from ..graph.builder import END, START, Send, compile_on
from .weather import WEATHER, celsius_to_fahrenheit

NOTICE = "Fixed teaching data, not live weather."
DRAFT_STYLES = ("missing-notice", "complete", "stubborn")
DEFAULT_CITIES = ("Tokyo", "Paris")


class BriefState(TypedDict):
    cities: list[str]
    include_fahrenheit: bool
    readings: Annotated[list[dict[str, Any]], operator.add]  # merged in Send order, or by node name
    draft: dict[str, Any] | None  # the current draft only; a new one replaces it
    review: dict[str, Any] | None  # the assessment of the current draft; None = not checked yet
    revisions: int
    events: Annotated[list[str], operator.add]  # the account of what happened: it only grows
    answer: str | None  # filled only by publish
    status: str  # "working", "published" or "needs_attention"


def initial_state(cities: Iterable[str] = DEFAULT_CITIES, include_fahrenheit: bool = True) -> dict[str, Any]:
    """The state before any work: options checked here, so a bad option never reaches a node."""
    if isinstance(cities, str):
        raise TypeError(f"cities must be a list of city names, e.g. [{cities!r}], not a single string")
    if not isinstance(include_fahrenheit, bool):
        raise TypeError(f"include_fahrenheit must be True or False, got {include_fahrenheit!r}")
    known = {name.lower(): name for name in WEATHER}
    chosen: list[str] = []
    for city in cities:
        name = known.get(str(city).strip().lower())
        if name is None:
            raise ValueError(f"no teaching data for city {city!r}; known cities: {', '.join(WEATHER)}")
        if name in chosen:
            raise ValueError(f"city {name!r} is listed twice; list each city once")
        chosen.append(name)
    if not chosen:
        raise ValueError(f"the brief needs at least one city; known cities: {', '.join(WEATHER)}")
    return {"cities": chosen, "include_fahrenheit": include_fahrenheit, "readings": [], "draft": None,
            "review": None, "revisions": 0, "events": [], "answer": None, "status": "working"}


def expected_rows(state: dict) -> list[dict[str, Any]]:
    """The rows a correct draft shows, computed from the collected readings."""
    return [{"city": r["city"], "celsius": r["celsius"], "conditions": r["conditions"],
             "fahrenheit": round(celsius_to_fahrenheit(r["celsius"]), 1) if state["include_fahrenheit"] else None}
            for r in state["readings"]]


def review_issues(state: dict) -> list[str]:
    """What is wrong with the current draft, by explicit rules (an empty list means it passes)."""
    draft = state["draft"]
    if draft is None:
        return ["no_draft"]
    issues = []
    expected = {row["city"]: row for row in expected_rows(state)}
    shown = {row.get("city"): row for row in draft.get("rows", [])}
    issues += [f"missing_city:{city}" for city in expected if city not in shown]
    issues += [f"unexpected_city:{city}" for city in shown if city not in expected]
    issues += [f"wrong_values:{city}" for city in expected if city in shown and shown[city] != expected[city]]
    if draft.get("notice") != NOTICE:
        issues.append("missing_fixed_data_notice" if not draft.get("notice") else "wrong_notice")
    return issues


def render(draft: dict) -> str:
    """The draft as page text."""
    lines = []
    for row in draft["rows"]:
        temp = f"{row['celsius']}°C" + (f" / {row['fahrenheit']}°F" if row["fahrenheit"] is not None else "")
        lines.append(f"{row['city']}: {temp}, {row['conditions']}.")
    if draft["notice"]:
        lines.append(draft["notice"])
    return "\n".join(lines)


class BriefNodes:
    """The six nodes and the router. Each node reads the state and returns only what it changed."""

    def __init__(self, draft_style: str = "missing-notice", max_revisions: int = 1) -> None:
        if draft_style not in DRAFT_STYLES:
            raise ValueError(f"draft_style must be one of {DRAFT_STYLES}, got {draft_style!r}")
        if not isinstance(max_revisions, int) or isinstance(max_revisions, bool) or max_revisions < 0:
            raise ValueError(f"max_revisions must be an int >= 0, got {max_revisions!r}")
        self.draft_style, self.max_revisions = draft_style, max_revisions

    @staticmethod
    def fan_out(state: dict, send: Any) -> list[Any]:
        """The entry router: one ``send("collect_city", {"city": ...})`` packet per city, in order."""
        return [send("collect_city", {"city": city}) for city in state["cities"]]

    @staticmethod
    def collect_city(packet: dict) -> dict:
        """One parallel branch: its packet holds only the city, not the whole state."""
        city = packet["city"]
        record = WEATHER[city]
        reading = {"city": city, "celsius": record["celsius"], "conditions": record["conditions"],
                   "source": "fixed teaching data"}
        return {"readings": [reading], "events": [f"collected {city}"]}

    def collect(self, state: dict) -> dict:
        """Every city, one after another: what the parallel branches do together."""
        updates = [self.collect_city({"city": city}) for city in state["cities"]]
        return {"readings": [u["readings"][0] for u in updates], "events": [u["events"][0] for u in updates]}

    def write_draft(self, state: dict) -> dict:
        notice = NOTICE if self.draft_style == "complete" else ""
        return {"draft": {"rows": expected_rows(state), "notice": notice}, "review": None, "events": ["wrote draft"]}

    def check_draft(self, state: dict) -> dict:
        issues = review_issues(state)
        verdict = ", ".join(issues) if issues else "accepted"
        return {"review": {"passed": not issues, "issues": issues, "checked_draft": deepcopy(state["draft"])},
                "events": [f"checked draft: {verdict}"]}

    def revise_draft(self, state: dict) -> dict:
        notice = "" if self.draft_style == "stubborn" else NOTICE
        revision = state["revisions"] + 1
        return {"draft": {"rows": expected_rows(state), "notice": notice}, "review": None,
                "revisions": revision, "events": [f"revised draft (revision {revision})"]}

    def publish(self, state: dict) -> dict:
        review = state["review"]
        if review is None or review["checked_draft"] != state["draft"] or not review["passed"]:
            raise ValueError("refusing to publish: this draft is not the draft that passed the check")
        issues = review_issues(state)
        if issues:
            raise ValueError(f"refusing to publish: the draft fails the check now: {', '.join(issues)}")
        return {"answer": render(state["draft"]), "status": "published", "events": ["published"]}

    def hold(self, state: dict) -> dict:
        issues = ", ".join(state["review"]["issues"]) if state["review"] else "not checked"
        return {"status": "needs_attention", "answer": None,
                "events": [f"held after {state['revisions']} revision(s): {issues}"]}

    def route_after_check(self, state: dict) -> str:
        review = state["review"]
        if review is None or review["checked_draft"] != state["draft"]:
            raise ValueError("the current draft has not been checked")
        if review["passed"]:
            return "accept"
        return "revise" if state["revisions"] < self.max_revisions else "hold"


def connect_brief(builder: Any, nodes: BriefNodes, send: Any = Send) -> Any:
    """Declare the brief on any builder with LangGraph's method names; ``send`` is that engine's ``Send``."""
    for name in ("collect_city", "write_draft", "check_draft", "revise_draft", "publish", "hold"):
        builder.add_node(name, getattr(nodes, name))
    builder.add_conditional_edges(START, lambda state: nodes.fan_out(state, send), ["collect_city"])
    builder.add_edge("collect_city", "write_draft")  # runs once, after every branch
    builder.add_edge("write_draft", "check_draft")
    builder.add_conditional_edges("check_draft", nodes.route_after_check,
                                  {"accept": "publish", "revise": "revise_draft", "hold": "hold"})
    builder.add_edge("revise_draft", "check_draft")
    builder.add_edge("publish", END)
    builder.add_edge("hold", END)
    return builder


def step_bound(max_revisions: int) -> int:
    """The longest legal run in supersteps: collect, write, check, (revise, check) per revision, publish or hold."""
    return 2 * max_revisions + 4


def build_brief_graph(draft_style: str = "missing-notice", max_revisions: int = 1, *,
                      engine: str = "mingraph", observers: Iterable[Any] = (), strict: bool = False) -> Any:
    """The brief compiled on our engine (default) or on LangGraph's (``engine="langgraph"``)."""
    nodes = BriefNodes(draft_style, max_revisions)
    return compile_on(engine, BriefState, lambda builder, send: connect_brief(builder, nodes, send),
                      max_steps=step_bound(max_revisions), observers=observers, strict=strict,
                      name="weather brief")


def brief_main(argv: Sequence[str] | None = None) -> int:
    """``python -m mingraph_lite brief``: run the brief once; exit 0 if published, 1 if held."""
    parser = argparse.ArgumentParser(prog="python -m mingraph_lite brief",
                                     description="Run the weather brief workflow (fixed teaching data).")
    parser.add_argument("--draft-style", choices=DRAFT_STYLES, default="missing-notice",
                        help="how the writer behaves (default: missing-notice)")
    parser.add_argument("--max-revisions", type=int, default=1, metavar="N",
                        help="how many revisions may be tried before holding (default: 1)")
    parser.add_argument("--show-updates", action="store_true", help="print the fields each node changed")
    parser.add_argument("--cities", nargs="+", default=list(DEFAULT_CITIES), metavar="CITY")
    parser.add_argument("--celsius-only", action="store_true", help="leave out Fahrenheit")
    args = parser.parse_args(argv)
    if args.max_revisions < 0:
        parser.error("--max-revisions must be 0 or more")
    try:
        state = initial_state(args.cities, include_fahrenheit=not args.celsius_only)
    except (TypeError, ValueError) as exc:
        parser.error(str(exc))
    graph = build_brief_graph(args.draft_style, args.max_revisions)
    final = state
    for mode, payload in graph.stream(state, stream_mode=("updates", "values")):
        if mode == "updates" and args.show_updates:
            for node, update in payload.items():
                print(f"{node} updated: {sorted(update)}")
        elif mode == "values":
            final = payload
    print("supersteps: " + " -> ".join(" | ".join(step) for step in graph.steps))
    if final["status"] == "published":
        print("PUBLISHED")
        print(final["answer"])
        return 0
    issues = ", ".join(final["review"]["issues"]) if final["review"] else "not checked"
    print(f"HELD (status: {final['status']}) after {final['revisions']} revision(s): {issues}")
    print("last draft, not published:")
    print(render(final["draft"]))
    return 1
