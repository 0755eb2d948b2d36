"""Notebook 07's Send exercise: a fan-out router that starts a branch only for a city with no reading yet.

The checker first hands the router a recording ``send``, so it sees every packet as built; then it swaps the
router into the brief (``connect_brief``) and runs it on our engine and, where installed, on LangGraph.
"""

from __future__ import annotations

from copy import deepcopy
from typing import Any

from mingraph_lite.course.brief import BriefNodes, BriefState, connect_brief, initial_state, step_bound
from mingraph_lite.course.weather import WEATHER
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


def _packets(router: Any, cities: list[str], kept: list[str]) -> list[str]:
    state = _worksheet(cities, kept)
    before = deepcopy(state)
    got = router(state, _recording_send)
    if state != before:
        raise Hint("your router changed the worksheet it read; a router only chooses, it never edits")
    if not isinstance(got, list | tuple):
        raise Hint(f"your router returned {type(got).__name__}: return a list of packets, one per city to collect")
    sent = []
    for packet in got:
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


class _Swapped(BriefNodes):
    def __init__(self, router: Any) -> None:
        super().__init__("complete", 1)
        self.fan_out = router  # connect_brief asks nodes.fan_out(state, send) for the packets


def _engines() -> list[str]:
    try:
        import langgraph  # noqa: F401
    except ImportError:
        return ["mingraph"]
    return ["mingraph", "langgraph"]


@exercise("07.5", kind="code", title="send_missing(state, send): one Send per city not yet collected")
def check_send_missing(send_missing: Any) -> str:
    used = borrowed(send_missing, {"fan_out", "build_brief_graph", "connect_brief"})
    if used:
        raise Hint(f"your router calls the package's ({used}), which sends every city: build the packets yourself")
    for cities, kept in CASES:
        want = [city for city in cities if city not in kept]
        sent = _packets(send_missing, cities, kept)
        if any(city in kept for city in sent):
            raise Hint(f"for {cities} with readings kept for {kept}, your router sent {sent}: a city that already has "
                       "a reading gets no packet, so no branch starts for it")
        if sent != want:
            raise Hint(f"for {cities} with readings kept for {kept}, your router sent {sent}, not {want}: one packet "
                       "per city without a reading, in the order state['cities'] lists them")
    cities, kept = ["Tokyo", "Paris", "Sydney"], ["Paris"]
    for engine in _engines():
        graph = compile_on(engine, BriefState, lambda b, send: connect_brief(b, _Swapped(send_missing), send),
                           max_steps=step_bound(1))
        final = graph.invoke(_worksheet(cities, kept))
        got = sorted(reading["city"] for reading in final["readings"])
        if (final["status"], got) != ("published", sorted(cities)):
            raise Hint(f"swapped into the brief on {engine}, your router ended {final['status']!r} with readings for "
                       f"{got}: every city once, the kept one not collected again")
    return "one packet per missing city, and the brief publishes every city once on " + " and ".join(_engines())


__all__ = ["check_send_missing"]
