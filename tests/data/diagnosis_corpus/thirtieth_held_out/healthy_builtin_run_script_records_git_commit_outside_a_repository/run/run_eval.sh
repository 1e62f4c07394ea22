#!/bin/bash
# weekly eval
cd /work/wt-h30/tests/data/diagnosis_corpus/held_out/healthy_builtin_run_script_records_git_commit_outside_a_repository/run
echo "== weekly eval, $(date)"
/work/wt-h30/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h30/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:42427/v1 --env string_match --concurrency 4
/work/wt-h30/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
git -C /opt/team-eval-code rev-parse HEAD > eval_commit.txt || echo 'could not record the commit of the eval code'
