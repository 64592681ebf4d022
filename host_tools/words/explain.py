"""What the board asks now, in words: sentence keys for the page.

The page speaks three languages, so this module never writes a sentence: it
picks *keys* (``"do.capture"``) and their arguments (``{"square": 8}``), and
the page fills them from host_tools/words/i18n/<lang>.json. Everything it says
comes from what the board itself shows and reports: the App's state, the role
of every square's light and the events on the serial line. It knows no rule:
a capture is told from the lights asking to put a piece back where the mover
came from, the water from a piece to take off square 27, and so on, exactly
as a player reads the board.

Two readers feed it the same way: the simulator (host_tools/sim/board.py,
from the App it runs) and the mirror of a real board (host_tools/board/show.py,
from the serial events). Both keep a ``Story`` of the events so far and call
``explain(board, story)``.

    board: {"state", "turn", "throw", "roles", "winner", "score", "computer_side",
            "mode"}

Sides are "B" and "W"; a key that names a side ends in ".B" or ".W", so each
language can say it in its own grammar. Two opponents who take the
computer's seat have words of their own: a museum exhibit playing a lone
visitor's other side (words/museum.py), and the player far away of a board
in a remote game (words/remote.py).
"""

from host_tools.words import museum
from host_tools.words.remote import Far, opponent, threw

WATER = 27        # the House of Water (K12, H10)
HAPPINESS = 26    # the House of Happiness (K11)


class Story:
    """What the events tell that the board's state does not: who throws in
    the opening, who won it, the computer's side and chosen move, the
    board's mode as its hello said, the end, and at a museum exhibit the
    lone visitor's opponent (firmware/museum.py): the side the board offers
    to play, the side it took, a side handed back; in a remote game, the
    room's news (``far``)."""

    def __init__(self):
        self.player = 1          # opening: 1 throws at the black light, 2 at the white
        self.start = None        # the start event, until the first move or pass
        self.computer = None     # the computer event, until its move is played
        self.computer_side = None  # the side the computer plays, as its events told this game
        self.over = None         # the game_over event, until a new game
        self.last_throw = None   # the last throw event (opening ones included)
        self.opening = False     # the board was last seen in its opening
        self.offer = None        # museum: the side the board offers to play, while it does
        self.board_side = None   # museum: the side the board took for a lone visitor
        self.news = None         # museum: a hand_back or no_computer event, until a move
        self.taking_back = False  # an undo's pieces are being put back
        self.mode = None         # the board's mode as its hello said ("computer", ...)
        self.attracting = False  # museum: the travelling light runs, until a touch
        self.position = None     # the game's position text, as the last event gave it
        self.far = Far()         # a board in a room: the opponent far away (words/remote.py)

    def saw(self, state):
        """The board's state, as read: a mistake made during the opening is
        still the opening (the App reports both as "mismatch")."""
        if state == "opening":
            self.opening = True
        elif state not in ("mismatch", None):
            self.opening = False

    def event(self, event):
        name = event.get("event")
        self.far.event(event)
        text = event.get("after" if name == "move" else "position")
        if name in ("ready", "new", "undo", "setup", "move") and isinstance(text, str):
            self.position = text
        if name == "hello":
            self.mode = event.get("mode")
            self.attracting = False  # a restart begins without the light
        elif name in ("throw", "move", "new"):
            self.attracting = False  # the board is being played
        if name in ("ready", "new", "undo"):
            self.player = 1
            self.computer = None
            if name == "new" or (name == "ready" and not self.taking_back):
                museum.done(self)        # a new game or a restart: the museum's side is gone
            self.taking_back = name == "undo"    # its "ready" ends the takeback, not the game
            if name != "ready":
                self.start = None
                self.over = None
                self.last_throw = None
            if name == "new":
                # A new game may have another opponent (the new command's
                # mode and side), which the event says.
                self.computer_side = event.get("computer")
                if "mode" in event:
                    self.mode = event["mode"]
        elif name == "throw":
            self.last_throw = event
            self.offer = None
            player = event.get("player")
            if event.get("opening"):
                if event.get("value") != 1 and player in (1, 2):
                    self.player = 3 - player
            if event.get("by") in ("computer", "remote"):     # the opponent's seat
                if event.get("side") in ("B", "W"):
                    self.computer_side = event["side"]
                elif player in (1, 2):
                    # In the opening the computer throws at its own side's
                    # light: black's is player 1's, white's player 2's.
                    self.computer_side = "B" if player == 1 else "W"
        elif name == "start":
            self.start = event
            self.opening = False
        elif name == "computer":
            self.computer = event
            if event.get("side") in ("B", "W"):
                self.computer_side = event["side"]
        elif name == "museum":
            museum.heard(self, event)
        elif name in ("move", "pass"):
            self.start = None
            self.computer = None
            self.offer = None
            self.news = None
        elif name == "game_over":
            self.over = event

    def attract_shown(self, state):
        """Is the travelling light on? The setup and takeback words stay
        above it: they say which pieces to put where."""
        return self.attracting and state not in ("setup", "takeback", "howto")



