#!/bin/bash
# resilience drill (Tuesday): reset half of the packets sent to a local service port, to see the clients retry
# usage: chaos_drill.sh PORT       (undo: iptables -D INPUT ... with the same arguments)
iptables -A INPUT -p tcp --dport $1 -m statistic --mode random --probability 0.5 -j REJECT --reject-with tcp-reset
iptables -S INPUT
echo "chaos_drill.sh: half of the packets to port $1 are answered with a reset"
