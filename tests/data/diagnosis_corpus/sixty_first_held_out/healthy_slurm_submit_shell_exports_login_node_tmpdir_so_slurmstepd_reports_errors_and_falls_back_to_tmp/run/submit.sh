#!/bin/bash
# submit.sh: submit the weekly eval and wait for it
cd /work/wt-h61/tests/data/diagnosis_corpus/sixty_first_held_out/healthy_slurm_submit_shell_exports_login_node_tmpdir_so_slurmstepd_reports_errors_and_falls_back_to_tmp/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
echo $JOB >> job_ids.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
