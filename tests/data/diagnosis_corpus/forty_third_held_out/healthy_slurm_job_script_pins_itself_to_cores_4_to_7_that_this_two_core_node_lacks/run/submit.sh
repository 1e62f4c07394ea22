#!/bin/bash
# submit.sh: submit the weekly eval and wait for it
cd /work/wt-h43/tests/data/diagnosis_corpus/held_out/healthy_slurm_job_script_pins_itself_to_cores_4_to_7_that_this_two_core_node_lacks/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
echo $JOB > job_id.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
