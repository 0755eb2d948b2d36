"""Fixtures for the model adapters: mock transports that answer with the providers' wire formats.

The real-model switch (MINGRAPH_REAL_MODELS=off, on only for tests marked live) is set by the
shared tests/conftest.py.
"""

from __future__ import annotations

import json

import pytest


class Wire:
    """A fake server: answers each request with the next queued reply and keeps the bodies sent."""

    def __init__(self, *replies):
        self.replies = list(replies)
        self.requests = []

    def __call__(self, request):
        import httpx

        self.requests.append(request)
        reply = self.replies.pop(0)
        if isinstance(reply, Exception):
            raise reply
        status, body = reply if isinstance(reply, tuple) else (200, reply)
        return httpx.Response(status, json=body)

    @property
    def bodies(self):
        return [json.loads(r.content) for r in self.requests]

    def transport(self):
        import httpx

        return httpx.MockTransport(self)


@pytest.fixture
def wire_factory():
    return Wire
