"""Reference answers for notebook 00, and plausible wrong ones with the hint each must get."""

SOLUTIONS = {
    "00.1": ("MINGRAPH_LLM", "scripted"),
    "00.2": "04",
}

WRONG = {
    "00.1": [(("OPENAI_API_KEY", "scripted"), "'How to run the course' table"),
             (("MINGRAPH_LLM", "local"), "written in advance")],
    "00.2": [("01", "listeners"), ("05", "listeners")],
}
