"""A run script that picks its dataset from a listing, meaning the newest version, run for real by bash.

`ls data/trivia_v*.jsonl | head -1` takes the first name, the oldest version; `| tail -1` of unpadded numbers takes
v9 over v10. The run evaluates the older version and nothing fails: the finding names the line, the file taken and the
newest. Sorted by version (`sort -V | tail -1`), the newest is taken and there is no finding.
"""

import subprocess
import sys
from pathlib import Path

import pytest

from gym_pipeline.diagnose import diagnose
from gym_pipeline.environments import get_environment

CASES = [("ls data/trivia_v*.jsonl | head -1", ("trivia_v1.jsonl", "trivia_v2.jsonl"), "trivia_v1.jsonl"),
         ("ls data/trivia_v*.jsonl | tail -1", ("trivia_v9.jsonl", "trivia_v10.jsonl"), "trivia_v9.jsonl"),
         ("ls data/trivia_v*.jsonl | sort -V | tail -1", ("trivia_v9.jsonl", "trivia_v10.jsonl"), None)]


@pytest.mark.parametrize(("pick", "versions", "taken"), CASES, ids=["head", "tail_unpadded", "sorted_by_version"])
def test_a_dataset_picked_from_a_listing_names_the_older_version_taken(tmp_path: Path, policy_endpoint, pick: str,
                                                                       versions: tuple[str, str], taken: str | None):
    run = tmp_path / "run"
    (run / "data").mkdir(parents=True)
    rows = get_environment("string_match").dataset_path.read_text().splitlines(keepends=True)
    for count, name in zip((4, 8), versions, strict=True):  # the newer version has more tasks
        (run / "data" / name).write_text("".join(rows[:count]))
    cli = f"{sys.executable} -m gym_pipeline.cli"
    (run / "run_eval.sh").write_text(
        f"#!/bin/bash\ncd \"$(dirname \"$0\")\"\nDATA=$({pick})  # this week's version\n"
        f"{cli} materialize --input $DATA --num-repeats 2 --agent string_match_simple_agent "
        "--output rollouts_materialized_inputs.jsonl\n"
        f"{cli} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl "
        f"--model-url {policy_endpoint.url} --env string_match\n"
        f"{cli} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n")
    with (run / "run_eval.log").open("w") as log:
        subprocess.run(["bash", str(run / "run_eval.sh")], stdout=log, stderr=subprocess.STDOUT, check=True,
                       timeout=120)

    findings = {finding.id: finding for finding in diagnose(run).causes}

    if taken is None:
        assert "older_version_picked_from_a_listing" not in findings
        return
    top = next(iter(findings.values()))
    assert (top.category, top.id) == ("config", "older_version_picked_from_a_listing")
    assert top.title == (f"run_eval.sh:3 picks {taken} with `ls ... | {pick.split('| ')[-1]}`, not the newest "
                         f"{versions[1]}")
    assert "`ls data/trivia_v*.jsonl | sort -V | tail -1`" in top.fix
