"""Saving after every move, resuming after a power cut, and damaged saves."""

import json
import os

from board_sim import BoardSim, board_at, throws
from engine.sticks import XorShift
from firmware.store import Store
import paths


def test_the_game_is_saved_after_every_move_and_a_new_app_resumes_it(tmp_path):
    board = BoardSim(store_dir=str(tmp_path), rng=throws(1, 2))
    board.setup().press()                                 # opening: a 1 at once
    saved = json.load(open(os.path.join(str(tmp_path), "game.json")))
    assert saved["version"] == 1 and saved["throw"] == 1 and saved["opening"] == [1]
    assert saved["ruleset"] == "kendall" and saved["history"] == []
    assert not os.path.exists(os.path.join(str(tmp_path), "game.log"))
    board.move(10, 11)
    board.press()
    # the move and the next throw are appended to the log; game.json stays
    assert json.load(open(os.path.join(str(tmp_path), "game.json"))) == saved
    with open(os.path.join(str(tmp_path), "game.log")) as f:
        assert f.read() == "W 1 10-11\nW 2\n"
    assert not os.path.exists(os.path.join(str(tmp_path), "game.tmp"))
    board.move(11, 13)

    # power cut; a new App on the same folder asks for the pieces to match
    again = BoardSim(store_dir=str(tmp_path), rng=throws(3))
    again.wait()
    assert again.app.state == "setup"
    assert again.squares_with("put") == [1, 2, 3, 4, 5, 6, 7, 8, 9, 13]
    again.setup()
    ready = again.last("ready")
    assert ready["resumed"] is True and ready["position"] == board.app.position
    assert again.app.state == "throw" and again.app.turn == "B"   # a 2 passes the turn
    again.press()
    assert again.last("throw")["value"] == 3


def test_a_pending_throw_is_resumed_too(tmp_path):
    board = BoardSim(store_dir=str(tmp_path), rng=throws(1))
    board.setup().press()
    again = BoardSim(store_dir=str(tmp_path), rng=throws())
    again.setup()
    assert again.app.state == "move" and again.app.throw == 1
    assert again.app.sticks == (1, 0, 0, 0)
    again.move(10, 11)
    assert again.last("move")["move"] == "10-11"


def test_a_corrupt_save_file_starts_a_new_game_with_a_notice_event(tmp_path):
    with open(os.path.join(str(tmp_path), "game.json"), "w") as f:
        f.write('{"version": 1, "ruleset": "kendall", "hist')   # half written
    board = BoardSim(store_dir=str(tmp_path), rng=throws())
    first = board.step()
    notice = [e for e in first if e["event"] == "notice"]
    assert notice and notice[0]["message"] == "saved game unreadable, new game started"
    assert board.app.state == "setup"
    assert board.app.position == "BWBWBWBWBW.................... W"


def test_an_unreadable_save_is_kept_as_game_bad_before_the_new_game_is_saved(tmp_path):
    damaged = '{"version": 1, "ruleset": "kendall", "start": 7}'
    with open(os.path.join(str(tmp_path), "game.json"), "w") as f:
        f.write(damaged)
    board = BoardSim(store_dir=str(tmp_path), rng=throws(1))
    board.setup().press().move(10, 11)              # the new game is saved
    assert board.events_of("notice")[0]["message"] == "saved game unreadable, new game started"
    with open(os.path.join(str(tmp_path), "game.bad")) as f:
        assert f.read() == damaged
    game, reason = Store(str(tmp_path)).load()
    assert reason is None and list(game.turns()) == [("W", 1, "10-11")]


def test_an_endless_value_in_a_save_is_damage_not_a_full_heap(tmp_path):
    with open(os.path.join(str(tmp_path), "game.json"), "w") as f:
        f.write('{"version": 1, "ruleset": "' + "k" * 5000 + '"}')
    board = BoardSim(store_dir=str(tmp_path), rng=throws())
    notice = board.step()[0]
    assert notice["message"] == "saved game unreadable, new game started"
    assert "longer than" in notice["reason"], notice


def _short_of_memory(monkeypatch, failures):
    """firmware.resume.load_game raising MemoryError ``failures`` times, as
    it would in a heap too full to replay the game."""
    import firmware.resume as resume
    real = resume.load_game
    left = [failures]

    def load_game(f):
        if left[0]:
            left[0] -= 1
            raise MemoryError("memory allocation failed, allocating 272 bytes")
        return real(f)
    monkeypatch.setattr(resume, "load_game", load_game)


