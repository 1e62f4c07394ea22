"""Our answer verifier: exact match, numbers compared in a canonical form (so 42.0 and 42 agree)."""
import re
from decimal import Decimal, InvalidOperation

FINAL = re.compile(r"(?:final answer:|boxed\{)\s*([^}\n]+)", re.IGNORECASE)


def canonical(text):
    text = text.strip().rstrip(".")
    try:
        return str(Decimal(text).normalize())   # 42.0 -> 42, 3.50 -> 3.5
    except InvalidOperation:
        return text.lower()


def score(row, response_text):
    match = FINAL.search(response_text)
    lines = [line for line in response_text.strip().splitlines() if line.strip()]
    answer = match.group(1) if match else (lines[-1] if lines else "")
    return 1.0 if canonical(answer) == str(row["expected_answer"]).strip().lower() else 0.0
