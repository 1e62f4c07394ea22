"""This week's tasks unpacked beside last week's copy by tools that keep a file they find, run for real by bash:
`gunzip -k` ("already exists; not overwritten"), `unzip` with no terminal to answer its question, `tar -k`. The run
reads last week's labels and the model's right answers to the fixed tasks score 0 (every eval command exits 0). The
diagnosis names the tool's line and its option to replace. With `gunzip -kf`, healthy."""

import gzip
import io
import json
import tarfile
import zipfile
from pathlib import Path

import pytest
from script_support import CLI, run_scripts

from gym_pipeline.diagnose import diagnose

CAPITALS = {"France": "Paris", "Peru": "Lima", "Norway": "Oslo", "Japan": "Tokyo", "Kenya": "Nairobi",
            "Chile": "Santiago"}
LAST_WEEK = {"France": "Lyon", "Peru": "Cusco", "Japan": "Osaka"}  # labels the data team has fixed since


def _rows(labels: dict[str, str]) -> str:
    return "".join(json.dumps({"responses_create_params": {"input": [{"role": "user", "content": f"What is the capital "
                                                                      f"of {country}? End your response with 'Final "
                                                                      "answer: <answer>'."}]},
                               "expected_answer": answer, "extraction_mode": "final_answer"}) + "\n"
                   for country, answer in labels.items())


def _archive(kind: str, text: str) -> tuple[str, bytes]:
    if kind == "gz":
        return "tasks.jsonl.gz", gzip.compress(text.encode())
    packed = io.BytesIO()
    if kind == "zip":
        with zipfile.ZipFile(packed, "w") as archive:
            archive.writestr("tasks.jsonl", text)
        return "tasks.zip", packed.getvalue()
    with tarfile.open(fileobj=packed, mode="w:gz") as archive:
        member = tarfile.TarInfo("tasks.jsonl")
        member.size = len(text.encode())
        archive.addfile(member, io.BytesIO(text.encode()))
    return "tasks.tar.gz", packed.getvalue()


UNPACKS = {"gunzip -k": ("gz", "gunzip -k tasks.jsonl.gz", "`gunzip -f`"),
           "unzip": ("zip", "unzip tasks.zip", "`unzip -o`"),
           "tar -k": ("tar", "tar -xkzf tasks.tar.gz", "`tar --overwrite`"),
           "gunzip -kf": ("gz", "gunzip -kf tasks.jsonl.gz", None)}


@pytest.mark.parametrize("unpack", list(UNPACKS))
def test_this_weeks_tasks_unpacked_beside_last_weeks_copy_that_the_tool_keeps(tmp_path: Path, unpack: str) -> None:
    kind, command, option = UNPACKS[unpack]
    this_week = _rows(CAPITALS)
    run = tmp_path / "run"
    run.mkdir()
    (run / "tasks.jsonl").write_text(_rows(CAPITALS | LAST_WEEK))
    archive, packed = _archive(kind, this_week)
    (run / archive).write_bytes(packed)
    script = (f"# this week's tasks from the data team\n{command}\n"
              f"{CLI} materialize --input tasks.jsonl --num-repeats 3 --agent string_match_simple_agent "
              "--output rollouts_materialized_inputs.jsonl\n"
              f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url URL "
              "--env string_match --concurrency 4\n"
              f"{CLI} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n")
    run_scripts(tmp_path, [script], checkpoint_of_script=[1], rows=[json.loads(row) for row in this_week.splitlines()])

    report = diagnose(run)

    if option is None:
        assert (run / "tasks.jsonl").read_text() == this_week
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert (run / "tasks.jsonl").read_text() != this_week  # the tool kept last week's copy
    top = report.causes[0]
    assert (top.category, top.id) == ("cache_resume", "data_kept_by_an_unpacking_tool"), [
        f.title for f in report.causes]
    tool = command.split()[0]
    assert top.title == f"{tool} did not replace the tasks.jsonl already there (run_eval.sh:3): the run read the old tasks.jsonl"
    assert [line.where for line in top.evidence][1:] == ["run_eval.sh:3", "run_eval.sh:4"]
    assert top.fix.startswith(f"Let the unpacking replace the file: {option} in run_eval.sh:3")
