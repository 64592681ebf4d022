"""A museum exhibit's lone visitor, in words (firmware/museum.py).

When one visitor plays alone, the exhibit offers to play the other side,
takes it when the offer stands untouched, and hands it back at a press on
that side's turn. The board then plays a side itself, so its throws and
moves are "the board's", never a computer's. The ``museum`` events tell
all this; these functions keep it in the page's Story (explain.py) and
pick its sentence keys, as explain.py does, from i18n/<lang>.json.
"""

# The computer's words, and the exhibit's own in their place.
BOARD_KEYS = {"do.computer_throws.": "do.board_throws.", "do.computer": "do.board",
              "do.computer_off": "do.board_off"}


def _side(value):
    return value if value in ("B", "W") else None


def heard(story, event):
    """A ``museum`` event: the travelling light, the offer, the side the
    board took or handed back."""
    what = event.get("what")
    side = _side(event.get("side"))
    if what in ("attract", "wake", "reset"):
        story.attracting = what == "attract"
    if what == "offer":
        story.offer = side
    elif what == "offer_withdrawn":
        story.offer = None
    elif what == "computer":
        story.offer = None
        story.news = None
        story.computer_side = story.board_side = side
    elif what in ("hand_back", "reset"):
        # The computer leaves that side: a person plays it from now on.
        done(story)
        story.computer_side = None
        story.news = event if what == "hand_back" else None
    elif what == "no_computer":
        story.offer = None
        story.news = event


def done(story):
    """The museum's opponent leaves (its side handed back, the game reset
    or a new one begun); after a restart a computer chosen by config
    stays."""
    if story.board_side is not None:
        story.computer_side = None
    story.offer = story.board_side = story.news = None


def words(story):
    """At a museum exhibit: the side the board plays for a lone visitor and
    how to take it back, or the news that a side is a person's again, or
    that the board cannot play one."""
    if story.board_side is not None:
        return [["status.board_plays." + story.board_side, {}]]
    news = story.news or {}
    if news.get("what") == "hand_back" and _side(news.get("side")):
        return [["status.yours_again." + news["side"], {}]]
    if news.get("what") == "no_computer":
        return [["status.no_computer", {}]]
    return []
