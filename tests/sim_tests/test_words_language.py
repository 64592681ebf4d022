"""Every word in the visitor's language (Debian's headless Chromium).

A short game, played through the simulator on the Hungarian and the Russian
page (a piece lifted, a wrong square, a capture, a finished move, a
Hungarian game too), and at every step the visible text and every
screen-reader label are read: no English word may show. The page's clock
is the simulator's manual one, so every step is exact.
"""

import re

import pytest

from chromium import browser  # noqa: F401  (a module's own browser)
from test_sim_words import hand, open_page, resumed, served, switch, WAIT_MS, words  # noqa: F401

# Words of the English page that once leaked into the other two.
ENGLISH = {"hand", "move", "moves", "white", "black", "round", "flat", "kendall",
           "hungarian", "square", "squares", "piece", "pieces", "empty", "light",
           "app", "board", "game", "turn", "throw", "nothing", "lift", "holds", "your",
           "the", "and", "with", "for"}
# Kendall is a man's name in every language; "kendall" is the ruleset's id.
NAMES = {"Kendall"}


def everything_said(page):
    """The visible text (the folded panels opened, the event log left out:
    it is the serial protocol itself), every aria-label and every title."""
    return page.evaluate("""() => {
        document.querySelectorAll('details').forEach((d) => { d.open = true; });
        const log = document.getElementById('log');    // the serial line's own JSON
        if (log) log.hidden = true;
        const said = [document.body.innerText, document.title];
        for (const el of document.querySelectorAll('[aria-label], [title]')) {
            said.push(el.getAttribute('aria-label') || '', el.getAttribute('title') || '');
        }
        return said.join('\\n');
    }""")


def english_in(text):
    found = set()
    for line in text.splitlines():
        for word in re.findall(r"[A-Za-z]+", line):
            if word.lower() in ENGLISH and word not in NAMES:
                found.add("%s  <- %s" % (word, line.strip()[:90]))
    return found


def scan(page, found):
    found |= english_in(everything_said(page))


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["hu", "ru"])
def test_no_english_word_in_a_simulated_game(browser, served, tmp_path, lang):
    found = set()
    sim = served.use(resumed(tmp_path, "kendall", "kendall",
                             "BWBWBWB...W.B........W........ W", 2))
    context, page, errors = open_page(browser, served.server.url, lang)
    try:
        words(page, None, None, "turn")
        scan(page, found)
        page.click('.sq[data-square="9"]')         # nothing in hand: the page says so
        page.wait_for_function("() => document.getElementById('message').textContent.trim()",
                               timeout=WAIT_MS)
        scan(page, found)
        hand(sim, ("lift", 11))                     # a piece in hand
        words(page, None, None, "lifted")
        scan(page, found)
        hand(sim, ("place", 12))                    # a wrong square
        scan(page, found)
        hand(sim, ("lift", 12), ("place", 11))      # back again
        hand(sim, ("lift", 22), ("place", 24))      # the move done
        words(page, None, None, "turn")
        scan(page, found)
        sim = switch(served, page, resumed(tmp_path, "hungarian", "hungarian",
                                           "BWBWBWB...W.B........W........ W", 2))
        scan(page, found)
        hand(sim, ("lift", 11))
        scan(page, found)
    finally:
        context.close()
    assert not errors, errors
    assert not found, "English on the %s page:\n%s" % (lang, "\n".join(sorted(found)))


# -- the wording of the language files -----------------------------------------------

import json  # noqa: E402
import os  # noqa: E402

from test_sim_words import I18N  # noqa: E402


def sentences(lang):
    with open(os.path.join(I18N, lang + ".json"), encoding="utf-8") as f:
        text = json.load(f)["text"]
    out = {}
    for key, value in text.items():
        for form, sentence in (value.items() if isinstance(value, dict) else [("", value)]):
            out[key + ("." + form if form else "")] = sentence
    return out


def offending(lang, pattern, flags=0):
    return {k: s for k, s in sentences(lang).items() if re.search(pattern, s, flags)}


