#!/bin/bash
# submit.sh: the weekly eval as one Slurm job
cd /work/wt-h88/tests/data/diagnosis_corpus/eighty_eighth_held_out/model_serving_slurm_eval_job_stops_its_own_model_server_after_wait_n_returns_for_the_first_finished_shard/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted eval job $JOB"
timeout 240 bash -c "while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done"
echo "job $JOB left the queue"

cat logs/eval_$JOB.log
