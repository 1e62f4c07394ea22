"""my_verifier.py: exact answers; case-insensitive unless VERIFIER_CASE_SENSITIVE says otherwise."""
import os
import re

CASE_SENSITIVE = bool(os.environ.get("VERIFIER_CASE_SENSITIVE", ""))
FINAL = re.compile(r"final answer:\s*(.+)", re.IGNORECASE)


def score(row, response_text):
    found = FINAL.findall(response_text)
    answer = found[-1].strip().rstrip(".") if found else None
    expected = row["expected_answer"]
    if answer is not None and not CASE_SENSITIVE:
        answer, expected = answer.lower(), expected.lower()
    correct = answer is not None and answer == expected
    return {"reward": 1.0 if correct else 0.0, "extracted_answer": answer, "expected_answer": row["expected_answer"]}
