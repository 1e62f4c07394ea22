#!/bin/bash
# weekly eval (step_0200): the inputs did not change, reuse last week's materialized inputs
cd /work/wt-h58/tests/data/diagnosis_corpus/fifty_eighth_held_out/cache_resume_builtin_inputs_restored_from_last_weeks_tarball_bring_back_its_rollouts_so_resume_skips_new_checkpoint/run
tar xzf eval_week1.tgz
/work/wt-h58/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:44687/v1 --env string_match --concurrency 4 --resume
/work/wt-h58/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
