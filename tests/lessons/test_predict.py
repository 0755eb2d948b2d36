"""A guess nobody entered is shown as not written yet, never as a wrong guess."""

from lessons.predict import reveal


def test_an_unentered_guess_is_not_called_wrong(capsys):
    for unentered in (..., None):
        reveal(unentered, {"supersteps": 6}, "what happened")
        shown = capsys.readouterr().out
        assert "(not written yet)" in shown and "not this time" not in shown


def test_none_is_a_guess_when_the_run_gave_none(capsys):
    reveal(None, None, "the answer")
    assert "| right" in capsys.readouterr().out
    reveal(5, 6, "nodes")
    assert "not this time" in capsys.readouterr().out
