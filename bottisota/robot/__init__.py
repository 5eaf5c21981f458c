"""Robot players (issue 7).

- `tables`: personalities as die-roll decision tables (`cards/robots/*.yaml`),
  `load_personality`, `find_personality`, `validate_file`.
- `situation`, `decide`: the facts a table asks about, and the roll on it.
- `navigation`, `candidates`, `planner`: an intention becomes a legal move,
  judged by `rules.movement.preview_move`.
- `aim`, `placement`: shots and where a new bot goes.
- `player.Robot`: `decide(game) -> action`, `answer_overwatch`, `take_events`.
- `match`, `stats`, `simulate`: robot-only games and `bottisota simulate`.
"""
