"""Exact-answer scoring for the exact_answer environment."""
import re

ANSWER = re.compile(r"(?:\\boxed\{([^}]*)\}|Final answer:\s*(.+)|^(.+)$)", re.IGNORECASE)


def score(row, response_text):
    text = response_text.strip()
    if row.get("extraction_mode") == "last_line":
        text = text.splitlines()[-1] if text else ""
    match = ANSWER.match(text)
    if match is None:
        return {"reward": 0.0, "extracted_answer": None}
    answer = next(group for group in match.groups() if group is not None).strip().rstrip(".")
    return {"reward": float(answer.lower() == row["expected_answer"].lower()), "extracted_answer": answer}
