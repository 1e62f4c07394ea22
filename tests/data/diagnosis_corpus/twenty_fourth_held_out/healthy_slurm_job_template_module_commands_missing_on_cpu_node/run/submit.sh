#!/bin/bash
# nightly: submit tonight's job, wait, profile
cd /work/wt-h24/tests/data/diagnosis_corpus/held_out/healthy_slurm_job_template_module_commands_missing_on_cpu_node/run
JOB=$(sbatch --parsable nightly.sbatch)
echo "submitted job $JOB"
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
/work/wt-h24/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
