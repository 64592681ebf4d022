"""The printed exhibit card: an A5 sheet a museum lays beside the board, in
each of the page's three languages, worded from the same i18n files as the
page (a changed sentence changes both), with every line inside the margins,
and the committed docs/card-<lang>.svg the ones the command makes now."""

import base64
import json
import os
import re
import shutil
import xml.etree.ElementTree as ET

import pytest

import paths
from chromium import browser  # noqa: F401  (the fixture)
from host_tools import cli
from host_tools.words import card

ROOT = paths.ROOT
I18N = os.path.join(ROOT, "host_tools", "words", "i18n")
LANGS = ("en", "hu", "ru")
SVG = "{http://www.w3.org/2000/svg}"


def load(lang):
    with open(os.path.join(I18N, lang + ".json"), encoding="utf-8") as f:
        return json.load(f)["text"]


def lines(svg_text):
    """Each text line of the card as (x, font size, text)."""
    root = ET.fromstring(svg_text)
    return [(float(t.get("x")), float(t.get("font-size")), "".join(t.itertext()), t)
            for t in root.iter(SVG + "text")]


def flat(text):
    return re.sub(r"\s+", " ", text).strip()


def card_keys(text):
    """The keys the card words: its own (card.*) and the page's it shares."""
    own = [k for k in text if k.startswith("card.")]
    return own + list(card.SHARED_KEYS)


@pytest.mark.parametrize("lang", LANGS)
def test_the_card_is_an_a5_svg(lang):
    root = ET.fromstring(card.card_svg(lang))
    assert root.tag == SVG + "svg"
    assert (root.get("width"), root.get("height")) == ("148mm", "210mm")
    assert root.get("viewBox") == "0 0 148 210"


@pytest.mark.parametrize("lang", LANGS)
def test_every_line_fits_inside_the_margins(lang):
    found = lines(card.card_svg(lang))
    assert len(found) > 20
    for x, size, text, element in found:
        width = card.text_width(text, size, element.get("font-weight") == "bold")
        assert x >= card.MARGIN and x + width <= 148 - card.MARGIN, (lang, text)


@pytest.mark.parametrize("lang", LANGS)
def test_every_sentence_of_the_card_is_on_it(lang):
    text = load(lang)
    on_card = flat(" ".join(t for _, _, t, _ in lines(card.card_svg(lang))))
    for key in card_keys(text):
        for sentence in re.split(r"(?<=[.:;!?])\s+", text[key]):
            assert flat(sentence) in on_card, (lang, key, sentence)


@pytest.mark.parametrize("lang", LANGS)
def test_the_special_squares_carry_the_pages_signs_and_names(lang):
    text = load(lang)
    with open(os.path.join(ROOT, "host_tools", "sim", "web", "sim.js"), encoding="utf-8") as f:
        js = f.read()
    table = js[js.index("const SPECIAL = {"):]
    table = table[:table.index("};")]
    signs = {int(n): s.encode().decode("unicode_escape")
             for n, s in re.findall(r'(\d+): \["([^"]+)"', table)}
    assert set(signs) == {15, 26, 27, 28, 29, 30}
    on_card = [t for _, _, t, _ in lines(card.card_svg(lang))]
    for square, sign in signs.items():
        assert sign in on_card, (lang, square, sign)
        assert any(t.startswith(str(square)) and flat(text["house.%d" % square]) in t
                   for t in on_card), (lang, square)


def test_a_changed_sentence_changes_the_card(tmp_path):
    folder = tmp_path / "i18n"
    shutil.copytree(I18N, str(folder))
    data = json.loads((folder / "en.json").read_text(encoding="utf-8"))
    data["text"]["card.throw"] = "Throw the four painted reeds and count the flat sides."
    (folder / "en.json").write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n",
                                    encoding="utf-8")
    changed = card.card_svg("en", i18n_dir=str(folder))
    assert "painted reeds" in changed
    assert changed != card.card_svg("en")


def test_the_command_writes_the_three_cards_and_refuses_bad_input(tmp_path, capsys):
    assert cli.main(["card", "--lang", "all", "--out", str(tmp_path)]) == 0
    assert sorted(os.listdir(str(tmp_path))) == ["card-en.svg", "card-hu.svg", "card-ru.svg"]
    assert cli.main(["card", "--lang", "de", "--out", str(tmp_path / "de")]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "de" in err
    assert not (tmp_path / "de").exists()
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    assert cli.main(["card", "--out", str(blocker / "cards")]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "cards" in err


@pytest.mark.parametrize("lang", LANGS)
def test_the_committed_cards_are_what_the_command_makes_now(lang):
    path = os.path.join(ROOT, "docs", "card-%s.svg" % lang)
    assert os.path.exists(path), "run: senet-board card --lang all --out docs"
    with open(path, encoding="utf-8") as f:
        assert f.read() == card.card_svg(lang), "run: senet-board card --lang all --out docs"


@pytest.mark.parametrize("lang", LANGS)
def test_chromium_draws_the_card_with_no_text_overflowing(browser, lang):  # noqa: F811
    page = browser.new_page(viewport={"width": 592, "height": 840})
    page.set_content("<html><body style='margin:0'>%s</body></html>" % card.card_svg(lang))
    boxes = page.evaluate("""() => [...document.querySelectorAll('svg text')].map(t => {
        const b = t.getBBox(); return [b.x, b.y, b.width, b.height, t.textContent]; })""")
    assert len(boxes) > 20
    for x, y, w, h, text in boxes:
        assert x >= card.MARGIN - 0.5 and x + w <= 148 - card.MARGIN + 0.5, (lang, text, x, w)
        assert y >= 0 and y + h <= 210, (lang, text, y, h)
    png = base64.b64encode(page.screenshot(full_page=True)).decode("ascii")
    # The PNG read back in the browser itself: how much of it is ink.
    dark, total = page.evaluate("""async (png) => {
        const img = new Image(); img.src = "data:image/png;base64," + png; await img.decode();
        const c = document.createElement("canvas"); c.width = img.width; c.height = img.height;
        const g = c.getContext("2d"); g.drawImage(img, 0, 0);
        const px = g.getImageData(0, 0, c.width, c.height).data; let dark = 0;
        for (let i = 0; i < px.length; i += 4) if (px[i] + px[i + 1] + px[i + 2] < 384) dark++;
        return [dark, px.length / 4]; }""", png)
    page.close()
    assert dark > 0.005 * total, "the card rendered blank (%d dark pixels of %d)" % (dark, total)
