#!/bin/bash
# submit.sh: hand this week's model server to the eval job and wait for the job
cd /work/wt-h82/tests/data/diagnosis_corpus/eighty_second_held_out/config_slurm_sbatch_export_names_only_model_url_without_all_so_job_loses_the_venv_path_and_its_commands/run
echo "eval venv: $(command -v gym-pipeline)"
sbatch --wait --export=MODEL_URL=http://127.0.0.1:34421/v1 eval.sbatch
echo "sbatch --wait returned $?"
