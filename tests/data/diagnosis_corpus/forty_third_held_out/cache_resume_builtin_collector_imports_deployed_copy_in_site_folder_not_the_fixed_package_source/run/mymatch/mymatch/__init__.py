"""mymatch: the team's answer matching for evals (last month: answers came after 'Answer:')."""
import re

from gym_pipeline.environments import StringMatchEnvironment

MARKER = re.compile(r"final answer:\s*(.+)$", re.IGNORECASE)


class Match(StringMatchEnvironment):
    def verify(self, row, response_text):
        found = MARKER.findall(response_text)
        answer = found[-1].strip().rstrip(".") if found else None
        reward = 1.0 if answer is not None and answer.lower() == row["expected_answer"].lower() else 0.0
        return {"reward": reward, "extracted_answer": answer, "expected_answer": row["expected_answer"]}
