#!/bin/bash
# submit.sh: the weekly eval as one Slurm job, then its log and state
cd /work/h110/tests/data/diagnosis_corpus/hundred_and_tenth_held_out/data_schema_slurm_shopping_drill_generator_formats_totals_as_money_with_2f_so_whole_and_one_decimal_totals_read_21_50_and_10_00/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted eval job $JOB"
timeout 240 bash -c "while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done"
echo "job $JOB left the queue"

cat logs/eval_$JOB.log
scontrol show job $JOB 2>/dev/null | grep -o 'JobState=[A-Z]* Reason=[^ ]*\|ExitCode=[0-9:]*\|TimeLimit=[^ ]*' || true
