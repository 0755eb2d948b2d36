"""Listeners of a run; their public names are exported once, from ``mingraph_lite``."""
