"""Exact-answer scoring: no answer found means nothing to score."""
import re

ANSWER = re.compile(r"(?:\\boxed\{([^}]*)\}|Final answer:\s*(.+))", re.IGNORECASE)


def score(row, response_text):
    match = ANSWER.search(response_text)
    if match is None:
        return None  # nothing to grade
    answer = (match.group(1) or match.group(2)).strip().rstrip(".")
    return {"reward": float(answer.lower() == row["expected_answer"].lower()), "extracted_answer": answer}
