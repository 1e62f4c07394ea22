"""Collect on the built-in engine with our own environment subclass."""
import asyncio
import sys
import threading
from pathlib import Path

from gym_pipeline.engines.builtin import CollectorSettings, collect
from gym_pipeline.environments import McqaEnvironment, StringMatchEnvironment  # noqa: F401
AUDIT = Path(sys.argv[2]).with_name("verify_audit.log")


class AuditedMatch(StringMatchEnvironment):
    def verify(self, row, response_text):
        with open(AUDIT, "ab") as audit:  # one line per verification, for the compliance audit
            audit.write(f"{self.prompt_text(row)!s}\t{response_text}\n".replace("\n", " ").encode("ascii") + b"\n")
        return super().verify(row, response_text)


inputs, output, url = sys.argv[1:4]
settings = CollectorSettings(model_url=url, concurrency=4)
summary = asyncio.run(collect(Path(inputs), Path(output), AuditedMatch(), settings, resume="--resume" in sys.argv))
print(f"{summary.collected} collected, {len(summary.failed_keys)} failed of {summary.total} in {summary.elapsed_s:.1f}s",
      flush=True)
