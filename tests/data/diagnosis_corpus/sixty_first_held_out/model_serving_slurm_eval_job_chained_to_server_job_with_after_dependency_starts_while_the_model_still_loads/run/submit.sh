#!/bin/bash
# submit.sh: the model server job, then the eval job chained to it
cd /work/wt-h61/tests/data/diagnosis_corpus/sixty_first_held_out/model_serving_slurm_eval_job_chained_to_server_job_with_after_dependency_starts_while_the_model_still_loads/run
SERVER=$(sbatch --parsable serve.sbatch)
echo $SERVER >> job_ids.txt
JOB=$(sbatch --parsable --dependency=after:$SERVER --export=ALL,MODEL_URL=http://127.0.0.1:42601/v1 eval.sbatch)
echo $JOB >> job_ids.txt
echo "submitted server job $SERVER and eval job $JOB (--dependency=after:$SERVER)"
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "eval job $JOB finished; server job: $(squeue -h -j $SERVER -o '%T %M' 2>/dev/null)"
scancel $SERVER
