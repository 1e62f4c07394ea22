#!/bin/bash
# submit.sh: the model server job, then (once it answers) the eval job
cd /work/wt-h63/tests/data/diagnosis_corpus/sixty_third_held_out/model_serving_slurm_model_server_job_time_limit_of_one_minute_ends_the_server_mid_eval/run
SERVER=$(sbatch --parsable serve.sbatch)
echo $SERVER >> job_ids.txt
echo "submitted server job $SERVER"
until curl -sf http://127.0.0.1:55925/v1/models >/dev/null; do sleep 1; done
echo "model server answers: $(curl -s http://127.0.0.1:55925/v1/models)"
JOB=$(sbatch --parsable --export=ALL,MODEL_URL=http://127.0.0.1:55925/v1 eval.sbatch)
echo $JOB >> job_ids.txt
echo "submitted eval job $JOB"
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "eval job $JOB finished; server job: $(squeue -h -j $SERVER -o '%T %M' 2>/dev/null)"
