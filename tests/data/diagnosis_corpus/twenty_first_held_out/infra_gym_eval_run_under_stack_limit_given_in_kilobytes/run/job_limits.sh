# job limits
# 16 MB stack for the tokenizer worker threads
ulimit -s 16
ulimit -c 0
