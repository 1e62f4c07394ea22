#!/bin/bash
# submit.sh: prep, then the eval once prep has ended (afterany: the dedup report may exit 1, it is only a report)
cd /work/wt-h72/tests/data/diagnosis_corpus/seventy_second_held_out/healthy_slurm_eval_chained_afterany_to_prep_job_whose_optional_dedup_report_exits_1/run
PREP=$(sbatch --parsable prep.sbatch)
echo $PREP >> job_ids.txt
JOB=$(sbatch --parsable --dependency=afterany:$PREP eval.sbatch)
echo $JOB >> job_ids.txt
echo "prep job $PREP, eval job $JOB (--dependency=afterany:$PREP)"
while squeue -h -j $PREP,$JOB 2>/dev/null | grep -q .; do squeue -h -j $PREP,$JOB -o '%i %j %T %r' 2>/dev/null; sleep 4; done
scontrol show job $PREP 2>/dev/null | grep -o 'JobState=[A-Z]* .*ExitCode=[0-9:]*' || true
echo "jobs $PREP and $JOB finished"
