"""Shell `while read` loops that lose what they read, run for real. A list of splits saved without a final newline:
`read` fails on its last line and the loop never evaluates that split (config; with the newline, every split runs).
A loop that tags each JSONL row without `read -r`: the backslash of each escaped line break is dropped, so the
prompts hold a plain `n` (data/schema; with `-r`, the rows are the data's)."""

import json
from pathlib import Path

import pytest
from script_support import CLI, run_scripts

from gym_pipeline.diagnose import diagnose
from gym_pipeline.environments import get_environment

ROWS = get_environment("string_match").dataset_path.read_text().splitlines(keepends=True)
EACH_SPLIT = f"""while read -r split; do
  mkdir -p results/$split
  {CLI} materialize --input splits/$split.jsonl --num-repeats 2 --agent string_match_simple_agent --output results/$split/rollouts_materialized_inputs.jsonl
  {CLI} collect --inputs results/$split/rollouts_materialized_inputs.jsonl --output results/$split/rollouts.jsonl --model-url URL --env string_match --concurrency 4
done < splits.txt
"""


@pytest.mark.parametrize("final_newline", [False, True])
def test_a_list_without_its_final_newline_loses_its_last_entry(tmp_path: Path, final_newline: bool) -> None:
    names = ["geography", "science", "arithmetic"]
    files = {f"splits/{name}.jsonl": "".join(ROWS[i * 3:i * 3 + 3]) for i, name in enumerate(names)}
    files["splits.txt"] = "\n".join(names) + ("\n" if final_newline else "")
    run = run_scripts(tmp_path, [EACH_SPLIT], files=files)
    assert (run / "results" / "arithmetic" / "rollouts.jsonl").is_file() is final_newline

    report = diagnose(run)

    if final_newline:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "read_loops_that_lose_what_they_read"), [f.title for f in report.causes]
    assert top.title == ("splits.txt has no final newline, so run_eval.sh:2 (`while read -r split; do`) never reads its "
                         "last line ('arithmetic')")
    assert top.fix.startswith("End splits.txt with a newline (`echo >> splits.txt`")


TAG = """while read OPTIONSline; do
  echo "${line%\\}}, \\"metadata\\": {\\"split\\": \\"weekly\\"}}"
done < bank.jsonl > tasks.jsonl
CLI materialize --input tasks.jsonl --num-repeats 2 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
CLI collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url URL --env string_match --concurrency 4
"""

def _with_a_context_line(line: str) -> str:
    row = json.loads(line)
    content = row["responses_create_params"]["input"][0]["content"]
    if isinstance(content, str):
        row["responses_create_params"]["input"][0]["content"] = "Context: a weekly quiz.\n" + content
    else:
        content[0]["text"] = "Context: a weekly quiz.\n" + content[0]["text"]
    return json.dumps(row) + "\n"


@pytest.mark.parametrize("options", ["", "-r "])
def test_a_read_loop_without_r_drops_the_backslashes_of_escaped_line_breaks(tmp_path: Path, options: str) -> None:
    bank = "".join(_with_a_context_line(line) if i < 2 else line for i, line in enumerate(ROWS[:8]))
    run = run_scripts(tmp_path, [TAG.replace("OPTIONS", options).replace("CLI", CLI)], files={"bank.jsonl": bank})
    assert ("quiz.nWhat" in (run / "tasks.jsonl").read_text()) is not bool(options)

    report = diagnose(run)

    if options:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("data_schema", "read_loops_that_lose_what_they_read"), [f.title for f in report.causes]
    assert top.title.startswith("run_eval.sh:2 (`while read line; do`) reads bank.jsonl without `read -r`"), top.title
    assert top.fix.startswith("In run_eval.sh line 2, read with `read -r`"), top.fix
