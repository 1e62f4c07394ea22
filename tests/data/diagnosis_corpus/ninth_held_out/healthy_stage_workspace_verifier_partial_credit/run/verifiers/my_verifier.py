"""Exact-answer scoring with half credit for a right answer given outside the requested format."""
import re

BOXED = re.compile(r"\\boxed\{([^}]*)\}")
FINAL = re.compile(r"Final answer:\s*(.+)", re.IGNORECASE)


def score(row, response_text):
    expected = row["expected_answer"].strip().lower()
    pattern = BOXED if row.get("extraction_mode") == "boxed" else FINAL
    match = pattern.search(response_text)
    if match:
        answer = match.group(1).strip().rstrip(".").lower()
        return {"reward": float(answer == expected), "extracted_answer": answer}
    said = expected in response_text.lower()
    return {"reward": 0.5 if said else 0.0, "extracted_answer": None}
