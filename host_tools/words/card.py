"""The printed exhibit card: an A5 sheet a museum lays beside the board.

It says how to play, what the four sticks throw in each ruleset and which
squares are special, in the visitor's language. Every sentence comes from the
page's own language files (``i18n/<lang>.json``): the card's keys start with
``card.``, and the title, the introduction, the heading "How to play" and the
names of the houses are the page's, so a translator's change reaches the
screen and the card at once. The card is an SVG in millimetres (viewBox
0 0 148 210); lines are wrapped by an estimate of each character's width in
DejaVu Sans, which has the Hungarian accents and the Cyrillic letters.
"""

import json
import sys
import os

from host_tools.words import I18N_DIR, LANGUAGES

WIDTH, HEIGHT = 148, 210       # A5, mm
MARGIN = 10                    # mm on every side
FONTS = "'DejaVu Sans', 'Noto Sans', 'Liberation Sans', Arial, sans-serif"
TITLE, HEADING, BODY = 6.6, 4.4, 3.3   # font sizes, mm
LEADING = 1.3                 # line height as a multiple of the font size
INK, ACCENT = "#1d1a16", "#8a5a12"

# The squares the page marks, with its signs (host_tools/sim/web/sim.js, SPECIAL).
SPECIAL = ((15, "\u2625"), (26, "\u2665"), (27, "\u2248"),
           (28, "III"), (29, "II"), (30, "\u2609"))
SHARED_KEYS = ("attract.title", "attract.what", "howto.title") + tuple(
    "house.%d" % square for square, _ in SPECIAL)

# Advance widths in em, a little wider than DejaVu Sans's so a line never
# runs past the margin on a printer's substitute font.
NARROW = set(" .,:;'’!|ilIjtfr()«»„”“-1")
WIDE = set("mwMWшщжюмыфШЩЖЮМЫФ—–%")


def char_width(ch):
    """One character's estimated advance, in em."""
    if ch in NARROW:
        return 0.36
    if ch in WIDE:
        return 0.95
    if ch.isupper() or ch.isdigit():
        return 0.74
    return 0.62


def text_width(text, size, bold=False):
    """A line's estimated width in mm at font size ``size`` (mm); bold
    letters are about a tenth wider."""
    return size * sum(char_width(ch) for ch in text) * (1.12 if bold else 1.0)


def wrap(text, size, bold=False, width=WIDTH - 2 * MARGIN):
    """The words of ``text`` in lines no wider than ``width`` mm."""
    lines, line = [], ""
    for word in text.split():
        candidate = word if not line else line + " " + word
        if line and text_width(candidate, size, bold) > width:
            lines.append(line)
            line = word
        else:
            line = candidate
    if line:
        lines.append(line)
    return lines


def load_text(lang, i18n_dir=I18N_DIR):
    """The sentences of one language, keyed as the page keys them."""
    if lang not in LANGUAGES:
        raise ValueError("no language %r: choose one of %s" % (lang, ", ".join(LANGUAGES)))
    with open(os.path.join(i18n_dir, lang + ".json"), encoding="utf-8") as f:
        return json.load(f)["text"]


