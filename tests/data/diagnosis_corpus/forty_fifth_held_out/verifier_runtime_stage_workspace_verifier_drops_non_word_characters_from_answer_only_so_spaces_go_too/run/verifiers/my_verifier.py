"""my_verifier.py: the answer after 'Final answer:', punctuation dropped, compared with the label."""
import re

FINAL = re.compile(r"Final answer:\s*(.+)", re.IGNORECASE)


def score(row, response_text):
    found = FINAL.findall(response_text)
    answer = re.sub(r"\W", "", found[-1]) if found else None  # drop the dots, quotes and asterisks models add
    reward = 1.0 if answer is not None and answer.lower() == row["expected_answer"].strip().lower() else 0.0
    return {"reward": reward, "extracted_answer": answer, "expected_answer": row["expected_answer"]}
