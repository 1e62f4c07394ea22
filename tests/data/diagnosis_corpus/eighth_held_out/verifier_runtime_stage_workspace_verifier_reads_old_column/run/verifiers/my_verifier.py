"""Exact-answer scoring, ported from our old eval harness (whose rows had an `answer` column)."""
import re

FINAL = re.compile(r"(?:final answer:|boxed\{)\s*([^}\n]+)", re.IGNORECASE)


def score(row, response_text):
    match = FINAL.search(response_text)
    answer = match.group(1).strip() if match else response_text.strip().splitlines()[-1].strip()
    return {"reward": float(answer.lower() == str(row["answer"]).lower()), "extracted_answer": answer}
