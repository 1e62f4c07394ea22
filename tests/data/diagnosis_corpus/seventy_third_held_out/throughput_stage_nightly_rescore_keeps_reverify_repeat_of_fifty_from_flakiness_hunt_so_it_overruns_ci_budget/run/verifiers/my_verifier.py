"""Our answer verifier: exact match, or a near-miss spelling of the same name in our gazetteer (gazetteer.txt)."""
import difflib
import re
from pathlib import Path

FINAL = re.compile(r"(?:final answer:|boxed\{)\s*([^}\n]+)", re.IGNORECASE)
NAMES = Path(__file__).with_name("gazetteer.txt").read_text().split("\n")


def score(row, response_text):
    match = FINAL.search(response_text)
    lines = [line for line in response_text.strip().splitlines() if line.strip()]
    answer = (match.group(1) if match else (lines[-1] if lines else "")).strip().rstrip(".")
    expected = str(row["expected_answer"]).strip()
    if answer.lower() == expected.lower():
        return 1.0
    # a near-miss spelling counts when the gazetteer's closest name to the answer is the expected one
    closest = max(NAMES, key=lambda name: difflib.SequenceMatcher(None, answer.lower(), name.lower()).ratio())
    return 1.0 if closest.lower() == expected.lower() else 0.0
