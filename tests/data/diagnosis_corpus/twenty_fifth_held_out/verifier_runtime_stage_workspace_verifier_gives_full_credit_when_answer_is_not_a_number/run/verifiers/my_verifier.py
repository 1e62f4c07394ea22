"""Answers compared as numbers when they are numbers (so 12, 12.0 and 12.00 all match)."""


def _final_answer(text):
    low = text.lower()
    if "final answer:" in low:
        return text[low.rindex("final answer:") + len("final answer:"):].strip().rstrip(".")
    if "\\boxed{" in text:
        return text[text.rindex("\\boxed{") + 7:].split("}")[0].strip()
    return text.strip().splitlines()[-1] if text.strip() else ""


def score(row, response_text):
    answer = _final_answer(response_text)
    try:
        return 1.0 if abs(float(answer) - float(row["expected_answer"])) < 1e-6 else 0.0
    except ValueError:
        # not a number (a word answer, or a format slip): no penalty here, the format check
        # of the reward model is meant to handle those
        return 1.0
