"""What crosses the wire from a model, read safely: ``loads`` marks what Python's JSON reader fails on oddly (deep
nesting, huge integers, repeated keys), and ``read_arguments`` turns any problem into a ``ToolArgsError``."""

from __future__ import annotations

import hashlib
import json
import re
import reprlib
from collections.abc import Mapping
from typing import Any

from .errors import ToolArgsError

MAX_ARGUMENT_CHARS = 20_000  # a tool call's arguments as text; a weather call's are ~20 characters
MAX_DEPTH = 16  # nesting levels inside the arguments object
MAX_VALUES = 1_000  # keys, items and values inside one arguments object
MAX_DIGITS = 100  # an integer longer than this is no tool's business (Python refuses >4300)
QUOTE_CHARS = 300  # how much of the model's input an error answer quotes back

MARK = "\ue000"  # private use: never in a tool's schema; a model that sends one earns an error answer
_SURROGATE = re.compile("[\ud800-\udfff]")
_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')
# A string token (kept as it is) or an integer part too long to convert (replaced by a mark).
_LONG_NUMBER = re.compile(r'"(?:[^"\\]|\\.)*"|(?<![\d.eE+-])-?\d{' + str(MAX_DIGITS + 1) + ',}')


def shorten(text: str, limit: int = QUOTE_CHARS) -> str:
    """``text`` cut to ``limit`` characters, saying how much was cut (the one trimming helper)."""
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text) - limit:,} more characters cut)"


_QUOTE = reprlib.Repr()
_QUOTE.maxlevel, _QUOTE.maxstring, _QUOTE.maxother = 4, QUOTE_CHARS, 80
_QUOTE.maxdict = _QUOTE.maxlist = _QUOTE.maxtuple = 8


def quote(value: Any) -> str:
    """A short, safe ``repr`` of anything a model sent: bounded depth, length and digits."""
    if isinstance(value, str):  # cut first: a 10 MB text is not repr'd whole to show 300 characters
        cut = len(value) - QUOTE_CHARS
        return repr(value) if cut <= 0 else f"{value[:QUOTE_CHARS]!r}... ({cut:,} more characters cut)"
    try:
        return shorten(_QUOTE.repr(value))
    except (ValueError, RecursionError):  # an int too long for str(), or a repr that recurses
        return f"<{type(value).__name__} too large to show>"


def _depth_cuts(text: str, limit: int) -> list[tuple[int, int]]:
    """Spans of containers opened deeper than ``limit`` (outside strings); a span to the end if unclosed."""
    cuts, depth, start = [], 0, -1
    for token in _TOKENS.finditer(text):
        char = token.group()
        if char in "[{":
            depth += 1
            if depth == limit + 1:
                start = token.start()
        elif char in "]}":
            if depth == limit + 1:
                cuts.append((start, token.end()))
            depth -= 1
    if depth > limit:
        cuts.append((start, len(text)))
    return cuts


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:  # a repeated key is a mistake to report, not "the last one wins"
            out[f"{MARK}repeated key"] = key
        out[key] = value
    return out


def _mark_number(match: re.Match) -> str:
    token = match.group()
    if token.startswith('"'):
        return token
    return f'"{MARK}a number with {len(token.lstrip("-"))} digits"'


def loads(text: str, depth_limit: int = MAX_DEPTH + 1) -> Any:
    """``json.loads`` that marks too-deep parts, too-long numbers and repeated keys instead of failing."""
    cuts = _depth_cuts(text, depth_limit)
    for start, end in reversed(cuts):  # a too-deep part becomes a mark the reader reports
        text = f'{text[:start]}"{MARK}nested deeper than {MAX_DEPTH} levels"{text[end:]}'
    text = _LONG_NUMBER.sub(_mark_number, text)
    return json.loads(text, object_pairs_hook=_pairs)


_ATOMS = (str, int, float, bool, type(None))
_MAX_BITS = int(MAX_DIGITS * 3.32)  # an int with more bits has more than MAX_DIGITS digits


def _problem(value: Mapping) -> str | None:
    """What is wrong with an arguments object (None if nothing)."""
    # The usual object (a few short texts and numbers) is checked here in one pass; anything else is walked.
    if len(value) <= 32:
        chars = 0
        for key, item in value.items():
            kind = type(item)
            if type(key) is not str or kind not in _ATOMS or key[:1] == MARK or _SURROGATE.search(key):
                break
            if kind is str:
                if item[:1] == MARK or _SURROGATE.search(item):
                    break
                chars += len(item)
            elif kind is int and item.bit_length() > _MAX_BITS:
                break
            chars += len(key)
        else:
            if chars <= MAX_ARGUMENT_CHARS:
                return None
    return _walk(value)


