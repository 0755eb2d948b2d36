"""The models an agent can talk to, behind one contract (``base.LLM``): a ``name`` and ``generate``.

One module per adapter; ``factory`` reads a model spec. Importing this package imports no client
library: each adapter imports its own when first used, and names the extra to install.
"""
