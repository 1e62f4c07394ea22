#!/bin/bash
# submit.sh: submit the weekly eval and wait for it
cd /work/wt-h45/tests/data/diagnosis_corpus/held_out/data_schema_slurm_labels_copied_from_answer_key_document_keep_sentence_full_stops/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
echo $JOB > job_id.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
