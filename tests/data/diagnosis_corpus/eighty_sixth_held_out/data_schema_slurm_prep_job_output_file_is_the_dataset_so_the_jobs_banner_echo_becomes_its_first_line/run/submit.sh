#!/bin/bash
# submit.sh: the data step as a Slurm job (its stdout is the dataset), then the weekly eval
cd /work/wt-h86/tests/data/diagnosis_corpus/eighty_sixth_held_out/data_schema_slurm_prep_job_output_file_is_the_dataset_so_the_jobs_banner_echo_becomes_its_first_line/run
sbatch --wait --output=/work/wt-h86/tests/data/diagnosis_corpus/eighty_sixth_held_out/data_schema_slurm_prep_job_output_file_is_the_dataset_so_the_jobs_banner_echo_becomes_its_first_line/run/string_match.jsonl --error=/work/wt-h86/tests/data/diagnosis_corpus/eighty_sixth_held_out/data_schema_slurm_prep_job_output_file_is_the_dataset_so_the_jobs_banner_echo_becomes_its_first_line/run/logs/prep_%j.err prep.sbatch
echo "prep job returned $?"
head -2 string_match.jsonl | cut -c1-120
/work/wt-h86/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h86/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:41603/v1 --env string_match --concurrency 4
/work/wt-h86/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