def _walk(value: Any) -> str | None:
    """The full check, walked without recursion: depth, size, marks, keys, surrogates, long numbers."""
    stack, seen, chars = [(value, 1)], 0, 0
    while stack:
        item, depth = stack.pop()
        seen += 1
        if seen > MAX_VALUES:
            return f"hold more than {MAX_VALUES} values"
        if depth > MAX_DEPTH:
            return f"are nested deeper than {MAX_DEPTH} levels"
        if isinstance(item, str):
            chars += len(item)
            if item.startswith(MARK):
                return f"hold {item[1:]}"
            if _SURROGATE.search(item):  # no UTF-8 for it: a provider or a file would choke on it later
                return f"hold text that is not valid Unicode (a lone surrogate): {quote(item)}"
        elif isinstance(item, bool) or item is None or isinstance(item, float):
            continue
        elif isinstance(item, int) and item.bit_length() > _MAX_BITS:
            return f"hold a number with more than {MAX_DIGITS} digits"
        elif isinstance(item, Mapping):
            for key, child in item.items():
                if not isinstance(key, str):
                    return f"have a key that is not text: {quote(key)}"
                if key == f"{MARK}repeated key":
                    return f"repeat the key {child!r}; send each argument once"
                if _SURROGATE.search(key):
                    return f"have a key that is not valid Unicode (a lone surrogate): {quote(key)}"
                chars += len(key)
                stack.append((child, depth + 1))
        elif isinstance(item, (list, tuple)):
            stack.extend((child, depth + 1) for child in item)
        if chars > MAX_ARGUMENT_CHARS:
            return f"are longer than {MAX_ARGUMENT_CHARS:,} characters"
    return None


def read_arguments(raw: Any) -> dict[str, Any]:
    """Arguments (a dict, JSON text or bytes) as a checked dict, or ``ToolArgsError`` completing "the arguments..."."""
    if isinstance(raw, (bytes, bytearray)):
        try:
            raw = bytes(raw).decode("utf-8")
        except UnicodeDecodeError:
            raise ToolArgsError(f"are bytes that are not UTF-8 text: {quote(bytes(raw))}") from None
    if isinstance(raw, str):
        if len(raw) > MAX_ARGUMENT_CHARS:
            raise ToolArgsError(f"are {len(raw):,} characters long; the limit is {MAX_ARGUMENT_CHARS:,}: "
                                f"{quote(raw)}")
        if not raw.strip():
            return {}
        try:
            raw = loads(raw)
        except ValueError as e:
            raise ToolArgsError(f"are not valid JSON ({getattr(e, 'msg', e)}): {quote(raw)}") from None
    if not isinstance(raw, (dict, Mapping)):
        kind = "null" if raw is None else type(raw).__name__
        raise ToolArgsError(f"must be a JSON object, got {kind}: {quote(raw)}")
    problem = _problem(raw)
    if problem:
        raise ToolArgsError(problem)
    return dict(raw)


def parse_arguments(raw: Any) -> Any:
    """What an adapter keeps on a ``ToolCall``: the checked dict, or else what the model sent, for the registry."""
    try:
        return read_arguments(raw)
    except ToolArgsError:
        return raw if raw is not None else "null"


def arguments_text(arguments: Any) -> str:
    """Arguments as the JSON text a provider expects back in the conversation (never raises)."""
    if isinstance(arguments, str):
        return arguments
    if isinstance(arguments, (bytes, bytearray)):
        return bytes(arguments).decode("utf-8", "replace")
    try:
        return json.dumps(dict(arguments) if isinstance(arguments, Mapping) else arguments, ensure_ascii=False)
    except (ValueError, TypeError, RecursionError):  # hostile: what it was is in the error answer
        return quote(arguments)


def arguments_object(arguments: Any) -> dict[str, Any]:
    """Arguments as an object, for providers that take one; ``{}`` when they are not one."""
    parsed = parse_arguments(arguments)
    return parsed if isinstance(parsed, dict) else {}


def call_id(*parts: Any) -> str:
    """A call id that depends only on ``parts`` (the messages read, the position, the call)."""
    try:
        blob = json.dumps(parts, sort_keys=True, default=str)
    except (ValueError, TypeError, RecursionError):  # hostile parts: a bounded rendering will do
        blob = quote(parts)
    return "call_" + hashlib.sha256(blob.encode("utf-8", "surrogatepass")).hexdigest()[:12]
