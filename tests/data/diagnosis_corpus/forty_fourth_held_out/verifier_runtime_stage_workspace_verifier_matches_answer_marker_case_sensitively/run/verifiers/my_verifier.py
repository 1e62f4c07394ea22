"""my_verifier.py: the answer after the 'Final Answer:' marker (as in the paper's prompt), compared exactly."""
import re

FINAL = re.compile(r"Final Answer:\s*(.+)")


def score(row, response_text):
    found = FINAL.findall(response_text)
    answer = found[-1].strip().rstrip(".") if found else None
    reward = 1.0 if answer is not None and answer.lower() == row["expected_answer"].strip().lower() else 0.0
    return {"reward": reward, "extracted_answer": answer, "expected_answer": row["expected_answer"]}
