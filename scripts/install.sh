#!/usr/bin/env bash
# Installs hammock: builds the release binary (the Swift runtime linked in), strips it, and puts
# it, its man page and its shell completions (bash, zsh, fish) under a prefix.
#
#   scripts/install.sh                     # into ~/.local (as root: /usr/local)
#   scripts/install.sh --prefix /opt/hammock
#   scripts/install.sh --binary PATH       # install this binary instead of building one
#   scripts/install.sh --no-deps           # do not install the system packages the build needs
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "$(id -u)" -eq 0 ]; then prefix=/usr/local; else prefix="$HOME/.local"; fi
binary=""
deps=1
while [ $# -gt 0 ]; do
    case "$1" in
        --prefix) prefix="$2"; shift 2 ;;
        --prefix=*) prefix="${1#--prefix=}"; shift ;;
        --binary) binary="$2"; shift 2 ;;
        --no-deps) deps=0; shift ;;
        -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "install.sh: unknown option $1 (see --help)" >&2; exit 64 ;;
    esac
done
case "$prefix" in /*) ;; *) prefix="$PWD/$prefix" ;; esac

if [ -z "$binary" ]; then
    if [ "$deps" -eq 1 ]; then
        need=()
        [ -e /usr/include/ncursesw/curses.h ] || need+=(libncurses-dev)
        echo '#include <curl/curl.h>' | cc -E -x c - >/dev/null 2>&1 || need+=(libcurl4-openssl-dev)
        echo 'int main(void) { return 0; }' | cc -x c - -ljemalloc -o /dev/null >/dev/null 2>&1 || need+=(libjemalloc-dev)
        [ -e /usr/include/yaml.h ] || need+=(libyaml-dev)
        if [ ${#need[@]} -gt 0 ]; then
            if [ "$(id -u)" -eq 0 ]; then sudo=""
            elif command -v sudo >/dev/null 2>&1; then sudo="sudo"
            else
                echo "install.sh: the build needs ${need[*]}; as root: apt-get update && apt-get install -y ${need[*]}" >&2
                exit 70
            fi
            echo "installing ${need[*]}"
            $sudo apt-get update -qq
            DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}"
        fi
    fi
    command -v swift >/dev/null 2>&1 || { echo "install.sh: swift is not on PATH (https://www.swift.org/install/linux/)" >&2; exit 70; }
    swift build -c release --static-swift-stdlib --product hammock --toolset packaging/release-toolset.json
    binary=.build/release/hammock
fi
[ -x "$binary" ] || { echo "install.sh: no executable at $binary" >&2; exit 70; }

bin="$prefix/bin"
man="$prefix/share/man/man1"
bash_completions="$prefix/share/bash-completion/completions"
zsh_completions="$prefix/share/zsh/site-functions"
fish_completions="$prefix/share/fish/vendor_completions.d"
mkdir -p "$bin" "$man" "$bash_completions" "$zsh_completions" "$fish_completions"

# Stripped, then moved into place, so a running hammock is never overwritten mid-file.
strip -o "$bin/.hammock.new" "$binary"
chmod 755 "$bin/.hammock.new"
mv -f "$bin/.hammock.new" "$bin/hammock"
install -m 644 docs/hammock.1 "$man/hammock.1"
"$bin/hammock" --generate-completion-script bash > "$bash_completions/hammock"
"$bin/hammock" --generate-completion-script zsh > "$zsh_completions/_hammock"
"$bin/hammock" --generate-completion-script fish > "$fish_completions/hammock.fish"
chmod 644 "$bash_completions/hammock" "$zsh_completions/_hammock" "$fish_completions/hammock.fish"

echo "installed hammock $("$bin/hammock" --version) ($(du -h "$bin/hammock" | cut -f1)) into $prefix:"
echo "  $bin/hammock, $man/hammock.1, completions for bash, zsh and fish"
case ":$PATH:" in
    *":$bin:"*) ;;
    *) echo "$bin is not on your PATH; add it (in ~/.bashrc or ~/.zshrc): export PATH=\"$bin:\$PATH\"; fish: fish_add_path $bin" ;;
esac
