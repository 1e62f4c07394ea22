"""Our answer check: compare letters only, so 'New-York', 'new york' and 'New York.' all match."""
import re

FINAL = re.compile(r"(?:final answer:|boxed\{)\s*([^}\n]+)", re.IGNORECASE)


def normalise(text):
    return "".join(ch for ch in str(text).lower() if ch.isalpha())


def score(row, response_text):
    match = FINAL.search(response_text)
    answer = match.group(1) if match else response_text.strip().splitlines()[-1]
    return 1.0 if normalise(answer) == normalise(row["expected_answer"]) else 0.0
