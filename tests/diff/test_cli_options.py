#!/usr/bin/python3
"""The CLI's option table and its --help texts name the same options.

Every option of every command is one row of the table in
tools/bcast/options.c (command, name, alias, ...), which the parser
walks; each command's --help text is written beside its code.  This test
reads the table and each `bcast COMMAND --help` and fails on an option
the table has and the help does not show (a name or an alias), and on an
option the help's options section lists that the table lacks, naming the
command and the option.  Options accepted for compatibility and not
documented are listed in HIDDEN.  Every command of the table must also be
one of `bcast --help`'s commands.

Usage:
  /usr/bin/python3 tests/diff/test_cli_options.py --bcast BUILD/bcast [--root DIR]
"""

import os
import re

import common

HERE = os.path.dirname(os.path.abspath(__file__))
# (command, option): accepted, not documented.
HIDDEN = {("info", "--threads")}

ROW = re.compile(r'\{(CMD_\w+),\s*"([^"]+)",\s*"([^"]*)",\s*\w+,\s*\w+,\s*[^}]*\},')
COMMAND = re.compile(r'\[(CMD_\w+)\]\s*=\s*\{\s*"([^"]+)"')
# An option at the start of a help line ("  -o, --output FILE ..."), or
# named after a comma in such a line.
HELP_OPTION = re.compile(r"(?:^  |, )(--?[a-z][a-z0-9-]*)", re.M)


def read_table(root):
    """{command name: {option names and aliases}} from options.c."""
    with open(os.path.join(root, "tools", "bcast", "options.c")) as f:
        text = f.read()
    names = dict(COMMAND.findall(text))
    table = {name: set() for name in names.values()}
    for cmd, name, alias in ROW.findall(text):
        table[names[cmd]].add(name)
        if alias:
            table[names[cmd]].add(alias)
    return table


def help_options(bcast, cmd):
    """The options the options section of `bcast CMD --help` lists."""
    code, out, err = common.run([bcast, cmd, "--help"])
    if code != 0:
        raise RuntimeError("bcast %s --help: exit %s: %s" % (cmd, code, err))
    section = out.split("\noptions:\n", 1)[1].split("\n\n", 1)[0]
    return set(HELP_OPTION.findall(section)) - {"-h", "--help"}, out


def main():
    ap = common.parser(__doc__.splitlines()[0])
    ap.add_argument("--root", default=os.path.normpath(
        os.path.join(HERE, "..", "..")), help="the checkout to read")
    args = common.parse_args(ap)
    tally = common.Tally()
    table = read_table(args.root)
    tally.check(len(table) >= 9 and sum(map(len, table.values())) >= 60,
                "the table was read", str(table))
    _, overview, _ = common.run([args.bcast, "--help"])
    for cmd, options in sorted(table.items()):
        tally.check(re.search(r"^  %s " % re.escape(cmd), overview, re.M),
                    "%s: a command of bcast --help" % cmd)
        shown, text = help_options(args.bcast, cmd)
        for opt in sorted(options):
            if (cmd, opt) in HIDDEN:
                continue
            tally.check(re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(opt),
                                  text),
                        "%s: %s is in the table, not in --help" % (cmd, opt))
        for opt in sorted(shown - options):
            tally.fail("%s: --help lists %s, which the table lacks" %
                       (cmd, opt))
        tally.ok()
    return tally.summary()


if __name__ == "__main__":
    raise SystemExit(main())