def test_a_heap_too_full_to_replay_the_save_once_is_collected_and_the_game_resumed(
        tmp_path, monkeypatch):
    board = BoardSim(store_dir=str(tmp_path), rng=throws(1))
    board.setup().press().move(10, 11)
    _short_of_memory(monkeypatch, 1)
    again = BoardSim(store_dir=str(tmp_path), rng=throws())
    assert again.app.position == board.app.position
    assert again.events_of("notice") == [] and again.step() == []


def test_a_heap_too_full_to_replay_the_save_never_gives_the_game_up(tmp_path, monkeypatch):
    """No new game over the saved one: the MemoryError goes to the caller
    (on the board, a restart with an empty heap) and the file stays."""
    import pytest
    board = BoardSim(store_dir=str(tmp_path), rng=throws(1))
    board.setup().press().move(10, 11)
    with open(os.path.join(str(tmp_path), "game.json")) as f:
        saved = f.read()
    _short_of_memory(monkeypatch, 2)
    with pytest.raises(MemoryError):
        BoardSim(store_dir=str(tmp_path), rng=throws())
    with open(os.path.join(str(tmp_path), "game.json")) as f:
        assert f.read() == saved
    assert not os.path.exists(os.path.join(str(tmp_path), "game.bad"))


def test_a_save_from_another_version_or_with_an_illegal_history_is_not_resumed(tmp_path):
    path = os.path.join(str(tmp_path), "game.json")
    for data in ({"version": 99},
                 [1, 2, 3],
                 {"version": 1, "ruleset": "kendall",
                  "start": "BWBWBWBWBW.................... W", "opening": [1],
                  "history": [["W", 1, "10-14"]], "position": "x", "throw": None},
                 {"version": 1, "ruleset": "chess"}):
        with open(path, "w") as f:
            json.dump(data, f)
        board = BoardSim(store_dir=str(tmp_path), rng=throws())
        board.wait(20)
        assert board.last("notice")["message"] == "saved game unreadable, new game started"


def test_a_complete_temporary_file_is_used_when_the_rename_did_not_happen(tmp_path):
    board = BoardSim(store_dir=str(tmp_path), rng=throws(1))
    board.setup().press().move(10, 11)
    Store(str(tmp_path)).save(board.app.game)      # the whole game in game.json
    assert not os.path.exists(os.path.join(str(tmp_path), "game.log"))
    os.rename(os.path.join(str(tmp_path), "game.json"), os.path.join(str(tmp_path), "game.tmp"))
    again = BoardSim(store_dir=str(tmp_path), rng=throws())
    assert again.app.position == board.app.position
    assert sorted(os.listdir(str(tmp_path))) == ["game.json"]     # the rename finished


def test_a_power_cut_between_any_two_steps_resumes_the_saved_game_or_the_one_before(tmp_path):
    rng = XorShift(11)
    board = BoardSim(store_dir=str(tmp_path), rng=rng)
    committed = [board.app.position]
    step = board.step
    cuts = [0]

    def step_then_cut():
        out = step()
        for e in out:
            if e["event"] in ("move", "pass", "start"):
                committed.append(board.app.position)
        # pull the plug after this step: the board comes back with this game
        # or the one before it, never anything else
        resumed = BoardSim(store_dir=str(tmp_path), rng=XorShift(1)).app
        assert resumed.position in committed[-2:]
        assert len(resumed.game.history) in (len(board.app.game.history),
                                             len(board.app.game.history) - 1)
        cuts[0] += 1
        return out

    board.step = step_then_cut
    board.setup()
    while len(committed) < 12:
        if board.app.state in ("opening", "throw"):
            board.press()
        elif board.app.state == "move":
            moves = board.app.moves
            board.play(moves[rng.randrange(len(moves))], via=len(committed) % 2 == 0)
        else:
            board.wait(100)
    assert cuts[0] > 500


def test_the_streamed_save_is_the_same_json_as_the_saved_form(tmp_path):
    """Saving writes the game in pieces (no large string on the Pico); what it
    writes parses to exactly the dict form, and loads back to the same game."""
    import json
    from engine import ruleset
    from engine.game import play_game
    from firmware.rewrite import game_to_dict
    game = play_game(ruleset("hungarian"), 5)
    store = Store(str(tmp_path))
    store.save(game)
    with open(str(tmp_path / "game.json")) as f:
        assert json.load(f) == game_to_dict(game)
    loaded, reason = store.load()
    assert reason is None and loaded.position == game.position
    assert list(loaded.turns()) == list(game.turns())


