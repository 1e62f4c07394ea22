#!/bin/bash
# submit.sh: the weekly eval in three shards; the CI's submit step (ci/submit_job.sh) wraps every job script
cd /work/wt-h88/tests/data/diagnosis_corpus/eighty_eighth_held_out/config_slurm_ci_glue_wraps_shard_script_with_sbatch_wrap_so_its_array_directive_is_never_read/run
/work/wt-h88/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \
  --output all_inputs.jsonl
split -n l/3 -d --additional-suffix=.jsonl all_inputs.jsonl shard_
ls shard_*.jsonl
# ci/submit_job.sh: sbatch --parsable --output=/work/wt-h88/tests/data/diagnosis_corpus/eighty_eighth_held_out/config_slurm_ci_glue_wraps_shard_script_with_sbatch_wrap_so_its_array_directive_is_never_read/run/logs/ci_%j.log --wrap "bash <script>"
JOB=$(sbatch --parsable --job-name=ci-eval --time=10 --output=/work/wt-h88/tests/data/diagnosis_corpus/eighty_eighth_held_out/config_slurm_ci_glue_wraps_shard_script_with_sbatch_wrap_so_its_array_directive_is_never_read/run/logs/ci_%j.log --wrap "bash /work/wt-h88/tests/data/diagnosis_corpus/eighty_eighth_held_out/config_slurm_ci_glue_wraps_shard_script_with_sbatch_wrap_so_its_array_directive_is_never_read/run/shard.sbatch")
echo "submitted $JOB"
sleep 2
squeue -o "%i %j %T %r"
timeout 240 bash -c "while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done"
echo "job $JOB left the queue"

cat logs/ci_*.log
cat out_*/inputs.jsonl > rollouts_materialized_inputs.jsonl
cat out_*/rollouts.jsonl > rollouts.jsonl
wc -l out_*/rollouts.jsonl rollouts.jsonl
/work/wt-h88/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
