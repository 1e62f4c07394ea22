"""my_verifier.py: the answer after the last 'Final answer:', compared with the label."""

MARK = "Final answer:"


def score(row, response_text):
    answer = response_text.rsplit(MARK, 1)[-1].strip().rstrip(".").lower() if MARK in response_text else None
    label = str(row["expected_answer"]).strip().lower()  # fix: the label is lower-cased too (was: Canberra != canberra)
    reward = 1.0 if answer == label else 0.0
    return {"reward": reward, "extracted_answer": answer, "expected_answer": row["expected_answer"]}
