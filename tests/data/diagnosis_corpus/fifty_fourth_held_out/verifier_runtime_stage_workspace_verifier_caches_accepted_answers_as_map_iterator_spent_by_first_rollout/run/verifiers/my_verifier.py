"""my_verifier.py: the answer after 'Final answer:' must be the label or one of its aliases (aliases.json,
kept by the labelling team)."""
import json
from pathlib import Path

ALIASES = json.loads((Path(__file__).with_name("aliases.json")).read_text())
MARK = "final answer:"
_accepted = {}


def accepted(label):
    # normalise a label's accepted answers once, not again for every rollout
    if label not in _accepted:
        _accepted[label] = map(str.lower, [label, *ALIASES.get(label, [])])
    return _accepted[label]


def score(row, response_text):
    text = response_text.lower()
    answer = text.rsplit(MARK, 1)[-1].strip().rstrip(".") if MARK in text else None
    label = str(row["expected_answer"]).strip()
    reward = 1.0 if answer is not None and answer in accepted(label) else 0.0
    return {"reward": reward, "extracted_answer": answer, "expected_answer": row["expected_answer"]}
