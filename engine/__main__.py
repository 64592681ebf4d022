"""Command line, stable, JSON on stdout; runs on CPython and MicroPython.

    python -m engine start RULESET
    python -m engine moves RULESET "POSITION" THROW

RULESET is a name (``kendall``, ``hungarian``), optionally with options:
``kendall:pieces=7``, ``hungarian:no_move=end``.  Bad input exits 2 with a
one-line message on stderr.  MicroPython has no argparse, so the arguments are
read by hand.
"""

import sys

from engine.position import PositionError, Position
from engine.rules import parse_ruleset

USAGE = ('usage: python -m engine start RULESET | '
         'python -m engine moves RULESET "POSITION" THROW')


def _json_string(text):
    # Position and move text hold only letters, digits, '.', '-' and spaces.
    return '"' + text + '"'


def moves_json(rs, position, throw):
    items = []
    for move in rs.legal_moves(position, throw):
        items.append('{"move": %s, "after": %s, "again": %s}' % (
            _json_string(move.text), _json_string(move.after.text()),
            "true" if move.again else "false"))
    return "[" + ", ".join(items) + "]"


def run(args):
    """Return (exit code, stdout text, stderr text)."""
    if not args:
        return 2, "", USAGE
    command = args[0]
    if command == "start" and len(args) == 2:
        return 0, parse_ruleset(args[1]).start().text(), ""
    if command == "moves" and len(args) == 4:
        rs = parse_ruleset(args[1])
        position = Position.parse(args[2])
        rs.check_position(position)
        try:
            throw = int(args[3])
        except ValueError:
            raise PositionError("throw must be a number, got %r" % args[3])
        rs.check_throw(throw)
        return 0, moves_json(rs, position, throw), ""
    return 2, "", USAGE


def main(args):
    try:
        code, out, err = run(args)
    except PositionError as exc:
        code, out, err = 2, "", "error: %s" % exc
    if out:
        print(out)
    if err:
        sys.stderr.write(err + "\n")
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
