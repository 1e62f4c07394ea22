#!/bin/bash
# submit.sh: submit the weekly eval and wait for it
cd /work/wt-h68/tests/data/diagnosis_corpus/sixty_eighth_held_out/throughput_slurm_one_core_job_gives_its_only_core_to_server_step_so_eval_step_waits_until_time_limit/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
echo $JOB >> job_ids.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do squeue -h -j $JOB -o '%i %j %T %M %r' 2>/dev/null; sleep 5; done
echo "job $JOB finished"
