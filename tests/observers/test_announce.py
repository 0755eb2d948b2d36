"""announce: every listener hears, none can change the run, a broken one is logged and skipped."""

from __future__ import annotations

import logging

import pytest

from mingraph_lite.observers.announce import announce


class Ear:
    def __init__(self):
        self.heard = []

    def on_step_start(self, step):
        self.heard.append(step)


class Broken:
    def on_step_start(self, step):
        raise RuntimeError("listener bug")


def test_every_listener_hears_in_order_and_one_without_the_hook_is_skipped():
    first, second = Ear(), Ear()
    announce([first, object(), second], "on_step_start", 3)
    assert first.heard == [3] and second.heard == [3]


def test_a_broken_listener_is_logged_and_the_others_still_hear(caplog):
    ear = Ear()
    with caplog.at_level(logging.WARNING, logger="mingraph_lite.observers.announce"):
        announce([Broken(), ear], "on_step_start", 1)
    assert ear.heard == [1]
    assert "failed in on_step_start; skipped (pass strict=True to stop the run instead)" in caplog.text
    assert "listener bug" in caplog.text  # the traceback is logged with it


def test_strict_stops_at_the_first_broken_listener():
    ear = Ear()
    with pytest.raises(RuntimeError, match="listener bug"):
        announce([Broken(), ear], "on_step_start", 1, strict=True)
    assert ear.heard == []
