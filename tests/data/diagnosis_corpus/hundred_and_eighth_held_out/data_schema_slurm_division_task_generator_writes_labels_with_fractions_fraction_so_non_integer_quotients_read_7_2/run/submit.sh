#!/bin/bash
# submit.sh: the weekly eval as one Slurm job, then its log and state
cd /work/h108/tests/data/diagnosis_corpus/hundred_and_eighth_held_out/data_schema_slurm_division_task_generator_writes_labels_with_fractions_fraction_so_non_integer_quotients_read_7_2/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted eval job $JOB"
timeout 240 bash -c "while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done"
echo "job $JOB left the queue"

cat logs/eval_$JOB.log
scontrol show job $JOB 2>/dev/null | grep -o 'JobState=[A-Z]* Reason=[^ ]*\|ExitCode=[0-9:]*\|TimeLimit=[^ ]*' || true
