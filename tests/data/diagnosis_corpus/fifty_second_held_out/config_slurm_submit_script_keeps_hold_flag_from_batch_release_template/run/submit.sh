#!/bin/bash
# submit.sh: submit the weekly eval and wait for it (CI gives it 75 s)
cd /work/wt-h52/tests/data/diagnosis_corpus/held_out/config_slurm_submit_script_keeps_hold_flag_from_batch_release_template/run
# team template: jobs go in held; release_batch.sh starts a batch together
JOB=$(sbatch --parsable --hold eval.sbatch) || exit 1
echo "submitted job $JOB"
echo $JOB >> job_ids.txt
START=$SECONDS
while squeue -h -j $JOB 2>/dev/null | grep -q .; do
  if (( SECONDS - START > 75 )); then
    echo "job $JOB still queued or running after 75 s: $(squeue -h -j $JOB -o '%i %T %r')"; echo "giving up"; exit 1
  fi
  (( (SECONDS - START) % 30 < 2 )) && squeue -h -j $JOB -o '%i %T %M %r'
  sleep 2
done
echo "job $JOB finished"
