#!/bin/bash
# submit.sh: submit the weekly eval and wait for it (CI gives it 300 s)
cd /work/wt-h56/tests/data/diagnosis_corpus/fifty_sixth_held_out/healthy_slurm_steps_ask_srun_for_core_binding_that_this_cluster_does_not_support/run

JOB=$(sbatch --parsable  eval.sbatch) || exit 1
echo "submitted job $JOB"
echo $JOB >> job_ids.txt
START=$SECONDS
while squeue -h -j $JOB 2>/dev/null | grep -q .; do
  if (( SECONDS - START > 300 )); then
    echo "job $JOB still queued or running after 300 s: $(squeue -h -j $JOB -o '%i %T %r')"; echo "giving up"; exit 1
  fi
  (( (SECONDS - START) % 30 < 2 )) && squeue -h -j $JOB -o '%i %T %M %r'
  sleep 2
done
echo "job $JOB finished"
