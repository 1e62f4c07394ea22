#!/bin/bash
# submit.sh: the monthly pass@k variance study, 8 samples per task
cd /work/wt-h82/tests/data/diagnosis_corpus/eighty_second_held_out/config_slurm_submit_sets_repeats_as_plain_shell_variable_without_export_so_the_job_runs_one_repeat_per_task/run
REPEATS=8
export MODEL_URL=http://127.0.0.1:44627/v1
echo "submitting the variance study: $REPEATS repeats per task against $MODEL_URL"
sbatch --wait eval.sbatch
echo "sbatch --wait returned $?"
