"""The teaching scenarios: the weather data and tools, scripted managers, the brief, experiments."""
