"""The playing pieces' shapes as numbers: spools for black, cones for white.

Each piece is a solid of revolution standing on a flat base, with a pocket in
the middle of the base that takes the 8 x 3 mm magnet as a press fit. The
magnet is pushed in until it is flush with the base, so nothing of the piece
lies between the magnet and the board: its lower face sits between 0 mm and
``magnet.depth_clearance`` above the base.

This module gives the profiles and exact volumes; ``solids`` turns them into
solids with the CAD library.
"""

import math

KINDS = ("spool", "cone")


def spool(board):
    """Two flanges joined by a waist, like a thread spool (the sizes in mm)."""
    d, h = board.piece_diameter, board.piece_height("spool")
    flange = round(max(0.2 * h, 2.0), 3)
    return {"kind": "spool", "diameter": d, "height": h, "flange": flange,
            "waist": round(0.62 * d, 3)}


def cone(board):
    """A low plinth and a cone with a flat top."""
    d, h = board.piece_diameter, board.piece_height("cone")
    return {"kind": "cone", "diameter": d, "height": h, "plinth": 2.0,
            "tip": round(0.25 * d, 3)}


def shape(board, kind):
    return spool(board) if kind == "spool" else cone(board)


def radius_at(piece, z):
    """The outer radius of the piece at height z above its base."""
    r = piece["diameter"] / 2
    if piece["kind"] == "spool":
        if z <= piece["flange"] or z >= piece["height"] - piece["flange"]:
            return r
        return piece["waist"] / 2
    if z <= piece["plinth"]:
        return r
    share = (z - piece["plinth"]) / (piece["height"] - piece["plinth"])
    return r + (piece["tip"] / 2 - r) * share


def volume(board, piece):
    """The piece's volume in mm^3, pocket taken out."""
    r, h = piece["diameter"] / 2, piece["height"]
    if piece["kind"] == "spool":
        f, w = piece["flange"], piece["waist"] / 2
        solid = math.pi * (2 * f * r * r + (h - 2 * f) * w * w)
    else:
        p, t = piece["plinth"], piece["tip"] / 2
        solid = math.pi * p * r * r + math.pi * (h - p) / 3 * (r * r + r * t + t * t)
    pocket = math.pi * (board.pocket_diameter / 2) ** 2 * board.pocket_depth
    return solid - pocket


def check(board):
    """Refuse pieces that cannot hold the magnet with a wall all round it."""
    wall = board.pieces["wall"]
    for kind in KINDS:
        piece = shape(board, kind)
        need = board.pocket_diameter / 2 + wall
        for z in (0, board.pocket_depth, board.pocket_depth + wall):
            if radius_at(piece, z) < need:
                raise ValueError("the %s is too slim at a pitch of %s mm to hold the "
                                 "magnet with a %s mm wall." % (kind, board.pitch, wall))
        if piece["height"] < board.pocket_depth + wall:
            raise ValueError("the %s is too short to hold the magnet." % kind)
