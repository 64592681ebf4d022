"""The game record: one text for a whole game, as PGN is for chess.

    >>> from engine import ruleset
    >>> from engine.game import play_game
    >>> from engine.record import record, read
    >>> game = play_game(ruleset("kendall"), 7)
    >>> text = record(game, {"date": "2026-12-01", "white": "person"})
    >>> print(text.splitlines()[0])
    senet-game 2
    >>> again = read(text)
    >>> again.game.position == game.position, again.headers["white"]
    (True, 'person')
    >>> again.plies[0].text
    '1. W 1 8-9 capture:B9>8 again'

Version 2 (docs/record.md): headers (``ruleset``, ``date``, ``white``,
``black``, ``site``, ``board``, ``result``, ``start``, ``opening``, and any
other lower-case word), then one ply a line, numbered by turn, with marks
for what the rules did (a capture, the water, the House of Happiness, a
piece off, a throw again), then ``end``. Every mark follows from replaying
the game, so the reader replays each line through the engine and refuses a
record whose marks, turn numbers or result disagree, naming the line.
Version 1 (engine/record1.py, what ``Game.record`` writes and the monitor
keeps) is read too.
"""

from engine.position import Position, PositionError, BLACK, WHITE, OFF, other
from engine.rules import parse_ruleset, ruleset_spec
from engine.game import Game

VERSION = 2
FIRST_LINE = "senet-game 2"
V1_FIRST_LINE = "senet-game 1"

# headers in the order they are written; any other lower-case word follows
# them (sorted), before ``result``, ``start`` and ``opening``
_FIRST = ("ruleset", "date", "white", "black", "site", "board")
_LAST = ("result", "start", "opening")
# the order marks are written in
_MARKS = ("backward", "capture", "water", "happiness", "off", "again")


class RecordError(PositionError):
    """A record that cannot be read; the one-line message names the line."""


class Ply:
    """One throw and what came of it, as a move list shows it.

    ``number`` 1-based ply; ``turn`` the turn number shown (a turn lasts
    while the same side throws again, K5, H5); ``side`` "W" or "B";
    ``throw`` its value; ``move`` the move text, or None for a lost turn;
    ``marks`` words: "pass", "backward", "capture", "water", "happiness",
    "off", "again"; ``captured`` the square of the piece taken (C6: it goes
    to ``origin``); ``final`` where the piece came to rest ("off" when it
    left); ``before`` and ``after`` position texts; ``line`` the line of
    the record it was read from (0 when written).
    """

    def __init__(self, number, turn, side, throw, move, tokens, before, after):
        self.number = number
        self.turn = turn
        self.side = side
        self.throw = throw
        self.move = move
        self.tokens = tokens
        self.before = before
        self.after = after
        self.captured = None
        self.final = None
        self.line = 0

    @property
    def marks(self):
        words = ["pass"] if self.move is None else []
        for token in self.tokens:
            words.append(token.split(":")[0])
        return words

    @property
    def text(self):
        """The ply's line in the record: ``12. W 3 11-14 capture:B14>11``."""
        parts = ["%d." % self.turn, self.side, str(self.throw), self.move or "pass"]
        return " ".join(parts + self.tokens)

    def as_dict(self):
        """The ply as plain data (JSON-ready), for the page."""
        return {"number": self.number, "turn": self.turn, "side": self.side,
                "throw": self.throw, "move": self.move, "marks": self.marks,
                "text": self.text, "before": self.before, "after": self.after,
                "captured": self.captured, "final": self.final}


class GameRecord:
    """A record read back: ``headers`` (dict of text), ``game`` (the Game,
    replayed through the engine), ``plies`` (list of Ply), ``result``
    ("W 3", "B 0", "draw 4", or "*" while the game goes on), ``version``."""

    def __init__(self, headers, game, plies, version):
        self.headers = headers
        self.game = game
        self.plies = plies
        self.version = version

    @property
    def result(self):
        return result_text(self.game)


