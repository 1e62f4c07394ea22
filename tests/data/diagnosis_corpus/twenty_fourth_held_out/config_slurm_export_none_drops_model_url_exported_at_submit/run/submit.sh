#!/bin/bash
# materialize here, collect in a batch job, profile here
cd /work/wt-h24/tests/data/diagnosis_corpus/held_out/config_slurm_export_none_drops_model_url_exported_at_submit/run
export MODEL_URL=http://127.0.0.1:34423/v1
/work/wt-h24/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \
  --output rollouts_materialized_inputs.jsonl
JOB=$(sbatch --parsable collect.sbatch)
echo "submitted job $JOB"
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
/work/wt-h24/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
