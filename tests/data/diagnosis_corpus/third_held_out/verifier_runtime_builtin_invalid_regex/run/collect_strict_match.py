"""Collect string_match with our stricter answer extractor on the built-in engine."""
import asyncio
import re
import sys
from pathlib import Path

from gym_pipeline.engines.builtin import CollectorSettings, collect
from gym_pipeline.environments import StringMatchEnvironment
from gym_pipeline.environments.string_match import normalize

FINAL = r"(?i)final answer\s*:\s*(?P<answer>[^\n]+"  # the last "Final answer: ..." line
BOXED = r"\\boxed\{(?P<answer>[^{}]+)\}"


class StrictMatch(StringMatchEnvironment):
    def verify(self, row, response_text):
        mode = row.get("extraction_mode", "final_answer")
        pattern = re.compile(BOXED if mode == "boxed" else FINAL)
        found = [match.group("answer").strip().rstrip(".") for match in pattern.finditer(response_text)]
        extracted = found[-1] if found else None
        correct = extracted is not None and normalize(extracted, False) == normalize(row["expected_answer"], False)
        return self.verdict(1.0 if correct else 0.0, expected_answer=row["expected_answer"], extracted_answer=extracted)


inputs, output, url = sys.argv[1:4]
summary = asyncio.run(collect(Path(inputs), Path(output), StrictMatch(), CollectorSettings(model_url=url, concurrency=4)))
print(f"{summary.collected} collected, {summary.failed} failed of {summary.total} in {summary.elapsed_s:.1f}s")
