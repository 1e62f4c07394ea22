#!/bin/bash
# submit.sh: split tasks.jsonl into 4 shards and evaluate them as one job array (the batch script is inline)
cd /work/wt-h63/tests/data/diagnosis_corpus/sixty_third_held_out/config_slurm_array_script_passed_through_unquoted_heredoc_so_array_task_id_expands_empty_at_submission/run
split -l 4 -d -a 1 --additional-suffix=.jsonl tasks.jsonl shard_
wc -l shard_*.jsonl
JOB=$(sbatch --parsable <<EOF
#!/bin/bash
#SBATCH --job-name=weekly-shards
#SBATCH --array=0-3
#SBATCH --output=/work/wt-h63/tests/data/diagnosis_corpus/sixty_third_held_out/config_slurm_array_script_passed_through_unquoted_heredoc_so_array_task_id_expands_empty_at_submission/run/logs/shard_%A_%a.log
#SBATCH --time=10
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=2
SHARD=shard_${SLURM_ARRAY_TASK_ID:-0}
# (variables set in this script are escaped, so that the job, not submit.sh, expands them)
echo "evaluating shard \$SHARD on \$(hostname)"
cd /work/wt-h63/tests/data/diagnosis_corpus/sixty_third_held_out/config_slurm_array_script_passed_through_unquoted_heredoc_so_array_task_id_expands_empty_at_submission/run && mkdir -p results_\$SHARD && cd results_\$SHARD
/work/wt-h63/.venv/bin/gym-pipeline materialize --input ../\$SHARD.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h63/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:39915/v1 --env string_match --concurrency 4
/work/wt-h63/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl

EOF
)
echo "submitted job array $JOB"
echo $JOB >> job_ids.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job array $JOB finished"
ls -d results_*/
