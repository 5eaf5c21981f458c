"""House rules: every number the rules use, read from `cards/rules.yaml`.

The values live only in the rules file (defaults.md: "never as a literal in
code"); this module names them and gives their types. A game, a scenario or
the command line may override any of them.
"""
from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any


@dataclass(frozen=True, slots=True)
class HouseRules:
    """All rule numbers. Field comments cite the rule each one carries."""

    # D3 bots
    base_diameter: float            # D3 default base, cm
    figure_height: float            # D3 default figure height, cm
    contact_tolerance: float        # D4 discs touch within this gap, cm
    # R5 D5 D6 tests
    natural_fail: int               # R5 this natural roll always fails
    natural_success: int            # R5 this natural roll always succeeds
    # movement
    turn_step: float                # R8 R9 R12 one turn for wheeled, tracked, fliers, degrees
    free_turns_at_start: int        # R8 R9 free turns at the start of a move
    backward_cost: float            # R8 R9 cost factor for moving backward
    walker_side_cost: float         # R10 cost factor for a walker's non-forward move
    walker_stairs_cost: float       # R42 cost factor for a walker on stairs
    loop_cost_turns: float          # R14 a loop costs this many times Turn
    loop_space_turns: float         # R14 free space ahead: this many times Turn
    flier_crash_hits: str | int     # R13 hits taken in a crash
    flier_crash_armour_mod: int     # R13 armour test modifier in a crash
    flier_crash_turn_away: float    # R13 turn allowed after a crash, degrees
    collision_hits: str | int       # D10 hits each party takes in a collision
    collision_armour_mod: int       # D10 armour modifier in a collision
    sturdy_reroll: bool             # R17 wheeled/tracked may demand a re-roll
    step_height: float              # D16 drops up to this are steps, cm
    fall_armour_mod_below: int      # R40 armour modifier for the bot landed on
    lift_cost_fraction: float       # R48 a lift costs this share of the maximum move
    belt_speed: float               # R44 D12 belt carry, cm
    # shooting
    nose_arc: float                 # R19 full width of a nose arc, degrees
    overwatch_range: float          # R23 D12 overwatch reach, cm
    overwatch_move_fraction: float  # R23 may set overwatch after moving at most this share
    overwatch_point_tolerance: float  # formats.md first point of the path, cm
    overwatch_answer_seconds: float   # R23 a watcher asked on a phone or the table: held after
    blast_diameter: float           # R34 D12 blast marker, cm
    blast_hit_mod: int              # R34 to-hit modifier off centre
    blast_armour_mod: int           # R34 armour modifier off centre
    level_difference: float         # D13 "clearly a different level", cm
    missile_turn: float             # R27 a missile turns at most this, degrees
    missile_front_arc: float        # R27 full width of its front arc, degrees
    pull_push_hits: str | int       # R30 extra hits when pull and push both hit
    pull_push_armour_mod: int       # R30 armour modifier for them
    self_destruct_hits: str | int   # D21
    self_destruct_to_hit: int       # D21
    # damage and service
    rust_max: int                   # D25 at most this many rust steps
    leaflet_max: int                # D26 at most this many leaflet steps
    repair_damage: int              # R50 damage points repaired
    # score and end
    kill_points: int                # D22
    goal_points: int                # D23 default points of a goal marker
    round_limit: int | None         # D24 None: play until one player is left
    robot_round_limit: int | None   # D48 the round limit of a robots-only game without one
    stalemate_rounds: int | None    # D49 this many rounds with nothing done: a draw

    # Any: values from a house rules file or `--set` (checked by the loader)
    def overridden(self, changes: dict[str, Any]) -> HouseRules:
        """A copy with some values changed (keys checked by the loader)."""
        return replace(self, **changes) if changes else self

    def for_robots_only(self) -> HouseRules:
        """The rules of a game whose every seat is a robot: with no round limit set,
        `robot_round_limit` is the limit (D48), so no such game runs forever."""
        if self.round_limit is not None or self.robot_round_limit is None:
            return self
        return replace(self, round_limit=self.robot_round_limit)

    @classmethod
    def names(cls) -> list[str]:
        return [f.name for f in fields(cls)]

    @classmethod
    def types(cls) -> dict[str, str]:
        return {f.name: str(f.type) for f in fields(cls)}
