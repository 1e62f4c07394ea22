"""Our answer verifier: partial credit for the words of the expected answer that the final answer names."""
import re

FINAL = re.compile(r"(?:final answer:|boxed\{)\s*([^}\n]+)", re.IGNORECASE)


def score(row, response_text):
    match = FINAL.search(response_text)
    answer = match.group(1).strip().rstrip(".").lower().split() if match else []
    expected = str(row["expected_answer"]).lower().split()
    # credit for each expected word found (e.g. "Beethoven" alone for "Ludwig van Beethoven")
    return float(sum(word in answer for word in expected))
