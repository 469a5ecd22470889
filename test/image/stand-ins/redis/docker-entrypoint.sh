#!/bin/sh
# As the official image's entrypoint: a redis-server started without a configuration file takes
# connections from other containers (protected mode off) unless the command says otherwise.
set -eu
if [ "${1#-}" != "$1" ]; then set -- redis-server "$@"; fi
if [ "$1" = redis-server ]; then
  case " $* " in
    *" --protected-mode "* | *.conf*) ;;
    *) set -- "$@" --protected-mode no ;;
  esac
fi
exec "$@"
