"""The installed scenario: weather tools and data, scripted managers, ``make_llm``, the brief, the experiments."""
