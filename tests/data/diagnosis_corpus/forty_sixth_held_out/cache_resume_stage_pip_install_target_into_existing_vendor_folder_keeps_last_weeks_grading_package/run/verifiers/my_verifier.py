"""my_verifier.py: graded with the team's shared team_grading package (run_eval.sh installs it into vendor/)."""
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "vendor"))
from team_grading import extract, same  # noqa: E402


def score(row, response_text):
    answer = extract(response_text)
    reward = 1.0 if same(answer, row["expected_answer"]) else 0.0
    return {"reward": reward, "extracted_answer": answer, "expected_answer": row["expected_answer"]}
