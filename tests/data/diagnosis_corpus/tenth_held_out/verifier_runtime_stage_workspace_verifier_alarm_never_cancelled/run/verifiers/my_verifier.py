"""Exact-answer scoring with a one-second budget per grading (ported from our batch grader)."""
import re
import signal

ANSWER = re.compile(r"(?:\\boxed\{([^}]*)\}|Final answer:\s*(.+))", re.IGNORECASE)


def score(row, response_text):
    signal.alarm(1)  # a grading must not take more than a second
    match = ANSWER.search(response_text)
    if match is None:
        lines = response_text.strip().splitlines()
        answer = lines[-1].strip() if lines else ""
    else:
        answer = (match.group(1) or match.group(2)).strip().rstrip(".")
    return {"reward": float(answer.lower() == row["expected_answer"].lower()), "extracted_answer": answer}
