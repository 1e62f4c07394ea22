#!/bin/bash
mkdir -p /tmp/h59-scratch-qflks4_h/tools
cp /work/wt-h59/tests/data/diagnosis_corpus/fifty_ninth_held_out/infra_slurm_job_step_execs_tool_script_synced_to_scratch_mounted_noexec/run/eval_step.sh /tmp/h59-scratch-qflks4_h/tools/
chmod +x /tmp/h59-scratch-qflks4_h/tools/eval_step.sh
ls -l /tmp/h59-scratch-qflks4_h/tools
findmnt -T /tmp/h59-scratch-qflks4_h/tools -o TARGET,FSTYPE,OPTIONS
