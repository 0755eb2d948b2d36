"""Notebook 08's Send exercise: a fan-out router that starts a branch only for a city with no reading yet.

The checker first hands the router a recording ``send``, so it sees every packet as built; then it declares the
brief with the router at START (``brief_with_entry``: ``connect_brief``'s wiring, with a second route straight to
``write_draft`` for a worksheet that misses no city) and runs it on our engine and, where installed, on LangGraph.
"""

from __future__ import annotations

import inspect
import sys
from copy import deepcopy
from typing import Any

from mingraph_lite.course.brief import BriefNodes, BriefState, initial_state, step_bound
from mingraph_lite.course.weather import WEATHER
from mingraph_lite.graph import END, START
from mingraph_lite.graph.builder import compile_on
from . import Hint, exercise
from .borrowing import borrowed


def _kept(city: str) -> dict[str, Any]:
    return {"city": city, "celsius": WEATHER[city]["celsius"] - 3, "conditions": "haze", "source": "an earlier run"}


def _worksheet(cities: list[str], kept: list[str]) -> dict[str, Any]:
    state = initial_state(cities)
    state["readings"] = [_kept(city) for city in kept]
    return state


def _recording_send(node: str, arg: Any) -> tuple[str, str, Any]:
    return ("packet", node, arg)


_FAN_OUT = inspect.unwrap(getattr(BriefNodes.__dict__["fan_out"], "__func__", BriefNodes.__dict__["fan_out"])).__code__


def _runs_fan_out(router: Any, state: dict[str, Any]) -> tuple[bool, Any]:
    """Whether the package's fan_out ran while the router did (by its code, however it was reached), and the result."""
    ran = []

    def watch(frame: Any, event: str, arg: Any) -> None:
        if event == "call" and frame.f_code is _FAN_OUT:
            ran.append(True)

    previous = sys.getprofile()
    sys.setprofile(watch)
    try:
        got = router(state, _recording_send)
    finally:
        sys.setprofile(previous)
    return bool(ran), got


def _packets(router: Any, cities: list[str], kept: list[str]) -> list[str] | str:
    state = _worksheet(cities, kept)
    before = deepcopy(state)
    fanned, got = _runs_fan_out(router, state)
    if fanned:
        raise Hint("your router runs the package's fan_out (BriefNodes.fan_out), which sends every city: build the "
                   "packets yourself")
    if state != before:
        raise Hint("your router changed the worksheet it read; a router only chooses, it never edits")
    if isinstance(got, str):
        return got  # a route label: only right when no city is missing (checked by the caller)
    if isinstance(got, tuple) and got[:1] == ("packet",):
        raise Hint("your router returned one packet, send(...) itself: return a list of Send, even for one city")
    if not isinstance(got, list | tuple):
        raise Hint(f"your router returned {type(got).__name__}: return a list of packets, one per city to collect")
    sent = []
    for packet in got:
        if isinstance(packet, str) and packet in ("write_draft", "collect_city"):
            raise Hint(f"your router returned [{packet!r}], a list: both engines would follow it, but the "
                       "exercise asks for the route as a string, 'write_draft', and packets as a list of send(...)")
        if not (isinstance(packet, tuple) and packet[:1] == ("packet",)):
            raise Hint(f"your router returned {packet!r}: build each packet with the `send` it is handed, "
                       "send('collect_city', {'city': ...}), so the same router works with either engine's Send")
        _, node, arg = packet
        if node != "collect_city":
            raise Hint(f"a packet went to {node!r}: every branch runs the one node 'collect_city'")
        if not (isinstance(arg, dict) and set(arg) == {"city"}):
            raise Hint(f"a packet carried {arg!r}: collect_city reads a packet holding only the city, {{'city': name}}")
        sent.append(arg["city"])
    return sent


CASES = [(["Oslo", "Cairo", "London"], []), (["Tokyo", "Paris", "Sydney"], ["Paris"]),
         (["Sydney", "Oslo", "New York"], ["New York", "Sydney"]), (["Cairo", "Oslo"], ["Oslo", "Cairo"])]


