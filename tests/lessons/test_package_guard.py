"""The guard that lets a check refuse an answer which only calls the package's own version (issue 21)."""

from __future__ import annotations

from lessons.exercises.package_guard import PackageCalled, calls_package, refusing
from mingraph_lite.llms.ollama import to_ollama_messages
from mingraph_lite.messages import UserMessage
from mingraph_lite.tools import Tool, ToolRegistry


def one_tool(a: int) -> int:
    """Return a.

    Args:
        a: A number.
    """
    return a


def by_the_registry(fn):
    registry = ToolRegistry()
    registry.add(fn)
    return registry.tools[0]


def by_hand(fn):
    return {"type": "function", "function": {"name": fn.__name__}}


def test_an_answer_that_reaches_the_package_through_another_name_is_caught():
    alias = to_ollama_messages
    assert calls_package(by_the_registry, (Tool.from_function,), one_tool)
    assert calls_package(lambda folder: alias(folder), (to_ollama_messages,), [UserMessage("hi")])


def test_an_answer_written_by_hand_is_not_caught_and_a_crash_is_not_a_call():
    assert not calls_package(by_hand, (Tool.from_function,), one_tool)
    assert not calls_package(lambda fn: 1 / 0, (Tool.from_function,), one_tool)


def test_the_package_works_again_after_the_guard_even_when_the_block_raised():
    try:
        with refusing(Tool.from_function, to_ollama_messages):
            to_ollama_messages([])
    except PackageCalled:
        pass
    assert by_the_registry(one_tool)["function"]["name"] == "one_tool"
    assert to_ollama_messages([UserMessage("hi")]) == [{"role": "user", "content": "hi"}]


def test_a_copy_of_the_package_function_made_before_the_guard_is_caught_too():
    import types

    copy = types.FunctionType(to_ollama_messages.__code__, to_ollama_messages.__globals__, "mine")
    from_function = Tool.from_function.__func__
    made = types.FunctionType(from_function.__code__, from_function.__globals__, "made", from_function.__defaults__)
    assert calls_package(lambda folder: copy(folder), (to_ollama_messages,), [UserMessage("hi")])
    assert calls_package(lambda fn: made(Tool, fn).spec, (Tool.from_function,), one_tool)
    assert not calls_package(by_hand, (to_ollama_messages,), one_tool)  # the hook notes only the originals' code


def test_a_fresh_copy_of_the_packages_module_loaded_from_its_file_is_caught_too():
    """A reader passed 01.1 and 01.2 by loading tools.py again under another name: same source, new code objects."""
    import importlib.util

    import mingraph_lite.llms.ollama as ollama_module

    spec = importlib.util.spec_from_file_location("my_own_adapter", ollama_module.__file__)
    copy = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(copy)
    assert copy.to_ollama_messages is not to_ollama_messages
    assert copy.to_ollama_messages.__code__ is not to_ollama_messages.__code__
    assert calls_package(lambda folder: copy.to_ollama_messages(folder), (to_ollama_messages,), [UserMessage("hi")])
    assert not calls_package(by_hand, (to_ollama_messages,), one_tool)  # other code is still not caught
