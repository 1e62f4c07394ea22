#!/bin/bash
cd /work/h93/tests/data/diagnosis_corpus/ninety_third_held_out/model_serving_builtin_server_started_inside_command_substitution_keeps_its_stdout_pipe_so_run_script_never_gets_the_url/run
# weekly eval: start this week's policy server, then materialize, collect, profile
# (the CI step runs this script under `timeout 40`)
start_policy() {
  echo "starting the policy server on $1" >&2
  rm -f policy.url
  /work/h93/.venv/bin/gym-pipeline serve-policy --port 0 --ready-file policy.url --checkpoint "$1" --latency-ms 20 &
  until [ -s policy.url ]; do sleep 0.2; done
  echo "policy server up at $(cat policy.url)" >&2
  cat policy.url
}
URL=$(start_policy /tmp/ho-model_serving_builti-t0icji60/checkpoints/step_0200)
echo "policy server at $URL"
/work/h93/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h93/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $URL --env string_match --concurrency 4
/work/h93/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
