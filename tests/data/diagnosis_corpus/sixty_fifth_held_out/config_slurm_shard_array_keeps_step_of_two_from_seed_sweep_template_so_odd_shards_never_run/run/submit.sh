#!/bin/bash
# submit.sh: the weekly sharded eval
cd /work/wt-h65/tests/data/diagnosis_corpus/sixty_fifth_held_out/config_slurm_shard_array_keeps_step_of_two_from_seed_sweep_template_so_odd_shards_never_run/run
bash prep_shards.sh
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job array $JOB"
echo $JOB >> job_ids.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job array $JOB finished"
for d in shard_*/; do echo "$d $(cat $d/rollouts.jsonl 2>/dev/null | wc -l) rollouts"; done
