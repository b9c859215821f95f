#!/bin/sh
# Called by config/alerts.yaml when a pane's alert fires, reminds or resolves. Hammock runs it
# detached (no terminal, its own session), with a time limit, and shows a failure on the status
# line. Everything it gets is in HAMMOCK_* variables, secrets already masked.
umask 077
log="${TMPDIR:-/tmp}/hammock-alerts.log"
printf '%s %s %s is %s: %s (%s)\n' "$HAMMOCK_TIME" "$HAMMOCK_EVENT" "$HAMMOCK_PANE" "$HAMMOCK_STATE" \
    "$HAMMOCK_MESSAGE" "$HAMMOCK_URL" >> "$log"
