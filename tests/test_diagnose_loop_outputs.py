"""A user's loop over the dev and test splits, run for real by bash against the simulated policy: each pass
materializes its split and collects, into the same file names. After the loop only the test split is left, and the
profile covers it alone. The same loop with the split in every output name is no finding.
"""

from pathlib import Path

import pytest
from script_support import CLI, run_scripts

from gym_pipeline.diagnose import diagnose

SPLITS = "head -4 data.jsonl > dev.jsonl\ntail -6 data.jsonl > test.jsonl\n"


def _loop(suffix: str) -> str:
    return (SPLITS + "for SPLIT in dev test; do\n  echo \"== split $SPLIT\"\n"
            f"  {CLI} materialize --input $SPLIT.jsonl --num-repeats 2 --agent string_match_simple_agent "
            f"--output rollouts_materialized_inputs{suffix}.jsonl\n"
            f"  {CLI} collect --inputs rollouts_materialized_inputs{suffix}.jsonl --output rollouts{suffix}.jsonl "
            "--model-url URL --env string_match --concurrency 4\n"
            f"  {CLI} profile --inputs rollouts_materialized_inputs{suffix}.jsonl --rollouts rollouts{suffix}.jsonl\n"
            "done\n")


@pytest.mark.parametrize("per_split", [False, True])
def test_a_loop_over_splits_writing_one_output_keeps_only_the_last_split(tmp_path: Path, per_split: bool) -> None:
    run = run_scripts(tmp_path, [_loop("_$SPLIT" if per_split else "")])
    log = (run / "logs" / "run_eval_0.log").read_text()
    assert log.count("collected, 0 already done") == 2  # both passes collected

    report = diagnose(run)

    if per_split:
        assert all(f.id != "loop_writes_every_item_to_one_output" for f in report.findings)
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "loop_writes_every_item_to_one_output")
    assert top.title == ("run_eval.sh:4 runs once per SPLIT (dev, test) but writes every pass to the same "
                         "rollouts_materialized_inputs.jsonl, rollouts.jsonl: only the last (test) is left")
    assert [line.where for line in top.evidence] == ["run_eval.sh:4", "run_eval.sh:6", "run_eval.sh:7"]
    assert top.fix.startswith("In run_eval.sh, put $SPLIT in every output the loop writes (`--output "
                              "rollouts_$SPLIT.jsonl`")