def result_text(game):
    """``W 3``: the winner and the points scored (H15; 0 under kendall),
    ``draw 4`` (H14's literal option), ``*`` while the game goes on."""
    if not game.is_over():
        return "*"
    return "%s %d" % (game.ended[0] or "draw", game.ended[1])


# -- the marks: what the rules did, derived from the move --------------------

def marks_of(rs, move):
    """The mark tokens of a played ``move`` (a Move), in the written order."""
    tokens = []
    if move.backward:
        tokens.append("backward")                      # K15, H13
    if move.capture:                                   # C6: the taken piece swaps to origin
        tokens.append("capture:%s%d>%d" % (other(move.side), move.to, move.origin))
    if move.to == rs.water and move.final != OFF:      # K12, H10
        tokens.append("water:%s>%d" % (_water_rule(rs), move.final))
    elif move.to in rs.happiness and move.final == rs.happiness[move.to]:   # K11
        tokens.append("happiness:K11>%d" % move.final)
    if move.final == OFF:                              # K13, H11
        tokens.append("off")
    if move.again:                                     # K5, K10, H5
        tokens.append("again")
    return tokens


def _water_rule(rs):
    """K12 sends a piece to the nearest free square before 15, H10 to 1."""
    return "K12" if rs.water_fallback == "before" else "H10"


def _pass_tokens(rs, throw):
    return ["again"] if throw in rs.again_values else []


# -- writing ---------------------------------------------------------------

def record(game, headers=None):
    """The game as version-2 record text. ``headers``: a dict of other
    headers ("date", "white", "black", "site", "board", ...); the ruleset,
    start, opening and result come from the game (given ones must agree)."""
    lines = [FIRST_LINE]
    for key, value in _header_lines(game, headers or {}):
        lines.append("%s %s" % (key, value))
    lines.append("")
    for ply in plies_of(game):
        lines.append(ply.text)
    if game.is_over():
        lines.append("end " + result_text(game))
    return "\n".join(lines) + "\n"


def _header_lines(game, headers):
    own = {"ruleset": ruleset_spec(game.ruleset), "result": result_text(game),
           "start": game.start.text()}
    if game.opening:
        own["opening"] = " ".join([str(v) for v in game.opening])
    given = {}
    for key in headers:
        value = str(headers[key]).strip()
        _check_header(key, value)
        given[key] = value
        if key in own and value != own[key]:
            raise RecordError("header %s %r disagrees with the game (%s)" % (key, value, own[key]))
    out = []
    for key in _FIRST:
        value = own.get(key, given.get(key))
        if value is not None:
            out.append((key, value))
    for key in sorted(given):
        if key not in _FIRST and key not in _LAST:
            out.append((key, given[key]))
    for key in _LAST:
        if key in own:
            out.append((key, own[key]))
    return out


def plies_of(game):
    """Every ply of ``game`` as a Ply, replayed through its ruleset."""
    rs = game.ruleset
    out = []
    turn = 0
    last = None
    for side, throw, text, before in game.plies():
        if side != last:
            turn += 1
            last = side
        move = None if text is None else rs.find_move(before, throw, text)
        out.append(_ply(rs, len(out) + 1, turn, side, throw, move, before))
    return out


def _ply(rs, number, turn, side, throw, move, before):
    """The Ply for one move (a Move) or lost turn (None), with its marks and
    its facts."""
    if move is None:
        after = rs.pass_position(before, throw)
        return Ply(number, turn, side, throw, None, _pass_tokens(rs, throw),
                   before.text(), after.text())
    ply = Ply(number, turn, side, throw, move.text, marks_of(rs, move),
              before.text(), move.after.text())
    if move.capture:
        ply.captured = move.to
    ply.final = "off" if move.final == OFF else move.final
    return ply


def _check_header(key, value):
    if not key or not ("a" <= key[0] <= "z") or not _word(key):
        raise RecordError("a header name is a lower-case word, got %r" % key)
    if key == "end":
        raise RecordError("'end' begins the end line; it cannot be a header")
    if not value.strip() or "\n" in value or "\r" in value:
        raise RecordError("header %s needs a value on one line, got %r" % (key, value))
    if key == "date":
        _check_date(value)


