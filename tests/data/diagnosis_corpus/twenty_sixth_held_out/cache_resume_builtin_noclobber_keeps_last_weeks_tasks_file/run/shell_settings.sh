# my shell settings (sourced by my scripts too)
set -o noclobber   # never overwrite a file by accident with >
alias ll='ls -l'
