"""Our exact-answer verifier (ported from the old Python 2 grading scripts)."""
import re

FINAL = re.compile(r"(?:final answer:|boxed\{)\s*([^}\n]+)", re.IGNORECASE)


def score(row, response_text):
    text = response_text.decode("utf-8", "replace")
    match = FINAL.search(text)
    answer = match.group(1).strip().rstrip(".") if match else ""
    return 1.0 if answer.lower() == str(row["expected_answer"]).lower() else 0.0
