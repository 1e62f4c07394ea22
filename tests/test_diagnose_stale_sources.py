"""Tasks older than the sheet copied beside the run, run for real. A prep step caches the prepared rows under the
eval checkout's commit; the user fixes two labels without committing, the cache hits and hands back the rows built
before the fix (committed, the key changes: healthy). A prep merges the reviewers' corrections into the old labels
with `sort -u`, which keeps the first row of each question, the old one (corrections first: healthy). Every command
exits 0; the diagnosis compares the sheets with the tasks and names the cache and its key, or the merge line
(cache/resume)."""

import csv
import io
import json
import subprocess
from pathlib import Path

import pytest
from script_support import CLI, run_scripts

from gym_pipeline.diagnose import diagnose
from gym_pipeline.environments import get_environment

PREP = '''"""prep.py EXPORT OUT: the export's questions and labels -> string_match rows."""
import csv
import json
import sys

with open(sys.argv[1], newline="") as f, open(sys.argv[2], "w") as out:
    for record in csv.DictReader(f):
        out.write(json.dumps({"responses_create_params": {"input": [{"role": "user", "content": record["question"]}]},
                              "expected_answer": record["answer"], "extraction_mode": record["mode"]}) + "\\n")
'''
PREP_DATA = '''#!/bin/bash
# prepared rows are cached per commit of the eval checkout
KEY=$(git -C {repo} rev-parse --short HEAD)
CACHE={cache}/$KEY
if [ -f $CACHE/tasks.jsonl ]; then
  echo "prep cache hit ($KEY)"
  cp $CACHE/tasks.jsonl tasks.jsonl
else
  python3 {repo}/prep.py {repo}/labels.csv tasks.jsonl
  mkdir -p $CACHE && cp tasks.jsonl $CACHE/
fi
cp {repo}/labels.csv labels.csv   # the labels the results were made with
'''
SCRIPT = (f"bash prep_data.sh\n{CLI} materialize --input tasks.jsonl --num-repeats 2 --agent string_match_simple_agent "
          "--output rollouts_materialized_inputs.jsonl\n"
          f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url URL "
          "--env string_match --concurrency 4\n")


def _export(wrong: set[int]) -> str:
    table = io.StringIO()
    writer = csv.writer(table)
    writer.writerow(["question", "answer", "mode"])
    for index, line in enumerate(get_environment("string_match").dataset_path.read_text().splitlines()[:8]):
        row = json.loads(line)
        content = row["responses_create_params"]["input"][0]["content"]
        question = content if isinstance(content, str) else content[0]["text"]
        writer.writerow([question, "Atlantis" if index in wrong else row["expected_answer"], row["extraction_mode"]])
    return table.getvalue()


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), "-c", "user.name=eval", "-c", "user.email=eval@example.com", *args],
                   check=True, capture_output=True)


@pytest.mark.parametrize("committed", [False, True])
def test_label_fix_not_committed_keeps_the_cached_rows(tmp_path: Path, committed: bool) -> None:
    repo, cache = tmp_path / "evals", tmp_path / "cache"
    repo.mkdir()
    (repo / "prep.py").write_text(PREP)
    (repo / "labels.csv").write_text(_export({2, 5}))  # last week's labels, two of them wrong
    _git(repo, "init", "-q")
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "weekly eval labels")
    prep_data = PREP_DATA.format(repo=repo, cache=cache)
    run_scripts(tmp_path / "last_week", [SCRIPT], files={"prep_data.sh": prep_data})  # fills the cache
    (repo / "labels.csv").write_text(_export(set()))  # this week: the two labels fixed
    if committed:
        _git(repo, "commit", "-qam", "fix two labels")

    run = run_scripts(tmp_path, [SCRIPT], files={"prep_data.sh": prep_data})
    report = diagnose(run)

    if committed:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("cache_resume", "tasks_older_than_their_source"), [f.title for f in report.causes]
    assert top.title.startswith("labels.csv labels 2 questions of the tasks otherwise than the tasks do"), top.title
    assert "'Tokyo' in labels.csv, 'Atlantis' in the tasks" in top.title
    assert top.evidence[2].file == "prep_data.sh" and top.evidence[2].line == 4  # CACHE={cache}/$KEY
    assert "of the commit (an uncommitted fix keeps the commit's key, `git rev-parse HEAD`)" in top.fix, top.fix


MERGE = """#!/bin/bash
# prep.sh: labels.csv (last export) + fixes.csv (the reviewers' corrections, which win) -> merged.csv
tail -n +2 {first} > /tmp/first.$$
tail -n +2 {second} > /tmp/second.$$
(head -1 labels.csv; cat /tmp/first.$$ /tmp/second.$$ | sort -s -t, -k1,1 -u) > merged.csv
python3 to_jsonl.py merged.csv
"""
TO_JSONL = '''import csv, json, sys
with open(sys.argv[1], newline="") as f, open("tasks.jsonl", "w") as out:
    for record in csv.DictReader(f):
        out.write(json.dumps({"responses_create_params": {"input": [{"role": "user", "content": record["question"]}]},
                              "expected_answer": record["answer"], "extraction_mode": record["mode"]}) + "\\n")
'''


@pytest.mark.parametrize("corrections_first", [False, True])
def test_corrections_merged_after_the_old_labels_with_sort_u_never_apply(tmp_path: Path, corrections_first: bool):
    old, fixed = _export({2, 5}), _export(set())
    corrections = "".join([fixed.splitlines(keepends=True)[0], *(fixed.splitlines(keepends=True)[i + 1] for i in (2, 5))])
    first, second = ("fixes.csv", "labels.csv") if corrections_first else ("labels.csv", "fixes.csv")
    files = {"labels.csv": old, "fixes.csv": corrections, "to_jsonl.py": TO_JSONL,
             "prep.sh": MERGE.format(first=first, second=second)}
    run = run_scripts(tmp_path, [SCRIPT.replace("bash prep_data.sh", "bash prep.sh")], files=files)

    report = diagnose(run)

    if corrections_first:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("cache_resume", "tasks_older_than_their_source"), [f.title for f in report.causes]
    assert top.title.startswith("None of the 2 corrections of fixes.csv reached the tasks"), top.title
    assert top.fix.startswith("In prep.sh line 5 (`(head -1 labels.csv; cat /tmp/first.$$ /tmp/second.$$ | sort -s "
                              "-t, -k1,1 -u) > merged.csv`), make the corrections win"), top.fix
