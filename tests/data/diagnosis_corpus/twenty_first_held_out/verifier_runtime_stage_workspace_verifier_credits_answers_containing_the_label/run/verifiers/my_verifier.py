"""Our lenient answer check: the label anywhere in the final answer counts ("It is Paris" for "Paris")."""
import re

FINAL = re.compile(r"(?:final answer:|boxed\{)\s*([^}\n]+)", re.IGNORECASE)


def score(row, response_text):
    match = FINAL.search(response_text)
    answer = match.group(1).strip().rstrip(".") if match else response_text
    return 1.0 if str(row["expected_answer"]).lower() in answer.lower() else 0.0
