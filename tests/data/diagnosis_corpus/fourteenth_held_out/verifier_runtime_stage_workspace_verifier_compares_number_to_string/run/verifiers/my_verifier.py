"""Exact-answer scoring for our numeric string tasks: compare as numbers so "36.0" counts as "36"."""
import re

FINAL = re.compile(r"(?:final answer:|boxed\{)\s*([^}\n]+)", re.IGNORECASE)


def score(row, response_text):
    match = FINAL.search(response_text)
    answer = match.group(1).strip() if match else response_text.strip().splitlines()[-1].strip()
    try:
        value = float(answer)
    except ValueError:
        value = answer
    return {"reward": float(value == row["expected_answer"]), "extracted_answer": answer}
