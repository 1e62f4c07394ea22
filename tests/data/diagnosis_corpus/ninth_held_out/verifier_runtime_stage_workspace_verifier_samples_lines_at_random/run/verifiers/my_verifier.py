"""Exact-answer scoring; looks at a few lines only (a speed-up ported from our long-document grader)."""
import random
import re

ANSWER = re.compile(r"(?:\\boxed\{([^}]*)\}|Final answer:\s*(.+))", re.IGNORECASE)


def score(row, response_text):
    lines = [line for line in response_text.splitlines() if line.strip()]
    for line in random.sample(lines, k=min(2, len(lines))):
        match = ANSWER.search(line)
        if match:
            answer = (match.group(1) or match.group(2)).strip().rstrip(".")
            return {"reward": float(answer.lower() == row["expected_answer"].lower()), "extracted_answer": answer}
    return {"reward": 0.0, "extracted_answer": None}
