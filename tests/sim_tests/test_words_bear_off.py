"""When the computer (or a museum board playing a lone visitor's side) takes
a piece off at the end of its race, the words say whose piece it is, that it
has finished the race, and what the visitor does with it: take it off the
board. "Do it for it" asked the visitor to guess what "it" was twice over.

The sentence is the page's and the exhibit card's (host_tools/words/i18n).
"""

import pytest

from test_sim_words import LANGS, sentences

# What each language says of a piece that has finished: the same words as the
# player's own "take the piece off" sentence (do.off), so one thing has one name.
FINISHED = {"en": "finished the race", "hu": "célba ért", "ru": "прошла весь путь"}
# And the visitor's own action, said in full.
TAKE_OFF = {"en": "take it off the board", "hu": "vedd le a tábláról",
            "ru": "снимите её с доски"}
VAGUE = {"en": ("do it for it", "for it"), "hu": ("helyette",), "ru": ("за него", "за неё")}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("key", ("do.computer_off", "do.board_off"))
def test_the_bear_off_sentence_names_the_finished_piece_and_the_visitors_action(lang, key):
    text = sentences(lang)[key]
    assert FINISHED[lang] in sentences(lang)["do.off"], "do.off changed its words"
    assert FINISHED[lang] in text, (lang, key, text)
    assert TAKE_OFF[lang] in text, (lang, key, text)
    for vague in VAGUE[lang]:
        assert vague not in text, (lang, key, text)
    assert "{from}" in text


@pytest.mark.parametrize("lang", LANGS)
def test_the_computer_and_the_board_say_the_same_sentence_but_for_who(lang):
    words = sentences(lang)
    assert words["do.computer_off"] != words["do.board_off"]
    assert len(words["do.computer_off"].split()) == pytest.approx(
        len(words["do.board_off"].split()), abs=2)


def test_museum_md_quotes_the_boards_own_sentences_as_the_page_says_them():
    """docs/museum.md tells staff what the screen says while the board plays a
    lone visitor's side: the page's English sentences, word for word."""
    import os
    import paths
    with open(os.path.join(paths.ROOT, "docs", "museum.md"), encoding="utf-8") as f:
        doc = " ".join(f.read().split())
    words = sentences("en")
    said = [words["status.board_plays.B"].split(":")[0],
            words["do.board_throws.B"],
            words["do.board"].format(**{"from": 9, "to": 12}),
            words["do.board_off"].format(**{"from": 28})]
    for sentence in said:
        assert sentence in doc, sentence
