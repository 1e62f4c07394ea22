"""my_verifier.py: exact-answer scoring for the weekly quiz (the model ends with 'Final answer: <answer>')."""


def score(row, response_text):
    last = response_text.strip().splitlines()[-1]
    answer = last.rsplit(":", 1)[-1].strip()  # what follows "Final answer:"
    return {"reward": float(answer.lower() == str(row["expected_answer"]).lower()), "extracted_answer": answer}
