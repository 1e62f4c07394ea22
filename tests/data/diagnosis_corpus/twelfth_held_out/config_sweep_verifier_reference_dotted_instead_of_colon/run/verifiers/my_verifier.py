"""Exact-answer scoring."""
import re

ANSWER = re.compile(r"(?:\\boxed\{([^}]*)\}|Final answer:\s*(.+))", re.IGNORECASE)


def score(row, response_text):
    match = ANSWER.search(response_text)
    answer = (match.group(1) or match.group(2)).strip().rstrip(".") if match else response_text.strip().splitlines()[-1]
    return {"reward": float(answer.lower() == row["expected_answer"].lower()), "extracted_answer": answer}
