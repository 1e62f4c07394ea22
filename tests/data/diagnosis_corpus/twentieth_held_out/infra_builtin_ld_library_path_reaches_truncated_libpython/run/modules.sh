# module load python/3.11.7-gcc12 (team build on /sw)
export LD_LIBRARY_PATH=/tmp/ho-infra_builtin_ld_lib-clrbjg8c/sw/python/3.11.7-gcc12/lib:$LD_LIBRARY_PATH
export PATH=/tmp/ho-infra_builtin_ld_lib-clrbjg8c/sw/python/3.11.7-gcc12/bin:$PATH
