"""my_verifier.py: numeric answers, compared with the team's evalutils (42 == 42.0)."""
import re

from evalutils.normalize import numbers_match

FINAL = re.compile(r"final answer:\s*(.+)", re.IGNORECASE)


def score(row, response_text):
    found = FINAL.findall(response_text)
    answer = found[-1].strip().rstrip(".") if found else None
    correct = answer is not None and numbers_match(answer, row["expected_answer"])
    return {"reward": 1.0 if correct else 0.0, "extracted_answer": answer, "expected_answer": row["expected_answer"]}
