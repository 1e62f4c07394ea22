"""Collect string_match with our exact-match verifier (numpy-based normalizer) on the built-in engine."""
import asyncio
import sys
from pathlib import Path

import numpy as np

from gym_pipeline.engines.builtin import CollectorSettings, collect
from gym_pipeline.environments import StringMatchEnvironment
from gym_pipeline.environments.string_match import extract_answer


class ExactMatch(StringMatchEnvironment):
    def verify(self, row, response_text):
        extracted = extract_answer(response_text, row.get("extraction_mode", "final_answer")) or ""
        gold = np.char.lower(np.array([row["expected_answer"].strip()]))
        reward = (np.char.lower(np.array([extracted.strip()])) == gold).all()
        return self.verdict(reward, expected_answer=row["expected_answer"], extracted_answer=extracted)


inputs, output, url = sys.argv[1:4]
summary = asyncio.run(collect(Path(inputs), Path(output), ExactMatch(), CollectorSettings(model_url=url, concurrency=4)))
print(f"{summary.collected} collected, {summary.failed} failed of {summary.total} in {summary.elapsed_s:.1f}s")
