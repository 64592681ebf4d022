"""The examples in the engine's docstrings are true."""

import doctest

import pytest

import engine
import engine.explain
import engine.game
import engine.movegen
import engine.position
import engine.record


@pytest.mark.parametrize("module", [engine, engine.explain, engine.game, engine.movegen, engine.position, engine.record])
def test_docstring_examples(module):
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
