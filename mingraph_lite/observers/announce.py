"""The announcer: tell every listener, and let none of them change the run.

The agent and the graph engine both announce through ``announce``. Each listener is called inside
its own ``try``: one that raises is logged and skipped, so a run is the same with any listeners,
none, or a broken one. ``strict=True`` (for audit logs that must not miss a line) re-raises instead.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from ..redaction import RedactingFilter

logger = logging.getLogger(__name__)
logger.addFilter(RedactingFilter())  # a failure's text may hold a key the run was handling


def announce(observers: Iterable[Any], hook: str, *args: Any, strict: bool = False, stopping: bool = False) -> None:
    """Call ``observer.<hook>(*args)`` on each observer, isolating each one's failures.

    A listener that lacks the hook is skipped: duck-typed listeners need only the hooks they use.
    ``stopping=True`` is for the clean-up after an error has already stopped the run: every listener
    still hears it, and a failure is logged at debug level only (the run's own error says enough).
    """
    for observer in observers:
        method = getattr(observer, hook, None)
        if method is None:
            continue
        try:
            method(*args)
        except Exception:
            if strict and not stopping:
                raise
            if stopping:
                logger.debug("listener %r failed in %s while the run was stopping", observer, hook, exc_info=True)
                continue
            logger.warning("listener %r failed in %s; skipped (pass strict=True to stop the run instead)",
                           observer, hook, exc_info=True)
