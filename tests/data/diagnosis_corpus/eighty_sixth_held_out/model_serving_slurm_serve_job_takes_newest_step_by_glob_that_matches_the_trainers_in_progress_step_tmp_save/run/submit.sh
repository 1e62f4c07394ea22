#!/bin/bash
# submit.sh: the nightly serve-and-eval job, while the training job keeps saving checkpoints
cd /work/wt-h86/tests/data/diagnosis_corpus/eighty_sixth_held_out/model_serving_slurm_serve_job_takes_newest_step_by_glob_that_matches_the_trainers_in_progress_step_tmp_save/run
ls -l /tmp/ho-model_serving_slurm_-4swmof8h/checkpoints
sbatch --wait serve_eval.sbatch
echo "sbatch --wait returned $?"
