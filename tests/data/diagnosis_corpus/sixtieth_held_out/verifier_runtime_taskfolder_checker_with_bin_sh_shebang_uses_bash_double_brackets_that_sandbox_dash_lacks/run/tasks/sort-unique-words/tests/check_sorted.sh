#!/bin/sh
# check_sorted.sh FILE: exit 0 when FILE holds the expected words, sorted and unique (tested on the author's laptop)
got="$(cat "$1" 2>/dev/null)"
want="$(printf 'apple\nbanana\ncherry\nfig\npear')"
if [[ "$got" == "$want" ]]; then
  exit 0
fi
echo "check_sorted: $1 is not the expected list" >&2
exit 1
