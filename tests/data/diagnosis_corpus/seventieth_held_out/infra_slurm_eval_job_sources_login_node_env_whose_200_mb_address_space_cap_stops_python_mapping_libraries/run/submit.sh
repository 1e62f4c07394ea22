#!/bin/bash
# submit.sh: submit the weekly eval and wait for it
cd /work/wt-h70/tests/data/diagnosis_corpus/seventieth_held_out/infra_slurm_eval_job_sources_login_node_env_whose_200_mb_address_space_cap_stops_python_mapping_libraries/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
echo $JOB >> job_ids.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do squeue -h -j $JOB -o '%i %j %T %M %r' 2>/dev/null; sleep 5; done
echo "job $JOB finished"
