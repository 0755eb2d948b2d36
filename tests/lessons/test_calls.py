"""The one profile hook the checks share: what it sees, and that a watch inside a watch blinds neither."""

import threading

from lessons.calls import watching


def target():
    return 1


def other():
    return target()


def test_it_sees_a_call_at_any_depth_and_in_a_thread_started_inside():
    with watching(lambda frame: frame.f_code is target.__code__) as seen:
        other()
        worker = threading.Thread(target=other)
        worker.start()
        worker.join()
    assert seen == ["target", "target"]


def test_an_inner_watch_passes_every_call_on_to_the_outer_one():
    """Before there was one hook, a check that watched for the package's functions switched off the watch for the
    notebook's own versions while it ran: an answer wrapping a reference went unseen in that span."""
    with watching(lambda frame: frame.f_code is target.__code__) as outer:
        with watching(lambda frame: frame.f_code is other.__code__) as inner:
            other()
    assert (outer, inner) == (["target"], ["other"])


def test_the_hook_is_gone_after_the_block():
    import sys

    before, before_threads = sys.getprofile(), threading.getprofile()
    with watching(lambda frame: True):
        assert sys.getprofile() is not before
    assert (sys.getprofile(), threading.getprofile()) == (before, before_threads)
