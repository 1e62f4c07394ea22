"""Exact-answer scoring."""


def score(row, response_text):
    answer = response_text.strip()
    return {"reward": float(answer.lower() == row["expected_answer"].lower()), "extracted_answer": answer}
