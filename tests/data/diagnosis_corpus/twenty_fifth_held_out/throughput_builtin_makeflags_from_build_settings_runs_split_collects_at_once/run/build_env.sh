# shell settings for building the tokenizer extension (sourced by every script of this checkout)
export MAKEFLAGS=-j8
export CFLAGS="-O2 -march=native"
export CCACHE_DIR=$HOME/.ccache
