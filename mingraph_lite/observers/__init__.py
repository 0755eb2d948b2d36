"""Listeners: they hear every announcement of a run and cannot change it. The public names are
exported once, from ``mingraph_lite``; this package re-exports nothing."""
