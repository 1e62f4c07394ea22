#!/bin/bash
# security baseline (ticket SEC-2211): reset unapproved LLM API traffic sent from this node's processes
# usage: llm_egress_filter.sh PORT...     (approved gateways are listed in the exceptions file, none yet)
for port in "$@"; do
  iptables -A OUTPUT -p tcp --dport $port -m string --algo bm --string "/chat/completions" \
    -j REJECT --reject-with tcp-reset
done
iptables -S OUTPUT
echo "llm_egress_filter.sh: chat completion requests to ports $* are reset"
