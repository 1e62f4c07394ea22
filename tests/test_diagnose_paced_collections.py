"""A run script that paces its collections for a rate-limited API, run for real: it collects the data in chunks of
two rows and sleeps after each chunk; against the simulated policy each chunk takes a moment, so the step's time
limit (`timeout`, exit 124) ends the run mostly asleep, with chunks never collected. The diagnosis names the pause
(throughput). Without the pause the chunks all finish inside the limit: healthy."""

from pathlib import Path

import pytest
from script_support import CLI, run_scripts

from gym_pipeline.diagnose import diagnose

CHUNKS = f"""#!/bin/bash
# the hosted API allowed 12 requests a minute: send the eval in chunks of 2 tasks, PAUSE s apart
rm -rf chunks && mkdir -p chunks
split -l 2 -d data.jsonl chunks/part_
for part in chunks/part_??; do
  mkdir -p $part.d
  {CLI} materialize --input $part --num-repeats 2 --agent string_match_simple_agent \\
    --output $part.d/rollouts_materialized_inputs.jsonl
  {CLI} collect --inputs $part.d/rollouts_materialized_inputs.jsonl --output $part.d/rollouts.jsonl \\
    --model-url $(cat model_url.txt) --env string_match --concurrency 4
  echo "$part done"
  sleep PAUSE
done
"""


@pytest.mark.parametrize(("pause", "budget"), [(8, 20), (0, 240)])
def test_pauses_between_chunks_spend_the_step_budget(tmp_path: Path, pause: int, budget: int) -> None:
    step = f"echo URL > model_url.txt\ntimeout {budget} bash chunks.sh\necho \"CI step exit: $?\"\n"
    run = run_scripts(tmp_path, [step], files={"chunks.sh": CHUNKS.replace("PAUSE", str(pause))})

    report = diagnose(run)

    if pause == 0:
        assert (run / "chunks" / "part_04.d" / "rollouts.jsonl").is_file()
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert not (run / "chunks" / "part_04.d" / "rollouts.jsonl").is_file()
    top = report.causes[0]
    assert (top.category, top.id) == ("throughput_resources", "collections_paced_past_their_time_budget"), \
        [f.title for f in report.causes]
    assert top.title.startswith("chunks.sh:12 sleeps 8 s after each collect"), top.title
    assert top.fix.startswith("In chunks.sh line 12 (`sleep 8`), take the pause out"), top.fix
