#!/bin/bash
# usage: port_forward.sh NEW_PORT OLD_PORT
# during the migration: send the clients of the new model port to the old server until the new one has loaded
iptables -t nat -A OUTPUT -p tcp -d 127.0.0.1 --dport $1 -j REDIRECT --to-ports $2
echo "forwarding 127.0.0.1:$1 -> 127.0.0.1:$2"
