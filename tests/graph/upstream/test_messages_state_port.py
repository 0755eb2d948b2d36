"""Ported from LangGraph ``libs/langgraph/tests/test_messages_state.py`` at tag 1.2.11 (commit 644815f9e5bc).

LangGraph's own message reducer ``add_messages`` used as an ``Annotated`` reducer on both engines:
the input goes through it (a ("user", text) pair becomes a HumanMessage with an id) before the
first node, and a reducer made by ``add_messages(format=...)`` is still a two-parameter reducer.
"""

from typing import Annotated

import pytest
from typing_extensions import TypedDict

pytest.importorskip("langgraph", reason="add_messages is LangGraph's: pip install 'mingraph-lite[langgraph]'")

from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, ToolMessage
from langgraph.graph.message import MessagesState, add_messages
from pydantic import BaseModel


class MessagesStatePydantic(BaseModel):
    messages: Annotated[list[AnyMessage], add_messages]


def assert_human(message, content):
    assert isinstance(message, HumanMessage) and message.content == content and message.id


@pytest.mark.parametrize("schema", ["MessagesState", "MessagesStatePydantic"])
def test_messages_state(engine, schema):
    """test_messages_state.py::test_messages_state, over both upstream schemas.

    Documented difference: ours takes a TypedDict state only, so the pydantic schema is refused
    with a TypeError naming the fix.
    """
    state_schema = {"MessagesState": MessagesState, "MessagesStatePydantic": MessagesStatePydantic}[schema]

    def foo(state):
        return {"messages": [HumanMessage("foo")]}

    def build():
        graph = engine.StateGraph(state_schema)
        graph.add_edge(engine.START, "foo")
        graph.add_edge("foo", engine.END)
        graph.add_node(foo)
        return engine.compile(graph)

    if engine.ours and schema == "MessagesStatePydantic":
        with pytest.raises(TypeError, match="TypedDict"):
            build()
        return
    result = build().invoke({"messages": [("user", "meow")]})
    assert list(result) == ["messages"]
    first, second = result["messages"]
    assert_human(first, "meow")
    assert_human(second, "foo")


def test_messages_state_format_openai(engine):
    """test_messages_state.py::test_messages_state_format_openai: ``add_messages(format=
    "langchain-openai")`` as the reducer turns Anthropic-style content blocks into OpenAI-style ones
    as they merge (an image block, a tool_use block, a tool_result block)."""
    class State(TypedDict):
        messages: Annotated[list[AnyMessage], add_messages(format="langchain-openai")]

    image = {"type": "image", "source": {"type": "base64", "media_type": "image/jpeg", "data": "1234"}}
    as_url = {"type": "image_url", "image_url": {"url": "data:image/jpeg;base64,1234"}}

    def foo(state):
        text = {"type": "text", "text": "Here's an image:", "cache_control": {"type": "ephemeral"}}
        tool_use = {"type": "tool_use", "name": "foo", "input": {"bar": "baz"}, "id": "1"}
        result = {"type": "tool_result", "tool_use_id": "1", "is_error": False, "content": [image]}
        return {"messages": [HumanMessage(content=[text, image]), AIMessage(content=[tool_use]),
                             HumanMessage(content=[result])]}

    graph = engine.StateGraph(State)
    graph.add_edge(engine.START, "foo")
    graph.add_edge("foo", engine.END)
    graph.add_node(foo)
    result = engine.compile(graph).invoke({"messages": [("user", "meow")]})
    for message in result["messages"]:
        message.id = None
    assert result == {"messages": [
        HumanMessage(content="meow"),
        HumanMessage(content=[{"type": "text", "text": "Here's an image:"}, as_url]),
        AIMessage(content="", tool_calls=[{"name": "foo", "type": "tool_calls", "args": {"bar": "baz"},
                                           "id": "1"}]),
        ToolMessage(content=[as_url], tool_call_id="1"),
    ]}
