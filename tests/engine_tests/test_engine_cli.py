"""The engine's command line as other tools see it (CPython)."""

import json
import subprocess
import sys

import pytest

import paths

ROOT = paths.ROOT


def engine(*args):
    return subprocess.run([sys.executable, "-m", "engine"] + list(args), cwd=ROOT,
                          capture_output=True, text=True)


def test_start_prints_the_start_position():
    assert engine("start", "kendall").stdout == "BWBWBWBWBW.................... W\n"
    assert engine("start", "hungarian").stdout == "WBWBWBWBWB.................... B\n"
    assert engine("start", "kendall:pieces=7").stdout == "BWBWBWBWBWBWBW................ W\n"


def test_moves_prints_every_legal_move_in_order():
    result = engine("moves", "hungarian", "WBWBWBWBWB.................... B", "3")
    data = json.loads(result.stdout)
    assert [m["move"] for m in data] == ["2-5", "4-7", "6-9", "8-11", "10-13"]
    assert data[0] == {"move": "2-5", "after": "WWWBBBWBWB.................... W", "again": False}


def test_no_legal_move_prints_an_empty_array():
    result = engine("moves", "hungarian", "..BWWW........................ B", "3")
    assert result.returncode == 0 and json.loads(result.stdout) == []


@pytest.mark.parametrize("args,words", [
    (["start", "senet"], "unknown ruleset"),
    (["moves", "kendall", "BWBW W", "3"], "30 squares"),
    (["moves", "kendall", "BWBWBWBWBW.................... W", "6"], "throw must be one of"),
    (["moves", "kendall", "BWBWBWBWBW.................... W", "x"], "throw must be a number"),
    (["moves", "hungarian", "..........................W... B", "3"], "never holds a piece"),
    (["moves", "kendall:pieces=9", "BWBWBWBWBW.................... W", "3"], "not allowed"),
    (["moves"], "usage"),
    ([], "usage"),
])
def test_bad_input_exits_2_with_one_line_on_stderr(args, words):
    result = engine(*args)
    assert result.returncode == 2 and result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0]
