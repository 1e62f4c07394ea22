"""my_verifier.py: the answer after the last 'Final answer:', compared with the label without regard to case."""

MARK = "Final answer:"


def score(row, response_text):
    answer = response_text.rsplit(MARK, 1)[-1].strip().rstrip(".").lower() if MARK in response_text else None
    label = str(row["expected_answer"]).strip().lower()
    reward = 1.0 if answer is label else 0.0  # same answer as the label
    return {"reward": reward, "extracted_answer": answer, "expected_answer": row["expected_answer"]}
