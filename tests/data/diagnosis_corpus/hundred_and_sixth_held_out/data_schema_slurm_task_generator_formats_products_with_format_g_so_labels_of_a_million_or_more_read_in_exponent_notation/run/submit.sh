#!/bin/bash
# submit.sh: the weekly eval as one Slurm job, then its log and state
cd /work/h106/tests/data/diagnosis_corpus/hundred_and_sixth_held_out/data_schema_slurm_task_generator_formats_products_with_format_g_so_labels_of_a_million_or_more_read_in_exponent_notation/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted eval job $JOB"
timeout 240 bash -c "while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done"
echo "job $JOB left the queue"

cat logs/eval_$JOB.log
scontrol show job $JOB 2>/dev/null | grep -o 'JobState=[A-Z]* Reason=[^ ]*\|ExitCode=[0-9:]*\|TimeLimit=[^ ]*' || true
