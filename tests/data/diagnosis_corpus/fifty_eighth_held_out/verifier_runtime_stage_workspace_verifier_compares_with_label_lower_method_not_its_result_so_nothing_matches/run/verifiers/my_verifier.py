"""my_verifier.py: the answer after 'Final answer:', compared with the label without regard to case."""
MARK = "final answer:"


def score(row, response_text):
    text = response_text.strip()
    at = text.lower().rfind(MARK)
    answer = text[at + len(MARK):].strip().rstrip(".") if at >= 0 else ""
    label = str(row["expected_answer"]).strip()
    reward = 1.0 if answer.lower() == label.lower else 0.0
    return {"reward": reward, "extracted_answer": answer, "expected_answer": label}
