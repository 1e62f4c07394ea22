#!/bin/bash
# submit.sh: the weekly eval as one Slurm job, on the reviewed release of the question set (two labels corrected)
cd /work/h94/tests/data/diagnosis_corpus/ninety_fourth_held_out/config_slurm_submit_writes_export_option_after_batch_script_name_so_sbatch_passes_it_to_the_script_and_job_keeps_default_dataset/run
JOB=$(sbatch --parsable eval.sbatch --export=ALL,DATASET=string_match_v2.jsonl)
echo "submitted eval job $JOB (dataset string_match_v2.jsonl)"
timeout 240 bash -c "while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done"
echo "job $JOB left the queue"

cat logs/eval_$JOB.log
