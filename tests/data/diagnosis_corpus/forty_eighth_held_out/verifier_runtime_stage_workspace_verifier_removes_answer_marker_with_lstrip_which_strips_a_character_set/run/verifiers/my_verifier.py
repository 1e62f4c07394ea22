"""my_verifier.py: the answer after the last 'Final answer:', compared with the label without regard to case."""

MARK = "Final answer:"


def score(row, response_text):
    tail = response_text[response_text.rfind(MARK):] if MARK in response_text else ""
    answer = tail.lstrip(MARK).strip().rstrip(".") or None  # drop the marker, keep the answer
    label = str(row["expected_answer"]).strip()
    reward = 1.0 if answer is not None and answer.lower() == label.lower() else 0.0
    return {"reward": reward, "extracted_answer": answer, "expected_answer": row["expected_answer"]}
