#!/usr/bin/env bash
# Writes the man page of the bcast tool to stdout, made from the tool's own
# --help texts (the overview and each command's), so the two say the same.
# tests/cli/test_package.sh checks that docs/bcast.1 is this script's
# output for the built tool; after changing a --help text, regenerate:
#   scripts/gen_man.sh build/bcast > docs/bcast.1
set -euo pipefail
bcast=$1
version=$("$bcast" --version | awk '{print $2}')

# Help text as roff: literal lines (no fill), backslashes escaped, and a
# line starting with '.' or '\'' protected from being read as a request.
literal() {
  echo ".nf"
  sed -e 's/\\/\\e/g' -e "s/^\([.']\)/\\\\\&\1/"
  echo ".fi"
}

cat <<ROFF
.TH BCAST 1 "" "bcast $version" "User Commands"
.SH NAME
bcast \\- tensor broadcasting: shape algebra, .npy broadcasts, TOSA ops, lowering
.SH SYNOPSIS
.B bcast
.I COMMAND
.RI [ OPTIONS ]
.RI [ ARGS ]
.br
.B bcast
.I COMMAND
.B \\-\\-help
.br
.B bcast \\-\\-version
.SH DESCRIPTION
ROFF
"$bcast" --help | literal
echo ".SH COMMANDS"
for cmd in $("$bcast" --help | awk '/^commands:/ {on = 1; next}
                                    on && /^  [a-z]/ {print $1}'); do
  echo ".SS $cmd"
  "$bcast" "$cmd" --help | literal
done
cat <<ROFF
.SH SEE ALSO
The manual in the source tree: README.md and docs/ (cli.md, ops.md, python.md, c-api.md, guide.md).
ROFF
