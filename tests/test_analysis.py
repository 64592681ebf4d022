"""The analysis on the laptop (host_tools/analysis/): a chance a player can
take at its word, the best move named, the mistakes marked, and the files a
board or the monitor leaves read as one game."""

import json
import os

import pytest

from engine import ruleset, Position
from engine.game import Game, play_game
from engine.record import record, read, RecordError
from engine.rules import parse_ruleset
from firmware.store import Store

from host_tools.analysis import analyse
from host_tools.analysis.chance import model_for
from host_tools.analysis.fit import self_play, calibration, brier, given_pairs, VARIANTS
from host_tools.analysis.gamefile import load_game, GameFileError

CHECK_SEED = 7000000          # games no fit has seen


def _record_from(spec, start, plays):
    """A record of a game begun at ``start``: ``plays`` (throw, move or None)."""
    game = Game(parse_ruleset(spec), position=Position.parse(start))
    for throw, move in plays:
        game.set_throw(throw)
        if move is None:
            game.pass_turn()
        else:
            game.play(move)
    return record(game)


# -- the best move and the mistakes ------------------------------------------------

def test_walking_into_the_water_is_a_mistake_and_the_house_of_rebirth_is_best():
    # K12: white's 24-27 lands in the water and goes back to 15 (14 when taken);
    # 12-15 reaches the House of Rebirth and throws again (K10)
    start = "......BB.B.W...........W...... W"
    result = analyse(_record_from("kendall", start, [(3, "24-27")]))
    ply = result["plies"][0]
    assert ply["best"] == "12-15"
    assert ply["move"] == "24-27" and ply["mistake"] is True
    assert ply["loss"] >= 0.08 and ply["after"] < ply["chance"]
    assert result["mistakes"] == [1]
    good = analyse(_record_from("kendall", start, [(3, "12-15")]))["plies"][0]
    assert good["mistake"] is False and good["loss"] == 0.0 and good["after"] == good["chance"]


def test_a_capture_is_best_and_walking_into_the_water_a_mistake():
    # white on 6, 14, 21, black on 12 and 25, white throws 6: 6-12 takes the
    # lone black piece (H7, C6: it goes back to 6), 21-27 lands in the water
    # and goes back to 15 (H10)
    start = ".....W.....B.W......W...B..... W"
    result = analyse(_record_from("hungarian", start, [(6, "21-27")]))
    ply = result["plies"][0]
    assert [m["move"] for m in ply["moves"]] == ["6-12", "14-20", "21-27"]   # best first
    assert ply["best"] == "6-12"
    assert ply["mistake"] is True and result["mistakes"] == [1]
    assert ply["loss"] >= 0.08 and ply["chance"] > ply["after"]
    good = analyse(_record_from("hungarian", start, [(6, "6-12")]))["plies"][0]
    assert good["mistake"] is False and good["after"] == good["chance"]


def test_the_chances_are_each_sides_and_add_up():
    game = play_game(ruleset("hungarian"), 11)
    result = analyse(record(game))
    assert len(result["chances"]) == len(result["plies"]) == game.ply_count
    assert result["chances"][-1] == (1.0 if game.winner == "W" else 0.0)
    for ply, white in zip(result["plies"], result["chances"]):
        mine = white if ply["side"] == "W" else 1 - white
        assert abs(mine - ply["after"]) < 1e-3           # the chart is White's side
        assert ply["low"] <= ply["chance"] <= ply["high"]
    json.dumps(result)                                  # ready for the page as it is


def test_the_side_far_ahead_in_the_race_is_given_the_better_chance():
    rs = ruleset("kendall")
    ahead = Position.parse("BB.B.B.B.B..............W.W..W W")
    model = model_for(rs)
    white, low, high = model.chance(rs, ahead, "W")
    black = model.chance(rs, ahead, "B")[0]
    assert white > 0.8 and abs(white + black - 1.0) < 1e-9
    assert low <= white <= high


def test_a_record_that_cannot_be_read_is_refused_in_one_line():
    with pytest.raises(RecordError, match="^record line 1: not a Senet game record"):
        analyse("hello")


# -- honest chances: calibrated against games played out ---------------------------

@pytest.fixture(scope="module")
def unseen_games():
    """100 self-play games of each ruleset that no fit has seen, played by the
    analysis's own best moves."""
    games = []
    for spec in ("kendall", "hungarian"):
        rs = ruleset(spec)
        model = model_for(rs)
        games += [self_play(rs, CHECK_SEED + s, model) for s in range(100)]
    return games


