#!/bin/bash
# submit.sh: prep, then the eval (eval.sbatch names its dependency itself)
cd /work/wt-h72/tests/data/diagnosis_corpus/seventy_second_held_out/config_slurm_dependency_directive_in_eval_sbatch_names_shell_variable_that_sbatch_never_expands/run
export PREP_JOB=$(sbatch --parsable prep.sbatch)
echo $PREP_JOB >> job_ids.txt
echo "prep job $PREP_JOB"
JOB=$(sbatch --parsable eval.sbatch)
echo "eval job: $JOB"
[ -n "$JOB" ] && echo $JOB >> job_ids.txt
while squeue -h -j ${PREP_JOB}${JOB:+,$JOB} 2>/dev/null | grep -q .; do sleep 3; done
echo "done"
