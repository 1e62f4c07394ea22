"""A Python driver running one eval per split, whose list of splits lost a comma when a line was added, run for real:
Python joins the two file names into one, the driver skips the name it cannot find, and two splits are never
evaluated while every command exits 0. The diagnosis names the line (config). With the comma, every split runs."""

from pathlib import Path

import pytest
from script_support import CLI, run_scripts

from gym_pipeline.diagnose import diagnose
from gym_pipeline.environments import get_environment

DRIVER = '''"""run_splits.py: the weekly eval, one run folder per split."""
import os
import subprocess
import sys

SPLITS = [
    "splits/geography.jsonl",
    "splits/science.jsonl"COMMA
    "splits/arithmetic.jsonl",  # added this week
]
for split in SPLITS:
    if not os.path.exists(split):
        print(f"warning: {split} not found, skipping")
        continue
    out = "runs/" + os.path.basename(split).removesuffix(".jsonl")
    os.makedirs(out, exist_ok=True)
    for step in (f"materialize --input {split} --num-repeats 2 --agent string_match_simple_agent "
                 f"--output {out}/rollouts_materialized_inputs.jsonl",
                 f"collect --inputs {out}/rollouts_materialized_inputs.jsonl --output {out}/rollouts.jsonl "
                 f"--model-url {sys.argv[1]} --env string_match --concurrency 4"):
        subprocess.run(CLI.split() + step.split(), check=True)
'''


@pytest.mark.parametrize("comma", ["", ","])
def test_two_splits_joined_by_a_missing_comma_are_skipped(tmp_path: Path, comma: str) -> None:
    rows = get_environment("string_match").dataset_path.read_text().splitlines(keepends=True)
    splits = {f"splits/{name}.jsonl": "".join(rows[index * 3:index * 3 + 3])
              for index, name in enumerate(["geography", "science", "arithmetic"])}
    driver = DRIVER.replace("COMMA", comma).replace("CLI.split()", repr(CLI.split()))
    run = run_scripts(tmp_path, ["python3 run_splits.py URL\n"], files={"run_splits.py": driver, **splits})

    report = diagnose(run)

    if comma:
        assert (run / "runs" / "arithmetic" / "rollouts.jsonl").is_file()
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "list_items_joined_by_a_missing_comma"), [f.title for f in report.causes]
    assert top.title == ("run_splits.py:8 lacks a comma after 'splits/science.jsonl': Python joined it with the next "
                         "item into 'splits/science.jsonlsplits/arithmetic.jsonl', which the run looked for and skipped")
    assert top.fix.startswith("Add the comma after 'splits/science.jsonl' in run_splits.py line 8 (SPLITS)")
