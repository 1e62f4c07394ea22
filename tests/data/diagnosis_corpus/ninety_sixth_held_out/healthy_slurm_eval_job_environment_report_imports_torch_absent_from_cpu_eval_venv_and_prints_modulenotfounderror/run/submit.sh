#!/bin/bash
# submit.sh: the weekly eval as one Slurm job, then its log
cd /work/h96/tests/data/diagnosis_corpus/ninety_sixth_held_out/healthy_slurm_eval_job_environment_report_imports_torch_absent_from_cpu_eval_venv_and_prints_modulenotfounderror/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted eval job $JOB"
timeout 240 bash -c "while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done"
echo "job $JOB left the queue"

cat logs/eval_$JOB.log
scontrol show job $JOB | grep -o 'JobState=[A-Z]*' || true
