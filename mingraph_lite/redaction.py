"""Redaction: every text that leaves the program passes through ``redact``, which masks the values of secret
environment variables (``*KEY``, ``*TOKEN``, ``*SECRET``, ``*PASSWORD``) and a URL's credentials."""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Mapping

MASK = "***"
SECRET_SUFFIXES = ("KEY", "TOKEN", "SECRET", "PASSWORD")
MIN_SECRET_LENGTH = 8

_PLAIN = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?|true|false|yes|no|on|off|none|null", re.I)
# scheme://userinfo@  (userinfo: anything up to the @ but no slash, space or quote)
_URL_CREDENTIALS = re.compile(r"(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*://)[^/\s@'\"<>]+@")
# user:password@host with no scheme; the colon is what tells it from an e-mail address
_BARE_CREDENTIALS = re.compile(r"(?<![\w.:/%+-])[\w.%+-]+:[^/\s@'\"<>]+@(?=[\w\[])")


def is_secret_name(name: str) -> bool:
    """Whether an environment variable's name says it holds a secret (``*KEY``, ``*TOKEN``, ...)."""
    return name.upper().endswith(SECRET_SUFFIXES)


def is_secret_value(value: str) -> bool:
    """Whether a value under a secret name is worth hiding: long enough, and not a number or a switch."""
    stripped = value.strip()
    return len(stripped) >= MIN_SECRET_LENGTH and not _PLAIN.fullmatch(stripped)


def secret_values(environ: Mapping[str, str] | None = None) -> tuple[str, ...]:
    """The secret values in ``environ`` (default ``os.environ``), longest first."""
    env = os.environ if environ is None else environ
    found = {value.strip() for name, value in env.items() if is_secret_name(name) and is_secret_value(value)}
    return tuple(sorted(found, key=len, reverse=True))  # longest first: a key that contains another


def redact(text: str, secrets: tuple[str, ...] | None = None) -> str:
    """``text`` with every secret replaced by ``***`` (``secrets``: ``secret_values()``, computed once by a caller)."""
    if not isinstance(text, str) or not text:
        return text
    # Only values longer than the mask: each replacement then shortens the text, so the loop ends.
    values = [v for v in (secret_values() if secrets is None else secrets) if len(v) > len(MASK)]
    before = None
    while before != text:  # again until nothing changes: a replacement may bring a secret together
        before = text
        for value in values:
            text = text.replace(value, MASK)
        if "@" in text:
            text = _URL_CREDENTIALS.sub(lambda m: m["scheme"] + MASK + "@", text)
            text = _BARE_CREDENTIALS.sub(MASK + "@", text)
    return text


class RedactingFilter(logging.Filter):
    """Redacts a log record's message and traceback before any handler sees it."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if redact(message) != message:
            record.msg, record.args = redact(message), ()
        if record.exc_info and record.exc_info[1] is not None and not record.exc_text:
            record.exc_text = redact(logging.Formatter().formatException(record.exc_info))
        return True
