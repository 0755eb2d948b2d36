"""Teaching pictures for notebooks 01, 03 and 06: the loop, a run's rounds, the cards, the brief's graph and paths.

Each function returns a matplotlib ``Figure`` (closed in pyplot, so a notebook shows it once, as the
cell's value). Nothing here reads a clock: a run is drawn in the order of its announcements, and
token counts are whatever the model reported (``None`` = not reported, drawn as nothing).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
import typing
from collections import Counter
from typing import Any

from mingraph_lite.graph import END, START
from mingraph_lite.observers.trace import pick_run
from mingraph_lite.plots import _done, _pyplot

_MODEL, _TOOL, _ANSWER, _NEW = "#6a3d9a", "#2e7d32", "#555555", "#d95f02"


def _box(ax, xy, text, colour, *, width=2.6, height=1.0, size=10):
    from matplotlib.patches import FancyBboxPatch

    x, y = xy
    ax.add_patch(FancyBboxPatch((x - width / 2, y - height / 2), width, height,
                                boxstyle="round,pad=0.08", facecolor=colour, edgecolor="black", alpha=0.9))
    ax.text(x, y, text, ha="center", va="center", color="white", fontsize=size, weight="bold")


def _arrow(ax, start, end, label="", *, colour="black", bend=0.0, size=8):
    ax.annotate("", xy=end, xytext=start,
                arrowprops={"arrowstyle": "-|>", "color": colour, "lw": 1.6, "shrinkA": 22, "shrinkB": 22,
                            "connectionstyle": f"arc3,rad={bend}"})
    if label:
        mid = ((start[0] + end[0]) / 2, (start[1] + end[1]) / 2)
        dx, dy = end[0] - start[0], end[1] - start[1]
        # put the label on the side the arc bulges to, so it never sits on the line
        ax.text(mid[0] + bend * dy * 0.55, mid[1] - bend * dx * 0.55, label, ha="center", va="center",
                fontsize=size, color=colour, bbox={"facecolor": "white", "edgecolor": "none", "pad": 1})


def draw_loop(ceiling=False):
    """One round of notebook 01's ``plain_loop`` (observe, reason, act, evaluate, the answer as its one way out),
    or with ``ceiling`` the capped loop's, whose evaluate has a second way out."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(8, 5.2), layout="constrained")
    spots = {"observe": (0, 2.2), "reason": (3.2, 0), "act": (0, -2.2), "evaluate": (-3.2, 0)}
    notes = {"observe": "the folder: instructions, question,\nevery reply and answer slip",
             "reason": "llm.generate(folder, tools)\nslips, or an answer",
             "act": "registry.run(slip)\nour code runs the errand",
             "evaluate": "answer slips into the folder\n" + ("go on? step < max_steps" if ceiling
                                                             else "go on? `while True`: always yes")}
    colours = {"observe": "#1f5fa8", "reason": _MODEL, "act": _TOOL, "evaluate": "#8c6d1f"}
    # each note sits on the outer side of its box, away from the arrows between the boxes
    places = {"observe": (0, 0.65, "center", "bottom"), "reason": (0.3, -0.65, "left", "top"),
              "act": (0, -0.65, "center", "top"), "evaluate": (-0.3, 0.65, "right", "bottom")}
    for part, xy in spots.items():
        _box(ax, xy, part.upper(), colours[part])
        dx, dy, ha, va = places[part]
        ax.text(xy[0] + dx, xy[1] + dy, notes[part], ha=ha, va=va, fontsize=8)
    order = ["observe", "reason", "act", "evaluate", "observe"]
    for a, b in zip(order, order[1:], strict=False):
        _arrow(ax, spots[a], spots[b], bend=-0.25)
    _box(ax, (6.4, 0), "answer", _ANSWER, width=1.8)
    _arrow(ax, spots["reason"], (6.4, 0), "no slips", colour=_ANSWER)
    if ceiling:
        _box(ax, (-5.6, -2.9), "StepLimitReached", "#b2182b", width=3.2, size=9)
        _arrow(ax, spots["evaluate"], (-5.6, -2.9), "ceiling hit", colour="#b2182b")
    ax.set_xlim(-7.6, 7.6)
    ax.set_ylim(-3.7, 3.6)
    ax.set_axis_off()
    ax.set_title("one round of the capped loop (max_steps is the ceiling)" if ceiling
                 else "one round of plain_loop (the model decides how many rounds; no ceiling yet)")
    return _done(plt, fig)


