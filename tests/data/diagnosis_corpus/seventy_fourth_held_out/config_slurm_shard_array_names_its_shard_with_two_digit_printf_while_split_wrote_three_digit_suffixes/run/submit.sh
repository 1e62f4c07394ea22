#!/bin/bash
# submit.sh: cut this week's split into two shards and evaluate them side by side (a job array of two)
cd /work/wt-h74/tests/data/diagnosis_corpus/seventy_fourth_held_out/config_slurm_shard_array_names_its_shard_with_two_digit_printf_while_split_wrote_three_digit_suffixes/run
mkdir -p shards out
split -l 10 -d -a 3 string_match.jsonl shards/shard_
ls -l shards/
JOB=$(sbatch --parsable --array=0-1 shard.sbatch)
echo "submitted array job $JOB"
echo $JOB >> job_ids.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do squeue -h -j $JOB -o '%i %j %T %M %r' 2>/dev/null; sleep 5; done
echo "array job $JOB finished"
for f in out/*/rollouts.jsonl; do [ -f "$f" ] && echo "$f: $(wc -l < $f) rollouts"; done
