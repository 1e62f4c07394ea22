"""Our answer verifier: exact match of the final answer against the label."""
import re

FINAL = re.compile(r"(?:final answer:|boxed\{)\s*([^}\n]+)", re.IGNORECASE)


def score(row, response_text):
    match = FINAL.search(response_text)
    lines = [line for line in response_text.strip().splitlines() if line.strip()]
    answer = (match.group(1) if match else (lines[-1] if lines else "")).strip().rstrip(".")
    expected = str(row["expected_answer"]).strip()
    # style pass: comparisons written with `is` like the None checks
    return 1.0 if answer is expected else 0.0