def round_rows(source: Any) -> list[dict[str, Any]]:
    """Per model call of one run: step, tokens read and written, and the tool calls that followed."""
    rows: list[dict[str, Any]] = []
    for event in pick_run(source):
        if event.get("event") == "model_reply":
            calls = event["message"].get("tool_calls") or []
            rows.append({"step": event["step"], "input_tokens": event.get("input_tokens"),
                         "output_tokens": event.get("output_tokens"),
                         "tools": [c["name"] for c in calls], "answered": not calls})
    return rows


_TOOL_SHADES = ("#2e7d32", "#8bc34a", "#00796b", "#c0ca33")


def _timeline(ax, rows: Sequence[Mapping[str, Any]], shades: Mapping[str, str], width: float) -> None:
    at = 0.0
    for row in rows:
        ax.broken_barh([(at, 0.9)], (1.1, 0.8), color=_MODEL)
        ax.text(at + 0.45, 1.5, str(row["step"]), ha="center", va="center", color="white", fontsize=8)
        at += 1.0
        for name in row["tools"]:
            ax.broken_barh([(at, 0.9)], (0.1, 0.8), color=shades[name], label=name)
            at += 1.0
    ax.set_yticks([0.5, 1.5], ["tool call", "model call"])
    ax.set_xlim(0, width)  # one scale for every run drawn side by side: a longer run is a longer strip
    ax.set_xticks([])
    ax.set_xlabel("events in order, left to right (numbers = step)", fontsize=8)
    handles = {h.get_label(): h for h in ax.get_legend_handles_labels()[0]}
    if handles:
        ax.legend(handles.values(), handles.keys(), fontsize=7, loc="upper center", ncol=len(handles))
    ax.set_ylim(0, 2.8)  # room above the lanes for the legend


def _token_bars(ax, rows: Sequence[Mapping[str, Any]], last_step: int) -> None:
    steps = [row["step"] for row in rows]
    for offset, key, colour, label in ((-0.2, "input_tokens", "#1f5fa8", "read (input)"),
                                       (0.2, "output_tokens", "#e08214", "written (output)")):
        known = [(s, row[key]) for s, row in zip(steps, rows, strict=True) if row[key] is not None]
        if known:  # a count nobody reported is left out, never drawn as zero
            ax.bar([s + offset for s, _ in known], [v for _, v in known], width=0.4, color=colour, label=label)
    ax.set_xticks(steps)
    ax.set_xlim(0.4, last_step + 0.6)
    ax.set_xlabel("model call (step)")
    ax.legend(fontsize=7, loc="upper left")


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def draw_rounds(runs: Mapping[str, Any], *, unit: str = "tokens"):
    """Runs side by side: their model and tool calls in order (top) and tokens per model call (bottom).

    ``runs`` maps a title to a run (an ``EventRecorder``, event dicts or a trace path). ``unit`` names
    what the counts are, e.g. "tokens (counted as words)" for a scripted model.
    """
    plt = _pyplot()
    fig, axes = plt.subplots(2, len(runs), figsize=(4.6 * len(runs), 5.2), squeeze=False,
                             gridspec_kw={"height_ratios": [1, 2]}, layout="constrained", sharey="row")
    every = {title: round_rows(source) for title, source in runs.items()}
    names = dict.fromkeys(name for rows in every.values() for row in rows for name in row["tools"])
    shades = {name: _TOOL_SHADES[i % len(_TOOL_SHADES)] for i, name in enumerate(names)}
    width = max(len(rows) + sum(len(row["tools"]) for row in rows) for rows in every.values())
    last_step = max((row["step"] for rows in every.values() for row in rows), default=1)
    for column, (title, rows) in enumerate(every.items()):
        calls = sum(len(row["tools"]) for row in rows)
        read = sum(row["input_tokens"] or 0 for row in rows)
        axes[0][column].set_title(f"{title}\n{_count(len(rows), 'model call')}, {_count(calls, 'tool call')}, "
                                  f"{read} {unit} read", fontsize=9)
        _timeline(axes[0][column], rows, shades, width)
        _token_bars(axes[1][column], rows, last_step)
    axes[1][0].set_ylabel(unit)
    return _done(plt, fig)


