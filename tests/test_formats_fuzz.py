"""Mutated bundled files of every kind: `check` either accepts or refuses with
problems that have a line within the file; never another exception (issue 16)."""
from __future__ import annotations

import time
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bottisota.commands.check import check_file
from bottisota.core.errors import InputError
from bottisota.formats.limits import line_count
from bottisota.formats.yaml_source import parse_text

ROOT = Path(__file__).parents[1]
SOURCES = {
    "arenas/duel.yaml": ROOT / "arenas" / "duel.yaml",
    "cards/bots/x.yaml": ROOT / "cards" / "bots" / "scout.yaml",
    "cards/mods/x.yaml": ROOT / "cards" / "mods" / "turbo.yaml",
    "cards/rules.yaml": ROOT / "cards" / "rules.yaml",
    "cards/robots/x.yaml": ROOT / "cards" / "robots" / "sniper.yaml",
    "scenarios/x.yaml": ROOT / "tests" / "scenarios" / "shoot_gun_hits.yaml",
}
PIECES = ["[", "]", "{", "}", "&a ", "*a", "<<: ", ": ", "- ", "\t", "\x00", "\x07", " ",
          "\n", "9" * 30, "1.0e+300", ".inf", ".nan", "-", "'", '"', "!!binary ", "?", "#",
          "null", "true", "x-note: 1\n", "description: d\n", "\xe4", "0", "5000"]
mutation = st.tuples(st.floats(0, 1), st.sampled_from(["insert", "delete", "replace"]),
                     st.sampled_from(PIECES), st.integers(1, 20))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.function_scoped_fixture])
@given(place=st.sampled_from(sorted(SOURCES)), edits=st.lists(mutation, min_size=1, max_size=4))
def test_a_mutated_file_is_accepted_or_refused_with_lines(tmp_path_factory, place, edits):
    text = SOURCES[place].read_text()
    for where, how, piece, span in edits:
        at = int(where * len(text))
        if how == "insert":
            text = text[:at] + piece + text[at:]
        elif how == "delete":
            text = text[:at] + text[at + span:]
        else:
            text = text[:at] + piece + text[at + len(piece):]
    path = tmp_path_factory.mktemp("fuzz") / place
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    start = time.process_time()
    try:
        check_file(path)
    except InputError as err:
        assert err.problems
        for problem in err.problems:
            assert problem.line <= line_count(text), str(problem)
            assert "Traceback" not in problem.message
    assert time.process_time() - start < 10


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("[]{}&*!|>-:,?'\"\n\t #ab1.e+<")), max_size=300))
def test_any_text_is_plain_data_or_one_refusal(text):
    try:
        parse_text(text, "t.yaml")
    except InputError as err:
        assert all(0 <= p.line <= line_count(text) for p in err.problems)