def _written(game):
    import io
    from firmware.rewrite import write_game
    f = io.StringIO()
    write_game(f, game)
    return f.getvalue()


def test_the_streamed_save_is_written_as_json_dumps_writes_the_saved_form():
    """Byte for byte: the pieces are formatted without json.dumps (on
    MicroPython each string it makes is looked for among the interned names)."""
    import json
    from engine import ruleset
    from engine.game import Game, play_game
    from engine.rules import parse_ruleset
    from firmware.rewrite import game_to_dict
    played = play_game(ruleset("kendall"), 4)
    assert any(text is None for _, _, text in played.turns())      # a pass: null
    fresh = Game(parse_ruleset("hungarian:no_move=end"))
    fresh.opening = [6, 4, 4, 3, 2, 1]           # every throw value of hungarian
    fresh.throw = 4
    for game in (played, fresh, Game(ruleset("kendall"))):
        assert _written(game) == json.dumps(game_to_dict(game))


def test_a_ruleset_text_that_needs_escaping_is_escaped():
    import json
    from firmware.rewrite import _quoted
    for text in ('kendall', 'a"b', 'a\\b', '', '"'):
        assert _quoted(text) == json.dumps(text)


def _saves_watched(board, monkeypatch):
    """Record, for each Store.save, the step it was made in."""
    saves = []
    steps = [0]
    real_step = board.app.step
    real_save = Store.save

    def step(now_ms, occupancy, button):
        steps[0] += 1
        return real_step(now_ms, occupancy, button)

    def save(store, game, whole=False):
        saves.append(steps[0])
        return real_save(store, game, whole)
    monkeypatch.setattr(board.app, "step", step)
    monkeypatch.setattr(Store, "save", save)
    return saves, steps


def test_a_throw_and_a_move_are_said_and_shown_before_they_are_saved(tmp_path, monkeypatch):
    """Show first, save after: a throw's or a move's event and its new frame
    come out of the passes that make it, before anything is written; the
    save is a pass of its own after both (the board loop runs them at once,
    docs/dev/firmware-modules.md). A cut before the save resumes the game
    before the throw or move (the setup check asks for the pieces as saved);
    a cut after it, the game with it."""
    board = BoardSim(store_dir=str(tmp_path), rng=throws(1, 3))
    board.setup().press().move(10, 11)            # W moved with the 1; W throws again
    saves, steps = _saves_watched(board, monkeypatch)
    for action in ("throw", "move"):
        before = board.app.game.record(), board.app.throw
        frame = list(board.app.frame)
        if action == "throw":
            board.button = True
            board.wait(120)
            board.button = False
        else:
            board.lift(11)
            board.occ |= 1 << 13                  # the piece down on 14, played at once
        said = drawn = None
        saved_before = len(saves)
        for _ in range(60):                       # step to the pass that saves
            out = board.step()
            if any(e["event"] == action for e in out):
                said = steps[0]
            if said is not None and board.app.frame_changed and board.app.frame != frame:
                drawn = steps[0]
            elif said is None and board.app.frame_changed and action == "move":
                drawn = steps[0]                  # a move's lights come before its event
            if len(saves) > saved_before:
                break
            if said is not None:
                cut = BoardSim(store_dir=str(tmp_path), rng=throws()).app   # a cut now
                assert (cut.game.record(), cut.throw) == before
        else:
            raise AssertionError("no save after the " + action)
        assert said is not None and drawn is not None, (action, said, drawn)
        assert saves[-1] == steps[0] > max(said, drawn)      # the save: after both
        after = board.app.game.record(), board.app.throw
        assert before != after
        cut = BoardSim(store_dir=str(tmp_path), rng=throws()).app     # a cut now
        assert (cut.game.record(), cut.throw) == after
        board.wait()
    assert board.last("move")["move"] == "11-14" and board.last("throw")["value"] == 3


