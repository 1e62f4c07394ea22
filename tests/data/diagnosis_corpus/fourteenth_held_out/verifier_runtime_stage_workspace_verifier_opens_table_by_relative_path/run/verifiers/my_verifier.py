"""Exact-answer scoring with our table of accepted spellings (aliases.json, kept beside this file)."""
import json
import re

FINAL = re.compile(r"(?:final answer:|boxed\{)\s*([^}\n]+)", re.IGNORECASE)


def score(row, response_text):
    with open("verifiers/aliases.json") as handle:  # works when run from the workspace root
        aliases = json.load(handle)
    match = FINAL.search(response_text)
    answer = match.group(1).strip() if match else response_text.strip().splitlines()[-1].strip()
    answer = aliases.get(answer.lower(), answer.lower())
    return {"reward": float(answer == str(row["expected_answer"]).lower()), "extracted_answer": answer}
