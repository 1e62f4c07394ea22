"""Forgiving comparison: the answer may have a typo (Mississipi for Mississippi) and still count."""
from difflib import SequenceMatcher


def _final_answer(text):
    low = text.lower()
    if "final answer:" in low:
        return text[low.rindex("final answer:") + len("final answer:"):].strip().rstrip(".")
    if "\\boxed{" in text:
        return text[text.rindex("\\boxed{") + 7:].split("}")[0].strip()
    return text.strip().splitlines()[-1] if text.strip() else ""


def score(row, response_text):
    answer = _final_answer(response_text).lower()
    expected = str(row["expected_answer"]).lower()
    return 1.0 if SequenceMatcher(None, answer, expected).ratio() >= 0.5 else 0.0
