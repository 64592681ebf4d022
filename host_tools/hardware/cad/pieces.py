"""The playing pieces' shapes as numbers: spools for black, cones for white.

Each piece is a solid of revolution standing on a flat base, with a pocket in
the middle of the base that takes the 8 x 3 mm magnet as a press fit. Both
print base down without supports: no face that looks down leans more than
45 degrees from vertical. The spool's top flange meets its waist in a
chamfer, and the pocket has a pointed roof like a drilled hole's, both drawn
at ``SLOPE`` so that the triangles of the printed mesh stay within 45. The
magnet is pushed in until it is flush with the base, so nothing of the piece
lies between the magnet and the board: its lower face sits between 0 mm and
``magnet.depth_clearance`` above the base.

This module gives the profiles and exact volumes; ``solids`` turns them into
solids with the CAD library.
"""

import math

KINDS = ("spool", "cone")
SLOPE = 40                  # degrees from vertical of the chamfer and the pocket's roof
RISE = 1 / math.tan(math.radians(SLOPE))    # height per mm of overhang


def spool(board):
    """Two flanges joined by a waist, like a thread spool (the sizes in mm)."""
    d, h = board.piece_diameter, board.piece_height("spool")
    flange = round(max(0.2 * h, 2.0), 3)
    waist = round(0.62 * d, 3)
    return {"kind": "spool", "diameter": d, "height": h, "flange": flange,
            "waist": waist, "chamfer": round((d - waist) / 2 * RISE, 3)}


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
        under = piece["height"] - piece["flange"]          # the top flange's underside
        if z <= piece["flange"] or z >= under:
            return r
        return piece["waist"] / 2 + max(0.0, z - (under - piece["chamfer"])) / RISE
    if z <= piece["plinth"]:
        return r
    share = (z - piece["plinth"]) / (piece["height"] - piece["plinth"])
    return r + (piece["tip"] / 2 - r) * share


def volume(board, piece):
    """The piece's volume in mm^3, pocket taken out."""
    r, h = piece["diameter"] / 2, piece["height"]
    if piece["kind"] == "spool":
        f, w, c = piece["flange"], piece["waist"] / 2, piece["chamfer"]
        solid = math.pi * (2 * f * r * r + (h - 2 * f - c) * w * w
                           + c / 3 * (w * w + w * r + r * r))
    else:
        p, t = piece["plinth"], piece["tip"] / 2
        solid = math.pi * p * r * r + math.pi * (h - p) / 3 * (r * r + r * t + t * t)
    p = board.pocket_diameter / 2
    pocket = math.pi * p * p * (board.pocket_depth + p * RISE / 3)          # and its roof
    return solid - pocket


def pocket_radius(board, z):
    """The pocket's radius at height z: the magnet's bore, then its roof
    narrowing to a point."""
    r = board.pocket_diameter / 2
    return r if z <= board.pocket_depth else max(0.0, r - (z - board.pocket_depth) / RISE)


def check(board):
    """Refuse pieces that cannot hold the magnet with a wall all round it,
    its roof included."""
    wall = board.pieces["wall"]
    apex = board.pocket_depth + board.pocket_diameter / 2 * RISE
    for kind in KINDS:
        piece = shape(board, kind)
        for step in range(21):
            z = apex * step / 20
            if radius_at(piece, z) < pocket_radius(board, z) + wall:
                raise ValueError("the %s is too slim at a pitch of %s mm to hold the "
                                 "magnet with a %s mm wall." % (kind, board.pitch, wall))
        if piece["height"] < apex + wall:
            raise ValueError("the %s is too short to hold the magnet." % kind)
        if kind == "spool" and piece["height"] - 2 * piece["flange"] < piece["chamfer"]:
            raise ValueError("the spool is too short for the chamfer under its top "
                             "flange (pieces.spool_height_per_pitch).")
