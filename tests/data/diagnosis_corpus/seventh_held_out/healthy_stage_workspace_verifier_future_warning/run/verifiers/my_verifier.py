"""Exact-answer scoring for our string tasks."""
import re
import warnings

warnings.warn("my_verifier: the `strict` option will default to True in the next release", FutureWarning,
              stacklevel=1)

FINAL = re.compile(r"(?:final answer:|boxed\{)\s*([^}\n]+)", re.IGNORECASE)


def score(row, response_text):
    match = FINAL.search(response_text)
    answer = match.group(1).strip() if match else response_text.strip().splitlines()[-1].strip()
    return {"reward": float(answer.lower() == str(row["expected_answer"]).lower()), "extracted_answer": answer}