def _spot(ax, name: str, xy: tuple[float, float], colour: str) -> None:
    _box(ax, xy, name, colour, width=2.3, height=0.9)


def card_transitions(first: type) -> list[tuple[str, str]]:
    """Every (card, next card) pair from ``first`` on, read from each ``run`` method's return annotation.

    The diagram is then the code: a card whose ``run`` says ``-> Errands | HungUp`` gets an arrow to each.
    """
    edges, found = [], [first]
    for current in found:  # grows as the annotations name new classes
        returns = typing.get_type_hints(current.run).get("return")
        for following in typing.get_args(returns) or (returns,):
            if isinstance(following, type) and following is not type(None):
                edges.append((current.__name__.lstrip("_"), following.__name__.lstrip("_")))
                if following not in found:
                    found.append(following)
    return edges


def draw_cards(spots: Mapping[str, tuple[float, float]], arrows: Iterable[tuple[str, ...]], *,
               new: Iterable[str] = (), title: str = "the cards and their arrows"):
    """Cards as boxes at ``spots`` and ``(from, to, label)`` arrows; names in ``new`` are drawn highlighted.

    An arrow's label says what makes the card hand over that next card; a card with no arrow out ends
    the run. A name in ``new`` may be a card or an arrow written as ``"from->to"``. Arrows may also be
    unlabelled ``(from, to)`` pairs, as ``card_transitions`` reads them from the cards.
    """
    plt = _pyplot()
    new = set(new)
    fig, ax = plt.subplots(figsize=(8.5, 4.6), layout="constrained")
    for name, xy in spots.items():
        _spot(ax, name, xy, _NEW if name in new else ("#555555" if name in ("HungUp", "Finished") else "#1f5fa8"))
    arrows = [(*arrow, "")[:3] for arrow in arrows]
    both_ways = {(a, b) for a, b, _ in arrows} & {(b, a) for a, b, _ in arrows}
    for start, end, label in arrows:
        bend = 0.3 if (start, end) in both_ways else 0.0  # a pair of opposite arrows bulge apart
        colour = _NEW if f"{start}->{end}" in new or start in new or end in new else "black"
        _arrow(ax, spots[start], spots[end], label, colour=colour, bend=bend)
    xs = [x for x, _ in spots.values()]
    ys = [y for _, y in spots.values()]
    ax.set_xlim(min(xs) - 2, max(xs) + 2)
    ax.set_ylim(min(ys) - 1.4, max(ys) + 1.4)
    ax.set_axis_off()
    ax.set_title(title)
    return _done(plt, fig)


# Notebook 03's three cards: where each sits, and what makes each arrow's hand-over.
THREE_CARDS = {"CallingModel": (0, 0), "RunningTools": (5, 0), "Finished": (0, -2.6)}
THREE_LABELS = {("CallingModel", "RunningTools"): "slips", ("RunningTools", "CallingModel"): "answer slips in the folder",
                ("CallingModel", "Finished"): "an answer, or the ceiling"}


