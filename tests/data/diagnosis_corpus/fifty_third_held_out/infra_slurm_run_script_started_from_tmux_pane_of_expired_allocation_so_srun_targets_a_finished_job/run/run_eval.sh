#!/bin/bash
# run_eval.sh: the weekly eval, run from the eval tmux session; the steps go through srun so they show in sacct
cd /work/wt-h53/tests/data/diagnosis_corpus/fifty_third_held_out/infra_slurm_run_script_started_from_tmux_pane_of_expired_allocation_so_srun_targets_a_finished_job/run
echo "== weekly eval on $(hostname): $(env | grep -c '^SLURM_') SLURM_ variables, SLURM_JOB_ID=${SLURM_JOB_ID:-none}"
/work/wt-h53/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \
  --output rollouts_materialized_inputs.jsonl
srun --ntasks=1 --time=15 /work/wt-h53/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl \
  --model-url http://127.0.0.1:39393/v1 --env string_match --concurrency 4
srun --ntasks=1 --time=5 /work/wt-h53/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