def test_russian_wording():
    assert offending("ru", r"столько ходов|\b\d+ ходов") == {}, "a throw counts squares, not moves"
    assert offending("ru", r"судий") == {}, "the modern form is судей"
    assert offending("ru", r"Кендалл") == {}, "Кендэлл, as the Russian text spells him"
    # one word for a square: клетка, never поле
    assert offending("ru", r"(?<![а-яё])пол(е|я|ю|ем|ях|ям|ей)(?![а-яё])", re.I) == {}
    for key, name in sentences("ru").items():
        if key.startswith("house."):      # «Дом Воды», «Дом Трёх Истин»: every word capitalised
            words_ = re.findall(r"[А-Яа-яЁё]+", name)
            assert all(w[0].isupper() for w in words_), (key, name)


def test_hungarian_wording():
    throws = {k: s for k, s in offending("hu", r"bábukkal").items() if "computer" in k}
    assert throws == {}, "the computer throws for a side, not with its pieces"
    assert offending("hu", r"féllel") == {}
    assert offending("hu", r"víz-csapda", re.I) == {}, "one name: a Víz Háza"
    assert offending("hu", r"Senet tábla") == {}


def test_english_wording():
    assert offending("en", r"move it for it") == {}


def test_a_museum_board_is_the_board_in_every_sentence():
    """"The board plays black" above "The computer moves 9 to 12" names one
    opponent twice: at a museum exhibit the board throws and moves."""
    from test_sim_words import black_waits, museum_sim, told
    sim = black_waits(museum_sim(2, 1, 2, 1))
    sim.advance(25100)                        # nobody came: the board plays black
    seen = [told(sim)]
    sim.advance(2000)                         # it throws a 1 and shows its move
    seen.append(told(sim))
    for lang in ("en", "hu", "ru"):
        text = sentences(lang)
        for words_ in seen:
            keys = [k for k, _ in words_["status"] + words_["instruction"]]
            assert "status.board_plays.B" in keys, keys
            said = " · ".join(text[k] for k in keys)
            computer = {"en": "computer", "hu": "gép", "ru": "омпьютер"}[lang]
            assert computer not in said, (lang, said)


# -- the special squares: one name and one sign per language, page and docs ----------

import paths  # noqa: E402

HOUSES = (15, 26, 27, 28, 29, 30)


def doc(name):
    with open(os.path.join(paths.ROOT, "docs", name), encoding="utf-8") as f:
        return f.read()


def page_signs():
    with open(os.path.join(paths.ROOT, "host_tools", "sim", "web", "sim.js"), encoding="utf-8") as f:
        script = f.read()
    signs = {}
    for number, sign, name in re.findall(r'^\s*(\d+): \["([^"]+)", "([^"]+)"\]', script, re.M):
        signs[int(number)] = (json.loads('"%s"' % sign), name)
    return signs


def test_the_special_squares_have_one_name_and_sign_on_the_page_and_in_the_docs():
    names = {lang: sentences(lang) for lang in ("en", "hu", "ru")}
    signs = page_signs()
    assert sorted(signs) == list(HOUSES), signs
    rows = {int(n): [c.strip() for c in rest.split("|")]
            for n, rest in re.findall(r"^\| (\d+) \|(.*)\|\s*$", doc("rules.md"), re.M)}
    for square in HOUSES:
        sign, english = signs[square]
        assert english == names["en"]["house.%d" % square], (square, english)
        assert rows.get(square) == [sign, names["en"]["house.%d" % square],
                                    names["hu"]["house.%d" % square],
                                    names["ru"]["house.%d" % square]], (square, rows.get(square))
    sim_rows = dict((int(n), (s, name)) for n, s, name in
                    re.findall(r"^\| (\d+) \| (\S+) \| ([^|]+?) \|\s*$", doc("sim.md"), re.M))
    assert {n: sim_rows.get(n) for n in HOUSES} == signs
    told = re.findall(r"(\d+) \((House of [^)]+)\)", " ".join(doc("hardware.md").split()))
    assert len(told) >= 3, told
    for number, name in told:
        assert name == names["en"]["house." + number], (number, name)


def test_the_rules_name_both_source_texts():
    rules = doc("rules.md")
    assert "Passing Through the Netherworld" in rules      # the Russian text cites Kendall's book
    assert "names no author" in rules                     # the Hungarian text names nobody