def escape(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class Sheet:
    """The card as it is laid out, top to bottom, one text line at a time."""

    def __init__(self):
        self.y = MARGIN
        self.parts = []

    def line(self, text, size, x=MARGIN, weight="normal", colour=INK):
        self.parts.append(
            '<text x="%s" y="%.2f" font-size="%s" font-weight="%s" fill="%s">%s</text>'
            % (x, self.y + size, size, weight, colour, escape(text)))

    def paragraph(self, text, size=BODY, weight="normal", colour=INK, after=1.6):
        for text_line in wrap(text, size, weight == "bold"):
            self.line(text_line, size, weight=weight, colour=colour)
            self.y += size * LEADING
        self.y += after

    def heading(self, text):
        self.y += 1.5
        self.paragraph(text, HEADING, weight="bold", colour=ACCENT, after=0.8)

    def rule(self):
        self.parts.append('<line x1="%s" y1="%.2f" x2="%s" y2="%.2f" stroke="%s" '
                          'stroke-width="0.3"/>' % (MARGIN, self.y, WIDTH - MARGIN,
                                                   self.y, ACCENT))
        self.y += 2


def houses(sheet, text):
    """One row a special square: the page's sign, its number and its name."""
    size = BODY + 0.4
    for square, sign in SPECIAL:
        sheet.parts.append(
            '<rect x="%s" y="%.2f" width="10" height="%.2f" rx="1" fill="none" '
            'stroke="%s" stroke-width="0.3"/>' % (MARGIN, sheet.y, size * 1.5, ACCENT))
        sheet.line(sign, size, x=MARGIN + 5 - text_width(sign, size) / 2, colour=ACCENT)
        sheet.line("%d  %s" % (square, text["house.%d" % square]), size, x=MARGIN + 13)
        sheet.y += size * 1.75


def card_svg(lang, i18n_dir=I18N_DIR):
    """The whole card in ``lang`` as SVG text, from ``i18n_dir``'s files."""
    text = load_text(lang, i18n_dir)
    sheet = Sheet()
    sheet.paragraph(text["attract.title"], TITLE, weight="bold", after=1.0)
    sheet.rule()
    sheet.paragraph(text["attract.what"])
    sheet.heading(text["howto.title"])
    sheet.paragraph(text["card.play"])
    sheet.heading(text["card.throw.title"])
    sheet.paragraph(text["card.throw"], after=0.6)
    sheet.paragraph(text["card.throw.kendall"], after=0.6)
    sheet.paragraph(text["card.throw.hungarian"])
    sheet.heading(text["card.houses.title"])
    sheet.paragraph(text["card.houses"], after=1.2)
    houses(sheet, text)
    sheet.rule()
    sheet.paragraph(text["card.begin"], BODY + 0.4, weight="bold")
    if sheet.y > HEIGHT - MARGIN:
        raise ValueError("the %s card runs %.0f mm past the foot of the page"
                         % (lang, sheet.y - HEIGHT + MARGIN))
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<svg xmlns="http://www.w3.org/2000/svg" width="%smm" height="%smm" '
            'viewBox="0 0 %s %s" font-family="%s" lang="%s">\n'
            '<rect width="%s" height="%s" fill="#fbf7ee"/>\n%s\n</svg>\n'
            % (WIDTH, HEIGHT, WIDTH, HEIGHT, FONTS, lang, WIDTH, HEIGHT,
               "\n".join(sheet.parts)))


def add_arguments(parser):
    parser.add_argument("--lang", default="all",
                        help="en, hu, ru or all (default: all)")
    parser.add_argument("--out", default=".", help="folder for card-<lang>.svg (default: here)")


def run(args):
    """Write card-<lang>.svg; a bad language or folder is one line, nothing written."""
    langs = LANGUAGES if args.lang == "all" else (args.lang,)
    if args.lang != "all" and args.lang not in LANGUAGES:
        print("senet-board card: no language %r: choose en, hu, ru or all" % args.lang,
              file=sys.stderr)
        return 2
    try:
        cards = [(lang, card_svg(lang)) for lang in langs]
    except ValueError as exc:
        print("senet-board card: %s" % exc, file=sys.stderr)
        return 1
    try:
        os.makedirs(args.out, exist_ok=True)
        for lang, svg in cards:
            with open(os.path.join(args.out, "card-%s.svg" % lang), "w", encoding="utf-8") as f:
                f.write(svg)
    except OSError as exc:
        print("senet-board card: cannot write to %s: %s" % (args.out, exc.strerror or exc),
              file=sys.stderr)
        return 1
    for lang, _ in cards:
        print(os.path.join(args.out, "card-%s.svg" % lang))
    return 0
