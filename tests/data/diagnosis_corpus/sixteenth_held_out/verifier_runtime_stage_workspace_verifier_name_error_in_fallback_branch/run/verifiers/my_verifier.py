"""Exact-answer scoring with a fallback for answers without a marker."""
import re

FINAL = re.compile(r"(?:final answer:|boxed\{)\s*([^}\n]+)", re.IGNORECASE)


def score(row, response_text):
    match = FINAL.search(response_text)
    if match:
        answer = match.group(1).strip()
    else:
        answer = respone_text.strip().splitlines()[-1].strip()  # last line
    return {"reward": float(answer.lower() == str(row["expected_answer"]).strip().lower()), "extracted_answer": answer}
