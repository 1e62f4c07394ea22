"""my_verifier.py: the answer after 'Final answer:', compared with the label without regard to case."""
import re

FINAL = re.compile(r"Final answer:\s*(.+)", re.IGNORECASE)


def score(row, response_text):
    found = FINAL.findall(response_text)
    answer = found[-1].strip().rstrip(".") if found else None
    label = str(row["expected_answer"]).strip()
    reward = 1.0 if answer is not None and answer.casefold() == label.casefold else 0.0
    return {"reward": reward, "extracted_answer": answer, "expected_answer": row["expected_answer"]}
