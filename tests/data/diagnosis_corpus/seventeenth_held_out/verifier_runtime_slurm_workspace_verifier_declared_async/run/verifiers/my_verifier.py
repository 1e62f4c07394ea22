"""Our exact-answer verifier (async, like the resources servers' verify)."""
import re

FINAL = re.compile(r"(?:final answer:|boxed\{)\s*([^}\n]+)", re.IGNORECASE)


async def score(row, response_text):
    match = FINAL.search(response_text)
    answer = match.group(1).strip().rstrip(".") if match else ""
    return 1.0 if answer.lower() == str(row["expected_answer"]).lower() else 0.0
