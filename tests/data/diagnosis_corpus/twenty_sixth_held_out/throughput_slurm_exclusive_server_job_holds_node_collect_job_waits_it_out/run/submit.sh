#!/bin/bash
# the server job, then the collect job against it; profile here when both are done
cd /work/wt-h26/tests/data/diagnosis_corpus/held_out/throughput_slurm_exclusive_server_job_holds_node_collect_job_waits_it_out/run
rm -f server.url
/work/wt-h26/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \
  --output rollouts_materialized_inputs.jsonl
SERVER=$(sbatch --parsable server.sbatch)
echo "server job $SERVER"
while [ ! -s server.url ]; do sleep 1; done
echo "server up at $(cat server.url)"
COLLECT=$(sbatch --parsable collect.sbatch)
echo "collect job $COLLECT"
sleep 5
squeue -h -j $COLLECT -o "%i %T %r"
while squeue -h -j $SERVER,$COLLECT 2>/dev/null | grep -q .; do sleep 2; done
echo "jobs $SERVER and $COLLECT finished"
/work/wt-h26/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
