#!/usr/bin/env bash
# Builds hammock_VERSION_ARCH.deb: the stripped binary, its man page, bash/zsh/fish completions,
# the hammock-serve@.service unit (sandboxed: DynamicUser, ProtectSystem=strict, NoNewPrivileges)
# and an example config.
#
#   scripts/build-deb.sh                   # builds release, writes the .deb here
#   scripts/build-deb.sh --binary PATH     # package a binary already built
#   scripts/build-deb.sh --output DIR
set -euo pipefail
cd "$(dirname "$0")/.."

binary=""
output="$PWD"
while [ $# -gt 0 ]; do
    case "$1" in
        --binary) binary="$2"; shift 2 ;;
        --output) output="$2"; shift 2 ;;
        -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "build-deb.sh: unknown option $1 (see --help)" >&2; exit 64 ;;
    esac
done
if [ -z "$binary" ]; then
    swift build -c release --static-swift-stdlib --product hammock --toolset packaging/release-toolset.json
    binary=.build/release/hammock
fi
[ -x "$binary" ] || { echo "build-deb.sh: no executable at $binary" >&2; exit 70; }

version="$("$binary" --version)"
arch="$(dpkg --print-architecture)"
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
root="$stage/hammock_${version}_${arch}"
install -d "$root/DEBIAN" "$root/usr/bin" "$root/usr/share/man/man1" "$root/usr/share/bash-completion/completions" \
    "$root/usr/share/zsh/vendor-completions" "$root/usr/share/fish/vendor_completions.d" "$root/lib/systemd/system" \
    "$root/usr/share/doc/hammock/examples"
strip -o "$root/usr/bin/hammock" "$binary"
chmod 755 "$root/usr/bin/hammock"
gzip -9n < docs/hammock.1 > "$root/usr/share/man/man1/hammock.1.gz"
"$root/usr/bin/hammock" --generate-completion-script bash > "$root/usr/share/bash-completion/completions/hammock"
"$root/usr/bin/hammock" --generate-completion-script zsh > "$root/usr/share/zsh/vendor-completions/_hammock"
"$root/usr/bin/hammock" --generate-completion-script fish > "$root/usr/share/fish/vendor_completions.d/hammock.fish"
install -m 644 packaging/hammock-serve@.service "$root/lib/systemd/system/hammock-serve@.service"
install -m 644 packaging/example.yaml "$root/usr/share/doc/hammock/examples/example.yaml"
chmod 644 "$root"/usr/share/bash-completion/completions/hammock "$root"/usr/share/zsh/vendor-completions/_hammock \
    "$root"/usr/share/fish/vendor_completions.d/hammock.fish "$root/usr/share/man/man1/hammock.1.gz"
size="$(du -sk "$root/usr" "$root/lib" | awk '{ total += $1 } END { print total }')"
cat > "$root/DEBIAN/control" <<CONTROL
Package: hammock
Version: $version
Architecture: $arch
Maintainer: The Hammock authors <hammock@localhost>
Installed-Size: $size
Depends: libc6, libncursesw6, libcurl4, libjemalloc2, libyaml-0-2, libstdc++6, libgcc-s1, tzdata
Section: net
Priority: optional
Homepage: https://hammock.invalid/
Description: terminal monitor for HTTP APIs
 A full-screen dashboard of REST endpoints (one pane per endpoint, kept fresh,
 with a status overlay), and the same engine headless: snapshot for scripts and
 CI (JUnit, TAP, JSON), events, and serve for Prometheus (hammock-serve@.service).
CONTROL
mkdir -p "$output"
dpkg-deb --root-owner-group -Zxz --build "$root" "$output/hammock_${version}_${arch}.deb" >/dev/null
echo "$output/hammock_${version}_${arch}.deb"
