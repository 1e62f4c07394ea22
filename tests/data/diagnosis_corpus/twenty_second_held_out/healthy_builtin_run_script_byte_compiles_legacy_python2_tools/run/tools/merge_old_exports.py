#!/usr/bin/env python
# merge_old_exports.py (2019): merges the v0 exports; kept for reference
import json, sys
for name in sys.argv[1:]:
    for line in open(name):
        print json.dumps(json.loads(line))
