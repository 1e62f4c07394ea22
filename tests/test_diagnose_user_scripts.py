"""What the user's own scripts say (diagnose/user_scripts.py): where a path, a copy, a variable came from."""

from gym_pipeline.diagnose.user_scripts import UserFile, copied_onto, server_capacity_settings, variable_pointing_at

JOB_ENV = UserFile("job_env.sh", b"# node-local scratch\nexport TMPDIR=/local/tmp\nSCRATCH=/local\nOUT=\"$HOME/out\"\n")


def test_the_variable_holding_the_deepest_folder_above_a_path_is_where_it_came_from():
    assert variable_pointing_at([JOB_ENV], "/local/tmp/sortX1") == (JOB_ENV, 2, "export TMPDIR=/local/tmp", "TMPDIR")
    assert variable_pointing_at([JOB_ENV], "/local/data.jsonl")[3] == "SCRATCH"
    assert variable_pointing_at([JOB_ENV], "/localtmp/x") is None  # a prefix of the text, not a folder above


def test_a_copy_onto_a_file_is_found_with_the_variables_it_uses():
    prepare = UserFile("prepare.sh", b"CACHE_DIR=/cache\nCACHE=$CACHE_DIR/in.jsonl\ncp $CACHE rollouts_inputs.jsonl\n")
    file, number, line, assignments = copied_onto([prepare], "rollouts_inputs.jsonl")
    assert (file.name, number, line) == ("prepare.sh", 3, "cp $CACHE rollouts_inputs.jsonl")
    assert assignments == ["CACHE=$CACHE_DIR/in.jsonl", "CACHE_DIR=/cache"]


def test_a_servers_capacity_is_found_with_the_variables_it_takes_its_values_from():
    serve = UserFile("serve.sh", b"source serving.env\ngym-pipeline serve-policy --max-running ${MAX_NUM_SEQS:-64} "
                                 b"--max-waiting $MAX_WAITING --latency-ms 30\n")
    env = UserFile("serving.env", b"# debugging the OOM\nMAX_NUM_SEQS=1\nexport MAX_WAITING=2\n")
    found = server_capacity_settings([serve, env])
    assert found[0].startswith("serve.sh:2: gym-pipeline serve-policy --max-running")
    assert found[1:] == ["serving.env:2: MAX_NUM_SEQS=1", "serving.env:3: export MAX_WAITING=2"]


def test_a_servers_capacity_is_followed_to_the_probe_it_is_computed_from():
    """`MAX_SEQS=$(( GPUS > 0 ? GPUS * 8 : 1 ))` from `GPUS=$(nvidia-smi -L | wc -l)`: on a node without nvidia-smi,
    0 GPUs and one sequence at a time (the thirty-fifth set's case, made by a real run)."""
    serve = UserFile("serve.sh", b"GPUS=$(nvidia-smi -L 2>/dev/null | wc -l)\nMAX_SEQS=$(( GPUS > 0 ? GPUS * 8 : 1 ))\n"
                                 b"gym-pipeline serve-policy --max-running $MAX_SEQS --max-waiting 2\n")
    assert server_capacity_settings([serve])[1:] == ["serve.sh:2: MAX_SEQS=$(( GPUS > 0 ? GPUS * 8 : 1 ))",
                                                     "serve.sh:1: GPUS=$(nvidia-smi -L 2>/dev/null | wc -l)"]


def test_scripts_that_load_a_model_server_from_a_loop_and_copies_that_keep_old_times():
    from gym_pipeline.diagnose.user_scripts import copies_keeping_times, request_loops

    load = UserFile("load_test.sh", b"for w in $(seq 8); do\n  while true; do curl -d @b.json $URL/chat/completions; "
                                    b"done &\ndone\n")
    probe = UserFile("probe.sh", b"curl -s $URL/chat/completions -d @b.json\n")  # once, not from a loop
    update = UserFile("update_data.sh", b"#!/bin/bash\ncp -p -v /shared/trivia.jsonl data/trivia.jsonl\n")
    assert request_loops([load, probe, update]) == ["load_test.sh"]
    assert copies_keeping_times([probe, update]) == ("update_data.sh", 2, "cp -p -v /shared/trivia.jsonl data/trivia.jsonl")
    assert copies_keeping_times([UserFile("copy.sh", b"cp -r data/ backup/\n")]) is None


def test_a_loop_written_on_one_line_ends_on_that_line():
    """A wait for the server written on one line is a loop of its own: the collection after it is not in its body
    (neither a collection retried in a loop nor one collection per pass)."""
    from gym_pipeline.diagnose.user_scripts import loop_body, serial_collections
    script = ("for i in $(seq 60); do (echo > /dev/tcp/127.0.0.1/8000) 2>/dev/null && break; sleep 1; done\n"
              "gym-pipeline collect --inputs in.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:8000/v1\n")
    lines = script.splitlines()
    assert loop_body(lines, 1) == [(1, "(echo > /dev/tcp/127.0.0.1/8000) 2>/dev/null && break; sleep 1")]
    assert serial_collections([UserFile("run_eval.sh", script.encode())]) is None
    assert loop_body(["while true; do", "  gym-pipeline collect ...", "done", "echo over"], 1) == [
        (2, "  gym-pipeline collect ...")]
