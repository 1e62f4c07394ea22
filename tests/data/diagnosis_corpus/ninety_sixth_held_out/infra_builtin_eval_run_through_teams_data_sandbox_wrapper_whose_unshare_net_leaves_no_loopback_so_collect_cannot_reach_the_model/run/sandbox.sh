#!/bin/bash
# sandbox.sh CMD...: run a data-preparation step without network access (the security team's rule for steps that
# open files from outside contributors): a fresh network namespace, with no interface up
exec unshare --net -- "$@"
