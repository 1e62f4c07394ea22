"""Our exact-answer verifier: the answer after 'Final answer:' or inside \\boxed{}."""
import re

# the first group became non-capturing in last week's clean-up
ANSWER = re.compile(r"(?:final answer:|boxed\{)\s*([^}\n]+)", re.IGNORECASE)


def score(row, response_text):
    match = ANSWER.search(response_text)
    if match is None:
        return 0.0
    answer = match.group(2).strip().rstrip(".")
    return 1.0 if answer.lower() == str(row["expected_answer"]).lower() else 0.0
