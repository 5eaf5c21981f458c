"""Accepted means playable (issue 16 item 3): hostile mutants of every file kind (arenas,
cards, mods, house rules, scenarios, robot tables, journals) go through the real command
line; each is refused with one message and exit 2, or accepted and then played (renders,
loads, a short robot game whose journal replays). Never a traceback, hang, crash or a
case over 1 GB.

A local pytest runs a few derandomised cases per kind; CI (CI=true) and
BOTTISOTA_LONG_TESTS=1 run 100 a kind (about a minute). The larger run, with its figures in
bench/README.md, is `python -m bench.fuzz --cases N`.
"""
import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from bench import fuzz

LONG = os.environ.get("BOTTISOTA_LONG_TESTS") == "1" or os.environ.get("CI") == "true"
CASES_PER_KIND = 100 if LONG else 2        # CI: about a minute


@pytest.fixture(scope="module")
def workdir():
    fuzz.warm_up()
    with tempfile.TemporaryDirectory(prefix="bottisota-fuzz-") as tmp:
        yield Path(tmp)


@pytest.mark.parametrize("kind", fuzz.KINDS)
def test_hostile_files_are_refused_or_playable(kind, workdir):
    @settings(max_examples=CASES_PER_KIND, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck),
              phases=(Phase.explicit, Phase.generate))    # a case is a forked run: no shrinking
    @given(rng=st.randoms(use_true_random=False))
    def case(rng):
        made = fuzz.make_case(kind, rng, workdir / "cases", workdir)
        result = fuzz.run_case(made, workdir)
        assert not result.fault, (f"{kind} {result.outcome} ({made.how}):\n"
                                  f"{made.path.read_bytes()[:3000]!r}\n{result.detail}")
        assert result.outcome in ("refused", "playable")
        made.path.unlink(missing_ok=True)

    case()
