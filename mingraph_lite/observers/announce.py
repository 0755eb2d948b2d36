"""The announcer: each listener hears its own copy, and one that raises is logged and skipped: runs ignore them."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from copy import deepcopy
from typing import Any

from ..redaction import RedactingFilter

logger = logging.getLogger(__name__)
logger.addFilter(RedactingFilter())  # a failure's text may hold a key the run was handling


def _own(arg: Any) -> Any:
    """A listener's own copy, so editing it cannot reach the run; an exception, or a slip too deep to copy, as is."""
    try:
        return arg if isinstance(arg, BaseException) else deepcopy(arg)
    except RecursionError:
        return arg


def announce(observers: Iterable[Any], hook: str, *args: Any, strict: bool = False, stopping: bool = False) -> None:
    """Call ``observer.<hook>(*args)`` on each observer that has it; ``stopping=True``: a failure is only logged."""
    for observer in observers:
        method = getattr(observer, hook, None)
        if method is None:
            continue
        try:
            method(*map(_own, args))
        except Exception:
            if stopping:
                logger.debug("listener %r failed in %s while the run was stopping", observer, hook, exc_info=True)
            elif strict:
                raise
            else:
                logger.warning("listener %r failed in %s; skipped (pass strict=True to stop the run instead)",
                               observer, hook, exc_info=True)
