"""A run script that starts its model server in a function called inside a command substitution, run for real:
`URL=$(start_policy CKPT)`, where start_policy runs `serve-policy ... &` and prints the address. The server keeps the
substitution's stdout pipe open, so the assignment never returns: the server comes up, nothing is collected and the
step's time limit ends the script. The diagnosis names the call and the background line (model serving). With the
server's output redirected to a log, the script goes on and the run is healthy."""

import subprocess
from pathlib import Path

import pytest
from script_support import CLI, run_eval_script, string_match_run

from gym_pipeline.diagnose import diagnose

EVAL = """#!/bin/bash
start_policy() {{
  rm -f {ready}
  {cli} serve-policy --port 0 --ready-file {ready} --checkpoint "$1" --latency-ms 20{redirect} &
  until [ -s {ready} ]; do sleep 0.2; done
  cat {ready}
}}
URL=$(start_policy {checkpoint})
echo "policy server at $URL"
{cli} materialize --input data.jsonl --num-repeats 2 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
{cli} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $URL --env string_match --concurrency 4
"""


@pytest.mark.parametrize("redirect", ["", " > logs/model_server.log 2>&1"])
def test_a_server_started_in_a_command_substitution_holds_its_pipe(tmp_path: Path, redirect: str) -> None:
    run, checkpoint = string_match_run(tmp_path, 6)
    ready = run / "policy.url"
    (run / "eval.sh").write_text(EVAL.format(ready=ready, cli=CLI, redirect=redirect, checkpoint=checkpoint))
    (run / "run_eval.sh").write_text("#!/bin/bash\ntimeout 40 bash eval.sh\necho \"CI step exit: $?\"\n")
    try:
        run_eval_script(run)
    finally:
        subprocess.run(["pkill", "-f", f"--ready-file {ready}"], check=False)

    report = diagnose(run)

    if redirect:
        assert (run / "rollouts.jsonl").is_file()
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert not (run / "rollouts.jsonl").exists()
    top = report.causes[0]
    assert (top.category, top.id) == ("model_serving", "server_started_in_a_command_substitution"), \
        [f.title for f in report.causes]
    assert top.title.startswith("eval.sh:8 runs `start_policy` in a command substitution"), top.title
    assert top.fix.startswith("In eval.sh line 4, redirect the background command's stdout"), top.fix
