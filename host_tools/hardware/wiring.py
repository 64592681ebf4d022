"""Where each square's switch is wired, numbered as docs/hardware.md and
hardware/wiring.svg number it: matrix rows 0-5 and columns 0-4, chain inputs
0-31, LEDs 0-35. Pure; used by the doc tables, the diagram and
``senet-board check``'s report.
"""

SQUARES = 30
MATRIX_COLS = 5

# 74HC165 inputs in the order they shift out (H first), with their chip pins.
SR_INPUTS = (("H", 6), ("G", 5), ("F", 4), ("E", 3), ("D", 14), ("C", 13),
             ("B", 12), ("A", 11))


def matrix_place(square):
    """(row, column) of the crossing where square's switch sits: square s is
    at row (s-1)//5, column (s-1)%5."""
    return (square - 1) // MATRIX_COLS, (square - 1) % MATRIX_COLS


def matrix_squares(row=None, col=None):
    """Squares on one matrix row or column."""
    return [s for s in range(1, SQUARES + 1)
            if (row is None or matrix_place(s)[0] == row)
            and (col is None or matrix_place(s)[1] == col)]


def sr_input(k):
    """Chip (1-4), input letter and chip pin of chain input k (k=0 shifts out first)."""
    chip = k // 8 + 1
    letter, pin = SR_INPUTS[k % 8]
    return chip, letter, pin


def where(square, pinmap):
    """Where to look for square's switch on a board wired as ``pinmap``, in the
    docs' words: "matrix row 0 (GP2), column 3 (GP11)" or "74HC165 #1 input E
    (pin 3)"."""
    pins = pinmap["pins"]
    if pinmap["scanner"] == "shift":
        chip, letter, pin = sr_input(square - 1)
        return "74HC165 #%d input %s (pin %d)" % (chip, letter, pin)
    row, col = matrix_place(square)
    return "matrix row %d (GP%d), column %d (GP%d)" % (row, pins["matrix_rows"][row],
                                                        col, pins["matrix_cols"][col])
