"""Service points (R49-R52, R54): reload, repairs, parts and their limits."""
from bottisota.core.actions import Service
from bottisota.core.cards import Mod
from bottisota.engine.modes import ScenarioMode
from bottisota.engine.services import check_service, use_service
from tests.builders import arena, bot, card, state, weapon

SERVICE_ARENA = arena({"type": "service", "id": "west", "circle": [10, 30, 3]},
                      {"type": "service", "id": "east", "circle": [70, 30, 3]})
GUNNER = card(move=8, weapons=[weapon("Shell gun", ammo=3), weapon("Pistol")])
PARTS = {"turbo": Mod("turbo", "Turbo", "parts", {"move": 3}),
         "plate": Mod("plate", "Armour plate", "parts", {"armour_mod": 1})}


def serviced(choice: str, dice=(), deck_exhausted: bool = False, **kw):
    s = state(SERVICE_ARENA, bot("a", "red", (10, 30), card_value=GUNNER, **kw),
              bot("b", "blue", (40, 30)), dice=list(dice))
    s.mods.update(PARTS)
    s.parts_deck = ["turbo", "plate"]
    action = Service("a", choice)
    return s, check_service(s, action, deck_exhausted), action


def test_reload_refills_every_weapon_with_ammo():  # R49
    s, refusal, action = serviced("reload", ammo={"Shell gun": 0}, moved=8)
    assert refusal is None
    events = use_service(s, action)
    assert s.bots["a"].ammo == {"Shell gun": 3}
    assert [e["type"] for e in events] == ["service", "ammo"]


def test_service_needs_the_centre_on_a_service_point():  # R49 D17
    s = state(SERVICE_ARENA, bot("a", "red", (14.5, 30), card_value=GUNNER))
    refusal = check_service(s, Service("a", "reload"), False)
    assert refusal is not None and refusal.rule == "R49"


def test_repair_mends_two_damage_points_and_reloads():  # R50
    s, refusal, action = serviced("repair", damage=3, moved=4, ammo={"Shell gun": 1})
    assert refusal is None
    use_service(s, action)
    assert s.bots["a"].damage == 1
    assert s.bots["a"].ammo["Shell gun"] == 3


def test_repair_refused_after_moving_more_than_half():  # R50 R23
    s, refusal, _ = serviced("repair", damage=3, moved=4.01)
    assert refusal is not None and refusal.rule == "R50"
    assert "reload only" in refusal.message


def test_reload_allowed_after_a_long_move():  # R49
    _s, refusal, _ = serviced("reload", damage=3, moved=8)
    assert refusal is None


def test_rust_and_leaflet_repaired_in_full():  # R50 D25 D26
    s, refusal, action = serviced("rust", status={"rust": 2, "leaflet": 3})
    assert refusal is None
    use_service(s, action)
    assert (s.bots["a"].rust, s.bots["a"].leaflet) == (0, 3)
    s, refusal, action = serviced("leaflet", status={"rust": 2, "leaflet": 3})
    use_service(s, action)
    assert (s.bots["a"].rust, s.bots["a"].leaflet) == (2, 0)


def test_nothing_to_repair_is_refused():  # R50
    _s, refusal, _ = serviced("repair")
    assert refusal is not None and "no damage" in refusal.message


def test_repairs_stop_when_the_bot_deck_is_empty_but_rust_does_not():  # R54
    _s, refusal, _ = serviced("repair", damage=2, deck_exhausted=True)
    assert refusal is not None and refusal.rule == "R54"
    _s, refusal, _ = serviced("rust", status={"rust": 1}, deck_exhausted=True)
    assert refusal is None


def test_part_drawn_from_the_parts_deck_and_installed():  # R50
    # pick(2) rolls one d6: 4 -> index (4-1) % 2 = 1 -> "plate"
    s, refusal, action = serviced("part", dice=[4])
    assert refusal is None
    events = use_service(s, action)
    a = s.bots["a"]
    assert a.parts == ["plate"] and s.parts_deck == ["turbo"]
    assert a.stats.armour_mod == 1 and a.part_from == "west"
    assert events[-1] == {"type": "part_installed", "bot": "a", "part": "plate",
                          "service": "west"}


def test_a_second_part_from_the_same_point_is_refused():  # R52
    s, refusal, action = serviced("part", dice=[1])
    use_service(s, action)
    assert s.bots["a"].parts == ["turbo"]
    again = check_service(s, Service("a", "part"), False)
    assert again is not None and again.rule == "R52"
    # at the other service point it may take one, and then the first gives again
    s.bots["a"].x = 70
    assert check_service(s, Service("a", "part"), False) is None
    s.dice.forced.append(1)
    use_service(s, Service("a", "part"))
    assert s.bots["a"].parts == ["turbo", "plate"] and s.bots["a"].part_from == "east"
    s.bots["a"].x = 10
    s.parts_deck.append("turbo")
    assert check_service(s, Service("a", "part"), False) is None


def test_part_refused_when_the_parts_deck_is_empty():  # R50
    s = state(SERVICE_ARENA, bot("a", "red", (10, 30), card_value=GUNNER))
    refusal = check_service(s, Service("a", "part"), False)
    assert refusal is not None and "parts deck is empty" in refusal.message


def test_a_destroyed_bots_parts_go_back_to_the_deck():  # R50 R55
    from bottisota.core.actions import Move, Shoot, ShotOrder
    from bottisota.engine.game import Game

    s = state(SERVICE_ARENA, bot("a", "red", (40, 40), card_value=GUNNER),
              bot("b", "blue", (40, 20), damage=5), dice=[6, 1])
    s.mods.update(PARTS)
    s.parts_deck = ["turbo"]
    s.bots["b"].parts = ["plate"]
    mode = ScenarioMode()
    game = Game(s, mode=mode)
    game.act(Move("a", ()))
    result = game.act(Shoot("a", (ShotOrder("Pistol", "b"),)))
    assert result.ok and not s.bots["b"].removed        # D47: a may shoot on; the wreck stays
    events = result.events + mode.finish(game)          # a has finished shooting (R55)
    assert s.bots["b"].removed
    assert game.state.parts_deck == ["turbo", "plate"] and game.state.bots["b"].parts == []
    assert {"type": "parts_returned", "bot": "b", "parts": ["plate"]} in events
