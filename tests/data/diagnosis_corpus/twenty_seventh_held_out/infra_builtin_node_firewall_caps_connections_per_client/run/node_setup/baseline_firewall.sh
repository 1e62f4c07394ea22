#!/bin/bash
# node security baseline (from the admins' configuration): at most 2 simultaneous connections per client address
# to any local service, against runaway scrapers
iptables -A INPUT -p tcp --syn -m connlimit --connlimit-above 2 --connlimit-mask 32 -j REJECT --reject-with tcp-reset
iptables -S INPUT
echo "baseline_firewall.sh: applied"
