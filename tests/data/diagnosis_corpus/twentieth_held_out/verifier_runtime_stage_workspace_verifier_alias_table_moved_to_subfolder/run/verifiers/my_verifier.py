"""Our answer verifier: accepts the aliases of an answer listed in aliases.json (e.g. "Au" for "gold")."""
import json
import re
from pathlib import Path

FINAL = re.compile(r"(?:final answer:|boxed\{)\s*([^}\n]+)", re.IGNORECASE)
_ALIASES = None


def aliases():
    global _ALIASES
    if _ALIASES is None:
        with open(Path(__file__).with_name("aliases.json")) as table:
            _ALIASES = {key.lower(): [v.lower() for v in values] for key, values in json.load(table).items()}
    return _ALIASES


def score(row, response_text):
    match = FINAL.search(response_text)
    answer = match.group(1).strip().rstrip(".").lower() if match else ""
    expected = str(row["expected_answer"]).lower()
    accepted = [expected, *aliases().get(expected, [])]
    return 1.0 if answer in accepted else 0.0
