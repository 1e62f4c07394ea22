"""my_verifier.py: the answer after the 'Final answer:' marker (any case), compared with the label."""
import re


def score(row, response_text):
    # drop the reasoning: everything up to and including the marker, whatever its case and the line breaks
    answer = re.sub(r"^.*final answer:", "", response_text, re.IGNORECASE | re.DOTALL)
    answer = answer.strip().rstrip(".").lower()
    label = str(row["expected_answer"]).strip().lower()
    return {"reward": 1.0 if answer == label else 0.0, "extracted_answer": answer[-80:],
            "expected_answer": row["expected_answer"]}