def test_a_game_saved_by_the_firmware_before_the_log_resumes_and_goes_on(tmp_path):
    """tests/fixtures/game_v1.json was written by the store as it was before
    the log (one game.json rewritten at every save): a board updated in the
    middle of a game resumes it, and its next move goes to the log."""
    import shutil
    fixture = os.path.join(paths.TESTS, "fixtures", "game_v1.json")
    shutil.copy(fixture, str(tmp_path / "game.json"))
    with open(fixture) as f:
        saved = json.load(f)
    board = BoardSim(config={"ruleset": "hungarian"}, store_dir=str(tmp_path), rng=throws(3))
    assert board.app.position == saved["position"] and board.app.throw == 2
    assert [list(t) for t in board.app.game.turns()] == saved["history"]
    board.setup()
    assert board.last("ready")["resumed"] is True and board.app.state == "move"
    move = board.app.moves[0]
    board.play(move)
    assert board.last("move")["move"] == move.text
    with open(fixture) as f:
        assert (tmp_path / "game.json").read_text() == f.read()
    assert (tmp_path / "game.log").read_text() == "W 2 %s\n" % move.text
    again = BoardSim(config={"ruleset": "hungarian"}, store_dir=str(tmp_path), rng=throws())
    assert again.app.position == board.app.position and again.app.game.ply_count == 58


class _FailingFs:
    """The host file system, failing on demand as a full or worn flash does:
    ``full`` makes the next write to game.log put half its text down and
    raise; ``no_rename`` makes the next renames raise."""

    def __init__(self):
        self.full = False
        self.no_rename = 0

    def open(self, path, mode="r"):
        f = open(path, mode)
        if path.endswith("game.log") and mode.startswith("a") and self.full:
            self.full = False
            real = f.write

            def write(text):
                real(text[:len(text) // 2])
                raise OSError(28, "no space left on device")
            f.write = write
        return f

    def rename(self, old, new):
        if self.no_rename:
            self.no_rename -= 1
            raise OSError(5, "input/output error")
        os.rename(old, new)

    def remove(self, path):
        os.remove(path)

    def stat(self, path):
        return os.stat(path)


def test_an_append_that_failed_half_way_is_made_good_by_the_next_save(tmp_path, monkeypatch):
    """A failed append (the flash full) can leave half a line in game.log;
    the App reports it and plays on, and the next save must still leave the
    whole game on the flash, not a log whose replay stops at the broken line."""
    from firmware import app as app_module
    fs = _FailingFs()
    monkeypatch.setattr(app_module, "Store", lambda path: Store(path, fs=fs))
    board = BoardSim(store_dir=str(tmp_path), rng=XorShift(7))
    checked = [0, 0]                          # actions checked, failed saves

    def after_action(board):
        failed = len(board.events_of("notice"))
        if failed > checked[1]:
            checked[1] = failed               # this action's save failed: the next
            return                            # one must make it good
        loaded, reason = Store(str(tmp_path)).load()
        assert reason is None and (list(loaded.turns()), loaded.throw) == (
            list(board.app.game.turns()), board.app.throw), checked
        checked[0] += 1
        if checked[0] == 20:                  # the next append fails half way
            fs.full = True
    board.setup()
    board.play_to_the_end(XorShift(8), after_action=after_action)
    assert checked[1] == 1 and checked[0] > 100, checked
    assert board.last("notice")["message"].startswith("could not save the game")


def test_a_takeback_whose_rename_failed_is_made_good_by_the_next_save(tmp_path):
    """A takeback's rewrite removes game.log before its rename; when the
    rename fails the newer game.tmp stands beside the old game.json, and the
    load prefers it: the next save must not append to a log it drops."""
    from engine import ruleset
    from engine.game import Game
    fs = _FailingFs()
    store = Store(str(tmp_path), fs=fs)
    game = Game(ruleset("kendall"), rng=XorShift(5))
    game.play_opening()
    while game.ply_count < 12:
        moves = game.legal_moves()
        game.play(moves[-1]) if moves else game.pass_turn()
        if game.throw is None:
            game.throw_sticks()
    game.throw = None
    store.save(game, True)
    side, throw, text, _ = game.undo()              # the takeback...
    game.set_throw(throw)
    fs.no_rename = 2                                # ...whose rename (and FAT's retry) fails
    try:
        store.save(game, True)
    except OSError:
        pass
    else:
        raise AssertionError("the save did not fail")
    game.play(game.legal_moves()[-1])               # the next move, saved
    store.save(game)
    loaded, reason = Store(str(tmp_path)).load()
    assert reason is None and list(loaded.turns()) == list(game.turns())
    assert loaded.position == game.position
