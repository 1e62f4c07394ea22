# perf tooling (added for the tokenizer benchmark in September)
export LD_PRELOAD=/opt/perftools/lib/libtcmalloc_and_profiler.so.4
export CPUPROFILE_FREQUENCY=100
