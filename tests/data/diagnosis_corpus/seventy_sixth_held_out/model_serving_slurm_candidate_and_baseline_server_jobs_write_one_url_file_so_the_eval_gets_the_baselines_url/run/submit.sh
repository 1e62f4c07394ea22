#!/bin/bash
# submit.sh: this week's candidate (step_0200) and the baseline (step_0100, for next week's comparison) each get
# a model server job; the candidate is evaluated first (from here, the login node)
cd /work/wt-h76/tests/data/diagnosis_corpus/seventy_sixth_held_out/model_serving_slurm_candidate_and_baseline_server_jobs_write_one_url_file_so_the_eval_gets_the_baselines_url/run
rm -f server_url.txt
CAND=$(sbatch --parsable serve.sbatch /tmp/ho-model_serving_slurm_-9p7v3_na/checkpoints/step_0200)
echo $CAND >> job_ids.txt
echo "candidate server job $CAND"
until [ -s server_url.txt ]; do sleep 1; done
BASE=$(sbatch --parsable serve.sbatch /tmp/ho-model_serving_slurm_-9p7v3_na/checkpoints/step_0100)
echo $BASE >> job_ids.txt
echo "baseline server job $BASE"
until [ "$(squeue -h -j $BASE -o %T)" = RUNNING ]; do sleep 1; done
sleep 8   # let both servers finish loading
CANDIDATE_URL=$(cat server_url.txt)
echo "candidate server at $CANDIDATE_URL"
echo "weekly eval of the candidate checkpoint against $CANDIDATE_URL"
/work/wt-h76/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h76/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $CANDIDATE_URL --env string_match --concurrency 4
/work/wt-h76/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
