"""Side-by-side timings of the course's machinery: ``make bench`` (``python -m benchmarks``).

One module per measurement, each with ``run(...) -> Section``:

- ``agent_loop``: the loop's overhead per model call: bare loop, ``Agent``, listeners, graphs, LangGraph;
- ``graph_engine``: the graph engine per node execution at 500/1,000/2,000 nodes, against LangGraph;
- ``trace_cost``: a trace line's cost, and four processes appending to one file;
- ``import_time``: ``import mingraph_lite`` in a fresh interpreter, and what it pulls in;
- ``course``: every notebook executed offline, timed.

``timing`` holds the measurement rules (warm-up, repeats, medians, variants sampled in turns) and
``report`` turns sections into the console table and ``benchmarks/results.md``.
"""
