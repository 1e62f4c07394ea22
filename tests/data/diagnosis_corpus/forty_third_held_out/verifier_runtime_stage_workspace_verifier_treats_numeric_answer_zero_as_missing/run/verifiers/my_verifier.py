"""my_verifier.py: numeric answers after 'Final answer:' compared as numbers (so 42.0 == 42)."""
import re

FINAL = re.compile(r"final answer:\s*(.+)", re.IGNORECASE)


def _number(text):
    try:
        return float(text.strip().rstrip(".").replace(",", ""))
    except ValueError:
        return None


def score(row, response_text):
    found = FINAL.findall(response_text)
    answer = _number(found[-1]) if found else None
    if not answer:  # no number in the reply
        return {"reward": 0.0, "extracted_answer": None, "expected_answer": row["expected_answer"]}
    reward = 1.0 if answer == _number(row["expected_answer"]) else 0.0
    return {"reward": reward, "extracted_answer": found[-1].strip(), "expected_answer": row["expected_answer"]}
