"""The models an agent can talk to, behind one contract (``base.LLM``); no client library is imported here."""
