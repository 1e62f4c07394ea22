#!/bin/bash
# submit.sh: submit the weekly eval and block until it has finished (sbatch --wait returns the job's exit code)
cd /work/wt-h68/tests/data/diagnosis_corpus/sixty_eighth_held_out/healthy_slurm_submit_blocks_on_sbatch_wait_and_prints_no_job_id_until_the_job_ends/run
echo "submitting eval.sbatch with --wait at $(date +%T)"
sbatch --wait eval.sbatch
CODE=$?
echo "sbatch --wait returned $CODE at $(date +%T)"
ls logs/
exit $CODE