def _word(key):
    for c in key:
        if not ("a" <= c <= "z" or "0" <= c <= "9" or c == "_"):
            return False
    return True


def _check_date(value):
    """``2026-12-01``, perhaps followed by a time: a real calendar day."""
    day = value.split()[0].split("T")[0]
    parts = day.split("-")
    ok = len(parts) == 3 and len(parts[0]) == 4 and len(parts[1]) == 2 and len(parts[2]) == 2
    for p in parts:
        ok = ok and p.isdigit()
    if not ok or not 1 <= int(parts[1]) <= 12 or not 1 <= int(parts[2]) <= 31:
        raise RecordError("date must be YYYY-MM-DD, like 2026-12-01, got %r" % value)


# -- reading ---------------------------------------------------------------

def read(text):
    """Read a record (version 2, or version 1); replay it through the engine.
    Raise RecordError naming the line and what is wrong."""
    if not isinstance(text, str):
        raise RecordError("a record is text, not %s" % type(text).__name__)
    lines = text.splitlines()
    first = _first_line(lines)
    if first is None:
        raise RecordError("record line 1: empty; a record begins with %r" % FIRST_LINE)
    number, head = first
    if head == FIRST_LINE:
        reader = _Reader(2)
    elif head == V1_FIRST_LINE:
        reader = _Reader(1)
    elif head.startswith("senet-game "):
        raise RecordError("record line %d: %r: this reader reads versions 1 and 2" % (number, head))
    else:
        raise RecordError("record line %d: not a Senet game record (it must begin with %r)"
                          % (number, FIRST_LINE))
    for i in range(number, len(lines)):
        line = lines[i].strip()
        if line and not line.startswith("#"):
            try:
                reader.line(line, i + 1)
            except PositionError as exc:
                raise RecordError("record line %d: %s" % (i + 1, _one_line(exc)))
    return reader.finish(len(lines))


def _first_line(lines):
    for i in range(len(lines)):
        line = lines[i].strip()
        if line and not line.startswith("#"):
            return i + 1, line
    return None


def _one_line(exc):
    text = str(exc)
    if text.startswith("record line "):
        text = text.split(": ", 1)[-1]
    return " ".join(text.split())


