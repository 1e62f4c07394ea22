"""Collect on the built-in engine with our own environment subclass."""
import asyncio
import sys
from pathlib import Path

from gym_pipeline.engines.builtin import CollectorSettings, collect
from gym_pipeline.environments import McqaEnvironment, StringMatchEnvironment  # noqa: F401
from gym_pipeline.environments.string_match import extract_answer


class TidyMatch(StringMatchEnvironment):
    def verify(self, row, response_text):
        verdict = super().verify(row, response_text)
        extracted = extract_answer(response_text, row.get("extraction_mode", "final_answer"))
        # compare the tidied answers
        correct = extracted is not None and extracted.strip().lower() is row["expected_answer"].strip().lower()
        verdict["reward"] = 1.0 if correct else 0.0
        return verdict


inputs, output, url = sys.argv[1:4]
settings = CollectorSettings(model_url=url, concurrency=4)
summary = asyncio.run(collect(Path(inputs), Path(output), TidyMatch(), settings, resume="--resume" in sys.argv))
print(f"{summary.collected} collected, {len(summary.failed_keys)} failed of {summary.total} in {summary.elapsed_s:.1f}s",
      flush=True)