def test_chances_given_come_true_about_as_often_as_they_say(unseen_games):
    pairs = given_pairs(unseen_games)
    assert len(pairs) > 20000
    table = calibration(pairs)
    for count, given, won in table:
        if count >= 500:
            assert abs(given - won) < 0.08, table       # measured at this seed: see docs
    middle = [row for row in table[3:7] if row[0] >= 500]
    assert len(middle) == 4, table                      # the 30-70 % bins are well filled
    assert brier(pairs) < 0.24 and brier(pairs) < brier(pairs, constant=0.5) - 0.02


def test_every_variant_has_a_model():
    for spec in VARIANTS:
        assert model_for(parse_ruleset(spec)).spec == spec
    assert model_for(parse_ruleset("hungarian:no_move=pass")).spec == "hungarian"


# -- the files a board or the monitor leaves ----------------------------------------

def _board_files(folder, game):
    """game.json and game.log as the board's Store writes them, a ply at a time."""
    store = Store(str(folder), mode="files")
    for _ in saved_ply_by_ply(game, store):
        pass
    return folder / "game.json", folder / "game.log"


def saved_ply_by_ply(game, store):
    """Replay ``game`` a ply at a time, saving each with ``store``; yields
    the ply's index after its save."""
    replay = Game(game.ruleset)
    replay.opening = list(game.opening)
    for i, (side, throw, move, _) in enumerate(game.history):
        replay.set_throw(throw)
        if move is None:
            replay.pass_turn()
        else:
            replay.play(move)
        store.save(replay)
        yield i


def test_a_boards_game_json_and_log_read_as_the_same_game(tmp_path):
    game = play_game(ruleset("kendall"), 5)
    saved, log = _board_files(tmp_path, game)
    assert saved.exists() and log.exists() and log.read_text()       # both files in use
    for path in (saved, log):
        again = read(load_game(str(path)))
        assert again.game.position == game.position
        assert [p.move for p in again.plies] == [h[2] for h in game.history]


def test_a_log_line_cut_short_by_a_power_cut_ends_the_game_at_the_line_before(tmp_path):
    game = play_game(ruleset("hungarian"), 8)
    saved, log = _board_files(tmp_path, game)
    lines = log.read_text().splitlines(True)
    log.write_text("".join(lines[:-1]) + lines[-1][:-2])         # the last save, cut
    again = read(load_game(str(saved)))
    assert len(again.plies) == game.ply_count - 1


def test_record_files_of_either_version_are_read(tmp_path):
    game = play_game(ruleset("hungarian"), 5)
    for name, text in (("v1.txt", game.record()), ("v2.txt", record(game, {"white": "person"}))):
        (tmp_path / name).write_text(text)
        assert read(load_game(str(tmp_path / name))).game.position == game.position


@pytest.mark.parametrize("name, content, words", [
    ("game.json", b"{\"version\": 1, \"ruleset\": \"kendall\"", "not valid JSON"),
    ("game.json", b"{\"version\": 7}", "version 7"),
    ("game.log", b"W 3 10-13\n", "copy game.json off the board too"),
    ("junk.bin", bytes(range(256)), "not text"),
    ("empty.txt", b"", "record line 1"),
    ("notes.txt", b"buy milk\n", "not a Senet game record"),
])
def test_garbage_gives_one_line(tmp_path, name, content, words):
    (tmp_path / name).write_bytes(content)
    with pytest.raises(GameFileError) as caught:
        load_game(str(tmp_path / name))
    assert words in str(caught.value) and "\n" not in str(caught.value)


def test_a_missing_file_or_a_folder_gives_one_line(tmp_path):
    for path, words in ((tmp_path / "nowhere.txt", "cannot read"), (tmp_path, "is a folder")):
        with pytest.raises(GameFileError, match=words):
            load_game(str(path))


def test_a_copy_taken_while_the_board_rewrites_in_the_background_reads_whole(tmp_path):
    # firmware/store.py: past a few hundred bytes of log the board writes
    # game.json again in quiet passes (game.new) and puts the plies made
    # meanwhile in game.log2. A copy taken then holds them all.
    game = play_game(ruleset("kendall"), 5)
    store = Store(str(tmp_path), mode="files")
    store.work()                            # a quiet pass: the board has them
    for i in saved_ply_by_ply(game, store):
        if i == len(game.history) - 4:      # a few quiet passes, then the copy
            for _ in range(3):
                store.work()
    names = set(os.listdir(str(tmp_path)))
    assert "game.log2" in names, names       # the copy is taken mid-rewrite
    before = sorted((n, (tmp_path / n).read_bytes()) for n in names)
    again = read(load_game(str(tmp_path / "game.json")))
    assert again.game.position == game.position
    assert len(again.plies) == game.ply_count
    assert sorted((n, (tmp_path / n).read_bytes()) for n in os.listdir(str(tmp_path))) == before