class _Reader:
    """Reads a record line by line, replaying each ply as it comes."""

    def __init__(self, version):
        self.version = version
        self.headers = {}
        self.game = None
        self.plies = []
        self.turn = 0
        self.ended = False
        self.last_side = None
        self.header_lines = {}

    def line(self, line, number):
        if self.ended:
            raise PositionError("the game has ended; nothing may follow the end line")
        word, _, rest = line.partition(" ")
        rest = rest.strip()
        if word == "end":
            return self.end(rest)
        if self.version == 1 and word in (BLACK, WHITE):
            return self.ply_v1(word, rest, number)
        if self.version == 2 and word[:1].isdigit():
            return self.ply(word, rest, number)
        return self.header(word, rest, number)

    # -- headers --

    def header(self, key, value, number):
        if self.plies:
            raise PositionError("header %r after the first ply; headers come first" % key)
        if key in self.headers:
            raise PositionError("header %r given twice" % key)
        if not value:
            raise PositionError("header %r has no value" % key)
        if self.version == 1 and key not in ("ruleset", "start", "opening"):
            raise PositionError("unknown record line %r" % key)
        _check_header(key, value)
        if key in ("start", "opening") and self.game is None:
            raise PositionError("the ruleset line must come before %s" % key)
        self.headers[key] = value
        self.header_lines[key] = number
        if key == "ruleset":
            self.game = Game(parse_ruleset(value))
        elif key == "start":
            self.start(value)
        elif key == "opening":
            self.opening(value)
        elif key == "result":
            self.result_header(value)

    def start(self, value):
        position = Position.parse(value)
        self.game.ruleset.check_position(position)
        self.game.start = self.game.position = position

    def opening(self, value):
        """K4, H4: throws until the first 1, which the starting side moves with."""
        throws = []
        for v in value.split():
            if not v.isdigit():
                raise PositionError("opening throws must be numbers, got %r" % v)
            throws.append(int(v))
        if self.version == 2:
            for v in throws:
                self.game.ruleset.check_throw(v)
            if throws[-1] != 1 or 1 in throws[:-1]:
                raise PositionError("the opening throws end at the first 1 (K4, H4), got %r" % value)
        self.game.opening = throws

    def result_header(self, value):
        if value != "*" and _result_words(value) is None:
            raise PositionError("result must be like 'W 3', 'B 0', 'draw 4' or '*', got %r" % value)

    # -- plies --

    def ply(self, label, rest, number):
        """``12. W 3 11-14 capture:B14>11``: checked against the engine."""
        game = self._game()
        words = rest.split()
        if not label.endswith(".") or not label[:-1].isdigit():
            raise PositionError("a ply line begins with its turn number and a dot, like '12.', "
                                "got %r" % label)
        if len(words) < 3:
            raise PositionError("a ply line reads '<turn>. <side> <throw> <move or pass> "
                                "<marks>', got %r (cut short?)" % (label + " " + rest))
        side, value, move = words[0], words[1], words[2]
        ply = self.play(game, side, value, move, number)
        if int(label[:-1]) != ply.turn:
            raise PositionError("turn %s here, but this is turn %d" % (label[:-1], ply.turn))
        if _sorted(words[3:]) != _sorted(ply.tokens):
            raise PositionError("the marks say %r but %s %s with %d is marked %r by the rules" % (
                " ".join(words[3:]), side, move, ply.throw, " ".join(ply.tokens) or "(none)"))

    def ply_v1(self, side, rest, number):
        """``W 3 10-13``: version 1, without turn numbers or marks."""
        words = rest.split()
        if len(words) != 2:
            raise PositionError("a ply line reads '<side> <throw> <move or pass>', got %r"
                                % (side + " " + rest))
        self.play(self._game(), side, words[0], words[1], number)

    def play(self, game, side, value, move, number):
        if side != game.position.turn:
            raise PositionError("%s moves here but it is %s's turn" % (side, game.position.turn))
        if not value.isdigit():
            raise PositionError("the throw must be a number, got %r" % value)
        before = game.position
        game.set_throw(int(value))
        if move == "pass":
            game.pass_turn()
            played = None
        else:
            played = game.play(move)
        if side != self.last_side:
            self.turn += 1
            self.last_side = side
        ply = _ply(game.ruleset, len(self.plies) + 1, self.turn, side, int(value), played, before)
        ply.line = number
        self.plies.append(ply)
        return ply

    def _game(self):
        if self.game is None:
            raise PositionError("the ruleset line must come before the plies")
        return self.game

    # -- the end --

    def end(self, value):
        game = self._game()
        if not game.is_over():
            raise PositionError("the record says the game ended, but it has not")
        if self.version == 2 and value != result_text(game):
            raise PositionError("the end line says %r but the game ended %r" % (value, result_text(game)))
        self.ended = True

    def finish(self, count):
        if self.game is None:
            raise RecordError("record line %d: the record has no ruleset line" % count)
        if self.version == 2:
            result = self.headers.get("result")
            if result is not None and result != result_text(self.game):
                raise RecordError("record line %d: the result header says %r but the plies give %r"
                                  % (self.header_lines["result"], result, result_text(self.game)))
            if self.game.is_over() and not self.ended:
                raise RecordError("record line %d: the game is over (%s) but the record has no "
                                  "end line (cut short?)" % (count, result_text(self.game)))
        if "ruleset" not in self.headers:
            self.headers["ruleset"] = ruleset_spec(self.game.ruleset)
        return GameRecord(self.headers, self.game, self.plies, self.version)


def _result_words(value):
    words = value.split()
    if len(words) != 2 or words[0] not in ("W", "B", "draw") or not words[1].isdigit():
        return None
    return words


def _sorted(tokens):
    out = list(tokens)
    out.sort()
    return out
