"""Listeners: they hear every announcement of a run and cannot change it.

``base`` (the ``Observer`` hooks and ``RecordingObserver``), ``announce`` (how a run calls its
listeners), ``console``, ``recorder`` (``EventRecorder``), ``trace`` (``TraceRecorder``,
``read_trace``), ``run_model`` (one run folded from its events) and ``widgets`` (live views). The
public names are exported once, from ``mingraph_lite``; this package re-exports nothing.
"""
