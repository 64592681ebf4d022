"""Analysis of a whole game, on the laptop (never on the board's Pico).

    analyse(record_text) -> dict, ready for JSON:

    {"plies": [{"ply": 12, "turn": 7, "side": "W", "throw": 3, "move": "10-13",
                "best": "10-13", "chance": 0.62, "low": 0.58, "high": 0.66,
                "after": 0.62, "loss": 0.0, "mistake": false,
                "moves": [{"move": "10-13", "chance": 0.62}, ...]}, ...],
     "chances": [White's chance after each ply, for the chart],
     "mistakes": [the ply numbers marked as mistakes, in the game's order],
     "method": "...", "seconds": 0.4, ...}

``chance`` is the winning chance of the side to move *before* its move, with
the throw it got: the chance after its best move (``best``, the move the
analysis rates highest, ties to the rearmost piece as the computer levels
break them); ``after`` is that side's chance after the move it played, and
``loss`` the difference. A lost turn has ``move`` and ``best`` None. A move
is a mistake when it gave away at least MISTAKE (8 percentage points).
Chances come from host_tools/analysis/chance.py (calibrated against
self-play games: docs/computer.md, "Winning chances").
"""

import time

from engine.position import Position
from engine.record import read

from host_tools.analysis.chance import model_for, move_chances

MISTAKE = 0.08               # a move that loses this much winning chance is a mistake
METHOD = ("logistic model over the engine's evaluation and the race, calibrated "
          "against self-play games; 90% interval from the fit's uncertainty and "
          "its measured calibration error")


def analyse(record_text, clock=time.perf_counter):
    """Analyse the game in ``record_text`` (engine/record.py's format, either
    version). Raise ValueError (RecordError) with one line for a record that
    cannot be read, or a ruleset without a fitted model. The chances come
    from a fitted model, not random playouts, so the same record always gets
    the same analysis."""
    started = clock()
    rec = read(record_text)
    rs = rec.game.ruleset
    model = model_for(rs)
    plies = []
    chances = []
    for ply in rec.plies:
        entry, white_after = _ply(model, rs, ply)
        plies.append(entry)
        chances.append(round(white_after, 4))
    if rec.game.is_over() and chances:
        chances[-1] = 1.0 if rec.game.winner == "W" else 0.0 if rec.game.winner else 0.5
    return {"plies": plies, "chances": chances,
            "mistakes": [p["ply"] for p in plies if p["mistake"]],
            "method": METHOD, "ruleset": model.spec, "result": rec.result,
            "seconds": round(clock() - started, 3)}


def _ply(model, rs, ply):
    """One ply's analysis, and White's chance after it."""
    before = Position.parse(ply.before)
    ranked = move_chances(model, rs, before, ply.throw)
    best, (chance, low, high) = ranked[0]
    after = None
    for move, scored in ranked:
        if (move.text if move is not None else None) == ply.move:
            after = scored[0]
    if after is None:                      # cannot happen: the record was replayed
        raise ValueError("ply %d: %s is not among the legal moves" % (ply.number, ply.move))
    loss = max(0.0, chance - after)
    white_after = after if ply.side == "W" else 1.0 - after
    entry = {"ply": ply.number, "turn": ply.turn, "side": ply.side, "throw": ply.throw,
             "move": ply.move, "best": best.text if best is not None else None,
             "chance": round(chance, 4), "low": round(low, 4), "high": round(high, 4),
             "after": round(after, 4), "loss": round(loss, 4), "mistake": loss >= MISTAKE,
             "moves": [{"move": m.text if m is not None else None, "chance": round(s[0], 4)}
                       for m, s in ranked]}
    return entry, white_after
