"""my_verifier.py: every answer is checked in its own Python process (answers are untrusted model output:
a crash or a hang in the comparison must not take the collector down)."""
import re
import subprocess
import sys

FINAL = re.compile(r"final answer:\s*(.+)", re.IGNORECASE)
CHECK = """
import sys
from pandas.api.types import is_number  # the team's numeric normalisation
answer, expected = sys.argv[1].strip().lower(), sys.argv[2].strip().lower()
try:
    same = float(answer) == float(expected)
except ValueError:
    same = answer == expected
print(1.0 if same else 0.0)
"""


def score(row, response_text):
    found = FINAL.findall(response_text)
    answer = found[-1].strip().rstrip(".") if found else None
    reward = 0.0
    if answer is not None:
        checked = subprocess.run([sys.executable, "-c", CHECK, answer, row["expected_answer"]], capture_output=True,
                                 text=True, timeout=60)
        reward = float(checked.stdout.strip() or 0.0)
    return {"reward": reward, "extracted_answer": answer, "expected_answer": row["expected_answer"]}
