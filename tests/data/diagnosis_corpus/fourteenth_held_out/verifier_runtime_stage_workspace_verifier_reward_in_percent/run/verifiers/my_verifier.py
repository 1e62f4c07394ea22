"""Exact-answer scoring; reports accuracy in percent, as our leaderboard shows it."""
import re

FINAL = re.compile(r"(?:final answer:|boxed\{)\s*([^}\n]+)", re.IGNORECASE)


def score(row, response_text):
    match = FINAL.search(response_text)
    answer = match.group(1).strip() if match else response_text.strip().splitlines()[-1].strip()
    return {"reward": 100.0 * (answer.lower() == str(row["expected_answer"]).lower()), "extracted_answer": answer}
