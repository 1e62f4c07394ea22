# the team's shell settings for evals (from the wiki page 'shared tools'); source it before a run
export TEAM_TOOLS=/work/wt-h30/tests/data/diagnosis_corpus/held_out/infra_builtin_team_tools_folder_on_pythonpath_shadows_json_module/run/team_tools
export PYTHONPATH=$TEAM_TOOLS:$PYTHONPATH
