"""The course's namespace: the weather data and tools, the scripted managers and ``make_llm`` (the course's
default model), the environment check, the brief, the conversation, experiments and exercises."""