def brief_with_entry(builder: Any, router: Any, send: Any, nodes: BriefNodes | None = None) -> Any:
    """The brief with ``router(state, send)`` at START: packets for ``collect_city``, or the route ``write_draft``."""
    nodes = nodes or BriefNodes("complete", 1)
    for name in ("collect_city", "write_draft", "check_draft", "revise_draft", "publish", "hold"):
        builder.add_node(name, getattr(nodes, name))
    builder.add_conditional_edges(START, lambda state: router(state, send), ["collect_city", "write_draft"])
    builder.add_edge("collect_city", "write_draft")
    builder.add_edge("write_draft", "check_draft")
    builder.add_conditional_edges("check_draft", nodes.route_after_check,
                                  {"accept": "publish", "revise": "revise_draft", "hold": "hold"})
    builder.add_edge("revise_draft", "check_draft")
    builder.add_edge("publish", END)
    builder.add_edge("hold", END)
    return builder


def _run(router: Any, engine: str, cities: list[str], kept: list[str]) -> dict[str, Any]:
    graph = compile_on(engine, BriefState, lambda builder, send: brief_with_entry(builder, router, send),
                       max_steps=step_bound(1))
    return graph.invoke(_worksheet(cities, kept))


def _check_case(router: Any, cities: list[str], kept: list[str]) -> None:
    want = [city for city in cities if city not in kept] or "write_draft"
    sent = _packets(router, cities, kept)
    if want == "write_draft" and sent == []:
        final = _run(router, "mingraph", cities, kept)  # what an empty list does, shown by a run
        raise Hint(f"every city of {cities} already has a reading and your router sent no packet: nothing starts, "
                   f"so the run ends at once with status {final['status']!r} and draft {final['draft']!r}, a silent "
                   "exit. Return the route 'write_draft' when no city is missing")
    if isinstance(sent, str) and want != "write_draft":
        raise Hint(f"for {cities} with readings kept for {kept}, your router returned {sent!r}: the route "
                   "'write_draft' is only for a worksheet that misses no city; here send the missing ones")
    if isinstance(sent, str) and sent != want:
        raise Hint(f"your router returned {sent!r}: with no city missing, route straight to 'write_draft'")
    if isinstance(sent, list) and any(city in kept for city in sent):
        raise Hint(f"for {cities} with readings kept for {kept}, your router sent {sent}: a city that already has "
                   "a reading gets no packet, so no branch starts for it")
    if sent != want:
        raise Hint(f"for {cities} with readings kept for {kept}, your router sent {sent}, not {want}: one packet "
                   "per city without a reading, in the order state['cities'] lists them")


def _engines() -> list[str]:
    try:
        import langgraph  # noqa: F401
    except ImportError:
        return ["mingraph"]
    return ["mingraph", "langgraph"]


@exercise("08.3", kind="code", title="send_missing(state, send): one Send per missing city, or straight to the draft")
def check_send_missing(send_missing: Any) -> str:
    used = borrowed(send_missing, {"fan_out", "build_brief_graph", "connect_brief"})
    if used:
        raise Hint(f"your router calls the package's ({used}), which sends every city: build the packets yourself")
    for cities, kept in CASES:
        _check_case(send_missing, cities, kept)
    for engine in _engines():
        for cities, kept in ((["Tokyo", "Paris", "Sydney"], ["Paris"]), (["Cairo", "Oslo"], ["Oslo", "Cairo"])):
            final = _run(send_missing, engine, cities, kept)
            got = sorted(reading["city"] for reading in final["readings"])
            if (final["status"], got) != ("published", sorted(cities)):
                raise Hint(f"in the brief on {engine}, for {cities} with {kept} kept, your router ended "
                           f"{final['status']!r} with readings for {got}: every city once, a kept one not collected again")
    return ("one packet per missing city, straight to the draft when none is missing, and the brief publishes every "
            "city once on " + " and ".join(_engines()))


__all__ = ["brief_with_entry", "check_send_missing"]
