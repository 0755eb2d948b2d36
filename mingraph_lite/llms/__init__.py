"""The models an agent can talk to, all behind one contract (``base.LLM``): a ``name`` and ``generate``.

One module per adapter; ``factory`` reads a model spec (``MINGRAPH_LLM``). The public names are
exported from ``mingraph_lite``. Importing this package imports no client library: each adapter
imports its own when first built, and names the extra to install.
"""
