"""Collect on the built-in engine with our own environment subclass."""
import asyncio
import sys
import threading
from pathlib import Path

from gym_pipeline.engines.builtin import CollectorSettings, collect
from gym_pipeline.environments import McqaEnvironment, StringMatchEnvironment  # noqa: F401
import json
import os
import urllib.request

JUDGE = os.environ["JUDGE_URL"]
JUDGE_MODEL = json.load(urllib.request.urlopen(JUDGE + "/models", timeout=10))["data"][0]["id"]


class JudgedMatch(StringMatchEnvironment):
    def verify(self, row, response_text):
        verdict = super().verify(row, response_text)
        # second opinion from the judge model (one shared judge server for the team)
        body = {"model": JUDGE_MODEL, "messages": [{"role": "user", "content": self.prompt_text(row)}]}
        request = urllib.request.Request(JUDGE + "/chat/completions", data=json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json"})
        judged = json.load(urllib.request.urlopen(request, timeout=120))
        verdict["judge_tokens"] = judged["usage"]["total_tokens"]
        return verdict


inputs, output, url = sys.argv[1:4]
settings = CollectorSettings(model_url=url, concurrency=16)
summary = asyncio.run(collect(Path(inputs), Path(output), JudgedMatch(), settings, resume="--resume" in sys.argv))
print(f"{summary.collected} collected, {len(summary.failed_keys)} failed of {summary.total} in {summary.elapsed_s:.1f}s",
      flush=True)