def squares(roles, role):
    """The squares (1..30) whose light shows ``role``."""
    return [i + 1 for i, r in enumerate(roles or ()) if r == role]


def sticks_live(state, throw):
    """Do the stick lights show the throw being played (True), or one whose
    turn has passed, which the page shows dimmed as the last throw (False)?"""
    return state in ("move", "nomove", "opening") or (state == "mismatch" and throw is not None)


def _side(value):
    return value if value in ("B", "W") else None


def _move_squares(text):
    """(from, to) of move text "12-15" / "28-off"; None for anything else."""
    if not isinstance(text, str) or "-" not in text:
        return None
    a, b = text.split("-", 1)
    try:
        origin = int(a)
    except ValueError:
        return None
    if b == "off":
        return origin, "off"
    try:
        return origin, int(b)
    except ValueError:
        return None


def _carried_to(house, put):
    """Of the squares asking for a piece, the one the piece on ``house`` goes
    to. The water sends it back, to 15 or further (K12, H10), so the
    farthest back; the House of Happiness carries it on to 29 (K11), so the
    first square past 26. Another ``put`` at the same time is where a piece
    it captured goes: the square the mover came from, just before the
    house (C6)."""
    if house == HAPPINESS:
        ahead = [s for s in put if s > house]
        return ahead[0] if ahead else put[0]
    return min(put)


def _put_on(put, position):
    """Where pieces are wanted, by the colour that belongs there (K2 and H2 lay them
    out oppositely; a reed switch cannot tell), or in general without a position."""
    if not isinstance(position, str) or len(position) < 30:
        return [["do.put_on", {"squares": put}]]
    words = [["do.put_on." + side, {"squares": [s for s in put if position[s - 1] == side]}]
             for side in "BW"]
    return [w for w in words if w[1]["squares"]]


def _opponent(story, key, args, throw=None, side=""):
    """The computer's sentence, or another opponent's in the computer's seat:
    a museum board plays a lone visitor's side itself ("the board plays
    black"), a board in a room seats the player far away there."""
    if story.far.room:
        return opponent(key, args, throw, side)
    return [(museum.BOARD_KEYS.get(key, key) if story.board_side is not None else key) + side, args]


def _start_words(story, against_computer):
    """Who threw the first 1, and the side that starts with it (K4, H4).

    Between two people the thrower takes the side that starts, whatever
    light they threw at, so the player at the black light may now play
    white: the words say so. Against the computer the colours stay as set;
    the words say only whether the computer or the person threw it."""
    start = story.start
    side = start["side"]
    words = [["status.start." + side, {"player": start.get("player")}]]
    if (story.last_throw or {}).get("by") in ("computer", "remote"):
        words.append(_opponent(story, "status.threw_first.computer", {}))
    elif against_computer:
        words.append(["status.threw_first.you", {}])
    elif start.get("player") == 1:
        words.append(["status.threw_first.black_light." + side, {}])
    elif start.get("player") == 2:
        words.append(["status.threw_first.white_light." + side, {}])
    return words


