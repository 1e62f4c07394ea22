# node settings of the eval nodes (the math libraries synced from the build node)
export LD_LIBRARY_PATH=/work/wt-h30/tests/data/diagnosis_corpus/held_out/infra_slurm_job_library_path_holds_truncated_libm_from_failed_sync/run/opt/mathlibs/lib:$LD_LIBRARY_PATH