def draw_three_cards(calling_model: type):
    """Notebook 03's diagram: the arrows read from ``calling_model``'s code, each with its label."""
    arrows = card_transitions(calling_model)
    if set(arrows) != set(THREE_LABELS):  # every arrow the code has is labelled, and no label is made up
        raise ValueError(f"the cards' arrows {sorted(arrows)} are not the three labelled ones")
    return draw_cards(THREE_CARDS, [(*arrow, THREE_LABELS[arrow]) for arrow in arrows],
                      title="three cards; each arrow is a card handing over the next one (read from the code)")


# The weather brief of notebook 07: where each node sits, and its arrows with their route labels.
BRIEF_LAYOUT = {START: (0, 6), "collect": (0, 5), "write_draft": (0, 4), "check_draft": (0, 3),
                "revise_draft": (2.3, 4), "publish": (-1.3, 1.7), "hold": (1.3, 1.7), END: (0, 0.5)}
BRIEF_ARROWS = [(START, "collect", ""), ("collect", "write_draft", ""), ("write_draft", "check_draft", ""),
                ("check_draft", "publish", "accept"), ("check_draft", "revise_draft", "revise"),
                ("revise_draft", "check_draft", ""), ("check_draft", "hold", "hold"), ("publish", END, ""),
                ("hold", END, "")]


def walked(path: Sequence[str]) -> Counter:
    """How often a run crossed each arrow: its node path with START before it and END after it."""
    return Counter(zip([START, *path], [*path, END], strict=True))


def _brief_panel(ax, path: Sequence[str], title: str, colour: str = "#d62728") -> None:
    crossed, visits = walked(path), Counter(path)
    for source, target, label in BRIEF_ARROWS:
        times = crossed[(source, target)]
        loop = {source, target} == {"check_draft", "revise_draft"}  # the two arrows of the loop bend apart
        ax.annotate("", xy=BRIEF_LAYOUT[target], xytext=BRIEF_LAYOUT[source],
                    arrowprops={"arrowstyle": "-|>", "color": colour if times else "#bbbbbb", "lw": 1.2 + 1.8 * times,
                                "shrinkA": 18, "shrinkB": 18, "connectionstyle": "arc3,rad=0.4" if loop else "arc3"})
        if label or times > 1:
            (x1, y1), (x2, y2) = BRIEF_LAYOUT[source], BRIEF_LAYOUT[target]
            x, y = x1 + 0.45 * (x2 - x1) + (0.35 if loop else 0), y1 + 0.45 * (y2 - y1) - (0.45 if loop else 0)
            ax.text(x, y, label + (f" ×{times}" if times > 1 else ""), fontsize=8, ha="center",
                    color=colour if times else "#888888", bbox={"fc": "white", "ec": "none", "pad": 0.5})
    for node, (x, y) in BRIEF_LAYOUT.items():
        name = {START: "START", END: "END"}.get(node, node) + (f" ×{visits[node]}" if visits[node] > 1 else "")
        ax.text(x, y, name, ha="center", va="center", fontsize=9,
                bbox={"boxstyle": "round,pad=0.35", "fc": "#fde0dd" if node in path else "white",
                      "ec": colour if node in path or node in (START, END) else "#999999"})
    ax.set_xlim(-2.3, 3.4)
    ax.set_ylim(0, 6.5)
    ax.set_title(title, fontsize=10)
    ax.axis("off")


def draw_brief_paths(paths: Mapping[str, Sequence[str]], *, title: str = "one graph, several paths through it"):
    """The brief's graph once per run, side by side, each with its node path highlighted (thicker = walked more)."""
    unknown = {node for path in paths.values() for node in path} - set(BRIEF_LAYOUT)
    if unknown:
        raise ValueError(f"nodes the brief's picture does not place: {sorted(unknown)}")
    plt = _pyplot()
    fig, axes = plt.subplots(1, len(paths), figsize=(4.4 * len(paths), 5), squeeze=False, layout="constrained")
    for ax, (caption, path) in zip(axes[0], paths.items(), strict=True):
        _brief_panel(ax, path, f"{caption}\n{_count(len(path), 'node')}")
    fig.suptitle(title, fontsize=12)
    return _done(plt, fig)
