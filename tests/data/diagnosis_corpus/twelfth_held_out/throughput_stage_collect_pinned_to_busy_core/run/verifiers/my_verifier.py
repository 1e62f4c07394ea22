"""Exact-answer scoring, tolerant of small typos (edit distance against every alias spelling)."""
import re

ANSWER = re.compile(r"(?:\\boxed\{([^}]*)\}|Final answer:\s*(.+))", re.IGNORECASE)


def _distance(a, b):
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        current = [i]
        for j, y in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x != y)))
        previous = current
    return previous[-1]


def score(row, response_text):
    match = ANSWER.search(response_text)
    answer = (match.group(1) or match.group(2)).strip().rstrip(".").lower() if match else ""
    expected = row["expected_answer"].lower()
    aliases = [expected + suffix for suffix in ("", " ", ".")] * 1000  # the alias table, padded as in production
    best = min(_distance(answer * 20, alias * 20) for alias in aliases)
    return {"reward": float(best <= 1), "extracted_answer": answer}
