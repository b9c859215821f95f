#!/usr/bin/env bash
# Writes docs/hammock.1: the commands and options from their definitions (swift-argument-parser's
# generate-manual plugin), then the exit status, environment, files and every config key
# (`hammock manual-sections`, from the code that decides them). Run after changing a command;
# a test fails while the page lags behind the commands.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product hammock >/dev/null
date="$(git log -1 --format=%cs -- Sources/hammock 2>/dev/null || date +%F)"
swift package --allow-writing-to-package-directory generate-manual --configuration debug --date "$date" \
    --authors "The Hammock authors" >/dev/null
generated=".build/plugins/GenerateManual/outputs/hammock/hammock.1"
sections="$(mktemp)"
trap 'rm -f "$sections"' EXIT
.build/debug/hammock schema --man-sections > "$sections"
# The generator's EXIT STATUS is the generic one (0 or not): ours replaces it, before SEE ALSO or the end.
# Blank lines become paragraph breaks, and the description's list of commands keeps its lines.
awk -v sections="$sections" '
    /^\.Sh DESCRIPTION/ { description = 1 }
    description && /^\.(Bl|Sh [^D])/ { description = 0 }
    description && /^hammock / && !literal { print ".Bd -literal -offset indent"; literal = 1 }
    literal && !/^hammock / { print ".Ed"; literal = 0 }
    /^\.Sh "EXIT STATUS"/ { skipping = 1; next }
    skipping && /^\.Sh / { skipping = 0 }
    skipping { next }
    /^\.Sh "SEE ALSO"/ || /^\.Sh AUTHORS/ { if (!done) { while ((getline line < sections) > 0) print line; done = 1 } }
    /^$/ { print ".Pp"; next }
    { print }
    END { if (!done) while ((getline line < sections) > 0) print line }
' "$generated" > docs/hammock.1
echo "wrote docs/hammock.1 ($(wc -l < docs/hammock.1) lines)"
