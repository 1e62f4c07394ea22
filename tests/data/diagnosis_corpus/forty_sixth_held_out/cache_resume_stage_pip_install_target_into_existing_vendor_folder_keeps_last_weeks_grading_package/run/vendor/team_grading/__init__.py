"""team_grading: the team's shared answer grading."""
import re

__version__ = "1.0.0"
FINAL = re.compile(r"final answer:\s*(\w+)", re.IGNORECASE)


def extract(text):
    found = FINAL.findall(text)
    return found[-1].strip().rstrip(".") if found else None


def same(answer, label):
    return answer is not None and answer.strip().lower() == str(label).strip().lower()
