"""Exact-answer scoring for our string tasks."""


def score(row, response_text):
    answer = response_text.strip().splitlines()[0].strip()  # the answer line
    for prefix in ("Final answer:", "\\boxed{"):
        answer = answer.removeprefix(prefix).rstrip("}").strip()
    return {"reward": float(answer.lower() == str(row["expected_answer"]).lower()), "extracted_answer": answer}
