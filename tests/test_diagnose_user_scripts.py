"""What the user's own scripts say (diagnose/user_scripts.py): where a path, a copy, a variable came from."""

from gym_pipeline.diagnose.user_scripts import UserFile, copied_onto, variable_pointing_at

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
