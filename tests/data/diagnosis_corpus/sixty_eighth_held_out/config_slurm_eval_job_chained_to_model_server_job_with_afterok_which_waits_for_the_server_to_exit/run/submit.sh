#!/bin/bash
# submit.sh: the model server job, and the eval job chained to it so that it does not start before the server
cd /work/wt-h68/tests/data/diagnosis_corpus/sixty_eighth_held_out/config_slurm_eval_job_chained_to_model_server_job_with_afterok_which_waits_for_the_server_to_exit/run
SERVER=$(sbatch --parsable serve.sbatch /tmp/ho-config_slurm_eval_jo-oig9o_p6/checkpoints/step_0200)
echo $SERVER >> job_ids.txt
JOB=$(sbatch --parsable --dependency=afterok:$SERVER eval.sbatch)
echo $JOB >> job_ids.txt
echo "model server job $SERVER, eval job $JOB (--dependency=afterok:$SERVER)"
for i in $(seq 15); do
  squeue -h -j $SERVER,$JOB -o '%i %j %T %M %r' 2>/dev/null
  squeue -h -j $JOB -o %T 2>/dev/null | grep -q PENDING || break
  sleep 6
done
if squeue -h -j $JOB -o %T 2>/dev/null | grep -q PENDING; then
  echo "eval job $JOB still pending after 90 s: giving up for today"
  exit 1
fi
