#!/bin/bash
# submit.sh: the weekly eval as one Slurm job
cd /work/wt-h88/tests/data/diagnosis_corpus/eighty_eighth_held_out/infra_slurm_eval_job_runs_collect_step_in_pyxis_container_on_cluster_without_the_pyxis_plugin/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted eval job $JOB"
timeout 240 bash -c "while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done"
echo "job $JOB left the queue"

cat logs/eval_$JOB.log
