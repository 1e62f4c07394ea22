"""my_verifier.py: the answer after the prompt's 'Final answer:' marker, compared with the label."""
MARKER = "Final answer:"


def score(row, response_text):
    at = response_text.lower().rfind("answer:")  # models write 'Final answer:', 'Final Answer:' or 'Answer:'
    answer = response_text[at + len(MARKER):].strip().rstrip(".") if at >= 0 else None
    reward = 1.0 if answer is not None and answer.lower() == str(row["expected_answer"]).strip().lower() else 0.0
    return {"reward": reward, "extracted_answer": answer, "expected_answer": row["expected_answer"]}