def explain(board, story):
    """The page's words: ``{"kind", "status", "instruction"}``, each sentence
    a ``[key, args]`` pair. ``kind`` names the sentence class (attract, opening,
    start, turn, capture, water, mistake, missing, nomove, computer, offer,
    winner, setup, ...), for the page's styling and for tests."""
    state = board.get("state")
    roles = board.get("roles") or []
    turn = _side(board.get("turn"))
    throw = board.get("throw")
    status = []
    do = []
    kind = state or "unknown"
    story.saw(state)

    if story.attract_shown(state):
        # A museum board's travelling light: the board waits for visitors,
        # whatever game stands on it, until a touch.
        return {"kind": "attract", "status": [["status.attract", {}]],
                "instruction": [["do.attract", {}]]}

    if state in ("setup", "takeback"):
        put, take = squares(roles, "put"), squares(roles, "take")
        status.append(["status.setup" if state == "setup" else "status.takeback", {}])
        status.extend(story.far.status())    # two boards' rules differ: said before a piece is set
        if take:
            do.append(["do.take_off", {"squares": take}])
        if put:
            do.extend(_put_on(put, story.position))
        if not put and not take:
            do.append(["do.setup_wait", {}])
        if squares(roles, "setup") and story.position is not None:
            do.append(["do.check_colours", {}])
        kind = "setup"
        return {"kind": kind, "status": status, "instruction": do}

    if state == "howto":
        return {"kind": "howto", "status": [["status.howto", {}]],
                "instruction": [["do.howto", {}]]}

    if state == "game_over":
        over = story.over or {}
        winner = _side(board.get("winner", over.get("winner")))
        score = board.get("score", over.get("score")) or 0
        if winner is None:
            status.append(["status.draw", {}])
        else:
            status.append(["status.winner." + winner, {}])
            if score:
                status.append(["status.score", {"points": score}])
        do.append(["do.new_game", {}])
        return {"kind": "winner", "status": status, "instruction": do}

    # Whose turn and the throw.
    computer_side = _side(board.get("computer_side")) or story.computer_side or story.far.side
    opening = state == "opening" or (state == "mismatch" and story.opening)
    if opening:
        status.append(["status.opening", {}])
    elif story.start is not None and _side(story.start.get("side")):
        status.extend(_start_words(story, computer_side is not None
                                   or (board.get("mode") or story.mode) == "computer"))
        kind = "start"            # its words tell the throw too: the first 1
    elif turn is not None and state in ("move", "nomove") and throw is not None:
        far = story.far.room and computer_side == turn
        status.append(threw(throw) if far else ["status.threw." + turn, {"value": throw}])
    elif turn is not None and state in ("throw", "mismatch") and not opening:
        status.append(["status.turn." + turn, {}])
    status.extend(museum.words(story))
    status.extend(story.far.status())

    # What the board asks now, mistakes first.
    error, missing = squares(roles, "error"), squares(roles, "missing")
    if error or missing:
        if error:
            do.append(["do.error", {"squares": error}])
        if missing:
            do.append(["do.missing", {"squares": missing}])
        kind = "mistake" if error else "missing"
        return {"kind": kind, "status": status, "instruction": do}

    if story.far.waits() and state in ("opening", "throw"):
        kind, do = story.far.waiting()       # no throw on either board meanwhile
        return {"kind": kind, "status": status, "instruction": do}

    if state == "opening":
        light = "B" if story.player == 1 else "W"
        if computer_side == light:          # it throws at its own side's light
            do.append(_opponent(story, "do.computer_throws.", {}, side=light))
            return {"kind": "computer", "status": status, "instruction": do}
        do.append(["do.opening." + light, {}])
        return {"kind": "opening", "status": status, "instruction": do}

    if state == "nomove":
        do.append(["do.nomove", {}])
        return {"kind": "nomove", "status": status, "instruction": do}

    if state == "throw":
        if computer_side is not None and computer_side == turn:
            do.append(_opponent(story, "do.computer_throws.", {}, side=turn))
            kind = "computer"
        elif turn is not None and story.offer == turn:
            do.append(["do.offer." + turn, {}])     # a press declines, waiting accepts
            kind = "offer"
        elif turn is not None:
            do.append(["do.throw." + turn, {}])
            if kind != "start":
                kind = "turn"
        return {"kind": kind, "status": status, "instruction": do}

    if state != "move":
        return {"kind": kind, "status": status, "instruction": do}

    take, put = squares(roles, "take"), squares(roles, "put")
    lifted, target = squares(roles, "lifted"), squares(roles, "target")
    c_from, c_to = squares(roles, "computer_from"), squares(roles, "computer_to")
    if take and put:
        house = WATER if WATER in take else HAPPINESS if HAPPINESS in take else None
        if house is not None:
            to = _carried_to(house, put)
            if house == WATER:
                do.append(["do.water", {"from": WATER, "to": to}])
                kind = "water"
            else:
                do.append(["do.happiness", {"from": HAPPINESS, "to": to}])
                kind = "happiness"
            for square in put:
                if square != to:
                    do.append(["do.capture", {"square": square}])
        else:
            do.append(["do.carry", {"from": take[0], "to": put[0]}])
            kind = "capture"
    elif put:
        do.append(["do.capture", {"square": put[0]}])
        kind = "capture"
    elif c_from or c_to or (story.computer is not None and computer_side == turn):
        move = _move_squares((story.computer or {}).get("move"))
        if move is None and c_from:
            move = (c_from[0], c_to[0] if c_to else "off")
        if move is not None and move[1] == "off":
            do.append(_opponent(story, "do.computer_off", {"from": move[0]}, throw))
        elif move is not None:
            do.append(_opponent(story, "do.computer", {"from": move[0], "to": move[1]}, throw))
        kind = "computer"
    elif lifted and target:
        do.append(["do.target", {"choices": target}])
        kind = "lifted"
    elif lifted:
        do.append(["do.off", {"square": lifted[0]}])
        kind = "lifted"
    else:
        movable = squares(roles, "movable")
        if movable:
            do.append(["do.move." + (turn or "B"), {"value": throw, "squares": movable}])
        elif story.far.room and computer_side == turn:     # their move is on its way
            do.extend(story.far.waiting()[1] if story.far.waits() else [["do.remote_moving", {}]])
        if kind != "start":
            kind = "turn"
    return {"kind": kind, "status": status, "instruction": do}
