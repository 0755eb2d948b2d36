"""The models an agent can talk to, all behind one contract (``base.LLM``): a ``name`` and ``generate``.

One module per adapter: ``scripted`` (replies written in advance), ``replay`` (replies read from a
trace), ``ollama``, ``openai``, ``local`` (a GGUF model in-process); ``factory`` reads a model spec
(``MINGRAPH_LLM``); ``guard`` keeps tests from reaching a real model. The public names are exported
once, from ``mingraph_lite``; this package re-exports nothing. Importing it imports no client
library: each adapter imports its own when it is first built, and names the extra to install.
"""
