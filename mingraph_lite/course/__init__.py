"""The installed scenario: weather tools and data, scripted managers and ``make_llm``, the brief and the
experiments. What only the notebooks use lives beside them, in ``notebooks/lessons``."""
