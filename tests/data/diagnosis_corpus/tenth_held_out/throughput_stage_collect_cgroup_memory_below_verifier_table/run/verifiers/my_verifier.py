"""Exact-answer scoring against every accepted spelling (the alias table of the production grader)."""
import re

ANSWER = re.compile(r"(?:\\boxed\{([^}]*)\}|Final answer:\s*(.+))", re.IGNORECASE)
# every spelling we accept for every answer we know: built once, at import
ALIASES = {f"{word}-{variant}": word for word in range(400_000) for variant in range(6)}


def score(row, response_text):
    match = ANSWER.search(response_text)
    answer = (match.group(1) or match.group(2)).strip().rstrip(".") if match else ""
    canonical = ALIASES.get(answer.lower(), answer.lower())
    return {"reward": float(canonical == row["expected_answer"].lower()), "extracted_answer": answer}
