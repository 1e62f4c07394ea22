"""Exact-answer scoring: the boxed answer, or the text after 'Final answer:'."""
import re

BOXED = re.compile(r"\\boxed\{([^}]*)\}")


def score(row, response_text):
    boxed = BOXED.search(response_text)
    if boxed:
        answer = boxed.group(1).strip()
    else:
        lines = response_text.strip().splitlines()
        answer = lines[-1].strip() if lines else ""
        answer = answer.strip("Final answer:").strip().rstrip(".")  # drop the prefix
    return {"reward": float(answer.lower() == row["expected_answer"].lower()), "extracted_answer": answer}
