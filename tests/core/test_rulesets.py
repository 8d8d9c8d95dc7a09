"""The ruleset-neutral core: ruleset descriptions, typed options, mismatches refused, and
Birmingham games stored before the split still loading byte for byte."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import brass
from brass import EngineError
from brass._core import ffi, lib
from brass.states import StateArray

STORED = json.loads((Path(__file__).parent / "data" / "stored_birmingham_games.json").read_text())


def test_birmingham_is_described_by_the_core() -> None:
    rs = brass.get_ruleset("birmingham")
    assert (rs.name, rs.title, rs.rules_edition) == ("birmingham", "Brass: Birmingham", 1)
    assert (rs.num_actions, rs.observation_size, rs.state_size) == (139, 1024, 648)
    assert (rs.min_players, rs.max_players, rs.provisional, rs.placeholders) == (2, 4, False, ())
    assert [o.name for o in rs.options] == ["beginner", "manufacturer_iv_cost", "undo"]
    assert rs.options[1].allowed == (8, 14) and rs.options[1].default == 8
    assert rs.describe()["options"][0] == {
        "name": "beginner", "description": rs.options[0].description, "type": "bool",
        "allowed": None, "min": None, "max": None, "default": False}
    assert [r.name for r in brass.rulesets()][0] == "birmingham"
    g = brass.Game.new(3, seed=1)
    assert (g.ruleset, g.num_actions, g.rules_edition) == ("birmingham", 139, 1)


def test_an_unknown_ruleset_is_refused() -> None:
    with pytest.raises(EngineError) as exc:
        brass.Game.new(2, seed=1, ruleset="catan")
    assert exc.value.code == "INVALID_ARGUMENT" and exc.value.field == "ruleset"


@pytest.mark.parametrize(("options", "field"), [
    ({"colour": "red"}, "options.colour"),                  # no such option
    ({"beginner": 1}, "options.beginner"),                  # a bool option takes a bool
    ({"manufacturer_iv_cost": 9}, "options.manufacturer_iv_cost"),  # not 8 or 14
    ({"manufacturer_iv_cost": True}, "options.manufacturer_iv_cost"),
    ({"auto_resolve": "yes"}, "options.auto_resolve"),
])
def test_bad_options_are_refused_naming_the_option(options: dict, field: str) -> None:
    with pytest.raises(EngineError) as exc:
        brass.Game.new(2, seed=1, options=options)
    assert exc.value.code == "INVALID_ARGUMENT" and exc.value.field == field


def test_options_by_dict_and_keyword_agree_and_are_recorded() -> None:
    a = brass.Game.new(2, seed=4, options={"beginner": True, "manufacturer_iv_cost": 14})
    b = brass.Game.new(2, seed=4, beginner=True, manufacturer_iv_cost=14)
    assert a.snapshot() == b.snapshot()
    assert a.replay_record()["options"] == {"beginner": True, "manufacturer_iv_cost": 14,
                                            "undo": True, "auto_resolve": True}
    with pytest.raises(EngineError):
        brass.Game.new(2, seed=4, options={"beginner": True}, beginner=False)


def test_the_core_refuses_option_values_outside_the_table() -> None:
    # the C check itself (not only Python's): an unused option slot and a bad value
    g = ffi.new("BrassGame *")
    bad_slot = ffi.new("BrassOptions *", {"ruleset": 0, "players": 2, "auto_resolve": 1,
                                          "values": [0, 8, 1, 1]})
    assert lib.brass_new(g, bad_slot, 1) == lib.BRASS_E_BAD_ARGUMENT
    bad_value = ffi.new("BrassOptions *", {"ruleset": 0, "players": 2, "values": [2, 8]})
    assert lib.brass_new(g, bad_value, 1) == lib.BRASS_E_BAD_ARGUMENT
    no_ruleset = ffi.new("BrassOptions *", {"ruleset": lib.BRASS_NUM_RULESETS, "players": 2})
    assert lib.brass_new(g, no_ruleset, 1) == lib.BRASS_E_BAD_ARGUMENT


def test_a_snapshot_of_another_ruleset_is_refused_clearly() -> None:
    data = brass.Game.new(2, seed=3).snapshot()
    assert brass.Game.restore(data, ruleset="birmingham").ruleset == "birmingham"
    # a header naming a ruleset this core does not have is a bad snapshot
    other = bytearray(data)
    other[10] = lib.BRASS_NUM_RULESETS
    assert lib.brass_restore(ffi.new("BrassGame *"), bytes(other), len(other), -1) == (
        lib.BRASS_E_BAD_SNAPSHOT)
    # a caller expecting another ruleset gets the mismatch, not a generic refusal
    assert lib.brass_restore(ffi.new("BrassGame *"), data, len(data), 1) == (
        lib.BRASS_E_WRONG_RULESET)
    assert lib.brass_snapshot_ruleset(data, len(data), ffi.NULL) == 0


def test_a_snapshot_of_a_later_edition_is_refused_naming_the_edition() -> None:
    data = bytearray(brass.Game.new(2, seed=3).snapshot())
    data[6] = 2  # header: rules edition 2
    with pytest.raises(EngineError) as exc:
        brass.Game.restore(bytes(data))
    assert exc.value.code == "BAD_SNAPSHOT" and exc.value.field == "rules_edition"
    assert "edition 2" in exc.value.message


def test_a_replay_of_another_ruleset_is_refused() -> None:
    rec = brass.Game.new(2, seed=3).replay_record()
    rec["ruleset"] = "catan"
    with pytest.raises(EngineError) as exc:
        brass.Game.replay(rec)
    assert exc.value.field == "ruleset"


@pytest.mark.parametrize("stored", STORED["games"], ids=lambda s: f"{s['players']}p")
def test_games_stored_before_the_split_still_load(stored: dict) -> None:
    old = bytes.fromhex(stored["snapshot_hex"])
    restored = brass.Game.restore(old)
    assert restored.state_hash() == int(stored["state_hash"])
    assert restored.snapshot() == old
    replayed = brass.Game.replay({"ruleset": "birmingham", "rules_edition": 1,
                                  "players": stored["players"], "seed": stored["seed"],
                                  "options": stored["options"],
                                  "decisions": stored["decisions"]})
    assert replayed.state_hash() == int(stored["state_hash"])
    # byte for byte but for the undo bookkeeping (docs/UNDO.md), which the old engine did
    # not keep: zero in its snapshots, the decisions of the turn so far in a replay
    assert _without_undo_mark(replayed.snapshot()) == _without_undo_mark(old)
    if replayed.undo_depth == 0:
        assert replayed.snapshot() == old


def _without_undo_mark(snapshot: bytes) -> bytes:
    """The snapshot's state bytes with the undo mark zeroed (the header's checksum left
    out, since it covers the mark)."""
    body = bytearray(snapshot[16:])
    at = ffi.offsetof("BirminghamGame", "undo")
    body[at:at + 4] = bytes(4)
    return snapshot[:12] + bytes(body)


def test_names_come_from_the_ruleset() -> None:
    rs = brass.get_ruleset("birmingham")
    assert ffi.string(lib.brass_reason_name(0, lib.BRASS_R_NOT_ENOUGH_MONEY)) == b"NOT_ENOUGH_MONEY"
    assert lib.brass_reason_name(0, lib.BRASS_NUM_SHARED_REASONS) == ffi.NULL
    assert rs.reason_name(lib.BRASS_R_RULESET_FIRST) == "NO_CONNECTED_COAL"
    assert lib.brass_action_name(0, rs.num_actions) == ffi.NULL
    assert lib.brass_action_name(lib.BRASS_NUM_RULESETS, 0) == ffi.NULL
    assert rs.event_names[lib.EV_BUILD] == ("build", ("slot", "industry", "level"))


# ---- Brass: Pittsburgh through the neutral API ----

PITTSBURGH = brass.get_ruleset("pittsburgh")
BIRMINGHAM = brass.get_ruleset("birmingham")


def test_pittsburgh_is_described_by_the_core() -> None:
    rs = PITTSBURGH
    assert (rs.name, rs.rules_edition) == ("pittsburgh", 2)
    assert rs.title.startswith("Brass: Pittsburgh")
    assert rs.num_actions == lib.brass_num_actions(lib.BRASS_RULESET_PITTSBURGH) > 0
    assert rs.state_size == lib.brass_state_size(lib.BRASS_RULESET_PITTSBURGH) <= 2048
    assert rs.provisional and rs.placeholders  # draft data with named placeholders
    names = [o.name for o in rs.options]
    assert len(names) == len(set(names)) and names[-2:] == ["data", "undo"]
    assert rs.options[-2].choices == ("pittsburgh", "tiny")
    assert rs.describe()["provisional"] is True


def test_a_pittsburgh_game_plays_to_the_end_and_round_trips() -> None:
    import random

    g = brass.Game.new(3, seed=5, ruleset="pittsburgh")
    assert (g.ruleset, g.num_actions) == ("pittsburgh", PITTSBURGH.num_actions)
    rng = random.Random(1)
    while not g.is_over:
        g.apply(rng.choice(g.legal_ids()))
    assert g.ranking() and set(g.winners()) <= set(range(3))
    assert len(g.scores()) == 3 and g.observation(0).shape == (PITTSBURGH.observation_size,)
    data = g.snapshot()
    assert brass.Game.restore(data, ruleset="pittsburgh").state_hash() == g.state_hash()
    assert brass.Game.replay(g.replay_record()).state_hash() == g.state_hash()
    assert g.replay_record()["ruleset"] == "pittsburgh"
    with pytest.raises(EngineError) as exc:
        brass.Game.restore(data, ruleset="birmingham")
    assert exc.value.code == "BAD_SNAPSHOT" and exc.value.field == "ruleset"
    bham = brass.Game.new(2, seed=1).snapshot()
    with pytest.raises(EngineError) as exc:
        brass.Game.restore(bham, ruleset="pittsburgh")
    assert exc.value.field == "ruleset" and "birmingham" in exc.value.message


def test_pittsburgh_options_are_typed_and_checked() -> None:
    rs = PITTSBURGH
    boolean = next(o for o in rs.options if o.kind == "bool" and not o.not_played)
    enum = next(o for o in rs.options if o.kind == "enum" and len(o.choices) > 1)
    g = brass.Game.new(2, seed=2, ruleset="pittsburgh",
                       options={boolean.name: not boolean.default, enum.name: enum.choices[1]})
    recorded = g.replay_record()["options"]
    assert recorded[boolean.name] is (not boolean.default)
    assert recorded[enum.name] == enum.choices[1]
    assert len(recorded) == len(rs.options) + 1  # every option, plus auto_resolve
    for options, field in [({"beginner": True}, "options.beginner"),   # Birmingham's, not here
                           ({enum.name: "no_such_value"}, f"options.{enum.name}"),
                           ({boolean.name: "yes"}, f"options.{boolean.name}")]:
        with pytest.raises(EngineError) as exc:
            brass.Game.new(2, seed=2, ruleset="pittsburgh", options=options)
        assert exc.value.code == "INVALID_ARGUMENT" and exc.value.field == field


def test_a_rule_choice_the_core_does_not_play_is_refused_in_python_and_in_c() -> None:
    # the table lists only the values the C rules play: the next index is refused by both
    opt = PITTSBURGH.options[0]
    with pytest.raises(EngineError) as exc:
        brass.Game.new(2, seed=2, ruleset="pittsburgh", options={opt.name: "no_such_choice"})
    assert exc.value.field == f"options.{opt.name}" and "must be one of" in exc.value.message
    values = [0] * len(PITTSBURGH.options)
    values[0] = len(opt.value_names)
    c_opt = ffi.new("BrassOptions *", {"ruleset": lib.BRASS_RULESET_PITTSBURGH, "players": 2,
                                       "auto_resolve": 1, "values": values})
    assert lib.brass_new(ffi.new("BrassGame *"), c_opt, 1) == lib.BRASS_E_BAD_ARGUMENT
    values[0] = 0
    c_opt.values[0] = 0
    assert lib.brass_new(ffi.new("BrassGame *"), c_opt, 1) == lib.BRASS_OK


def test_a_batch_holds_one_ruleset() -> None:
    games = ffi.new("BrassGame[2]")
    lib.brass_clone(ffi.addressof(games, 0), brass.Game.new(2, seed=1)._g)
    lib.brass_clone(ffi.addressof(games, 1), brass.Game.new(2, seed=1, ruleset="pittsburgh")._g)
    acts, errs, done = ffi.new("int32_t[2]", [-1, -1]), ffi.new("int32_t[2]"), ffi.new("uint8_t[2]")
    obs, masks = ffi.new("float[]", 2 * 2048), ffi.new("uint8_t[]", 2 * 512)
    stride = ffi.sizeof("BrassGame")
    assert lib.brass_step_batch(games, stride, 2, acts, errs, obs, 2048, masks, 512, done) == (
        -lib.BRASS_E_BAD_ARGUMENT)
    assert lib.brass_playout_batch(games, stride, 2, lib.POLICY_RANDOM, 1, 100) == (
        -lib.BRASS_E_BAD_ARGUMENT)
    assert not done[0] and not lib.brass_decisions_applied(ffi.addressof(games, 0))
    batch = brass.GameBatch(2, 2, [1, 2], ruleset="pittsburgh")
    o = np.zeros((2, PITTSBURGH.observation_size), np.float32)
    m = np.zeros((2, PITTSBURGH.num_actions), bool)
    errors, dones = batch.step(np.array([-1, -1]), o, m)
    assert not errors.any() and not dones.any() and m.any(axis=1).all()


def test_a_batch_strides_by_its_rulesets_own_state_size() -> None:
    """Issue 22: a batch's slots are each ruleset's state size (8-byte aligned), not the
    BrassGame union's 2,048 bytes; the core refuses a stride that is short or unaligned."""
    for ruleset in ("birmingham", "pittsburgh"):
        size = int(lib.brass_state_size(brass.get_ruleset(ruleset).id))
        batch = brass.GameBatch(3, 2, [1, 2, 3], ruleset=ruleset)
        assert batch._states.stride == -(-size // 8) * 8
        assert batch._states.nbytes == 3 * batch._states.stride < 3 * ffi.sizeof("BrassGame")
    assert BIRMINGHAM.state_size == 648 and brass.GameBatch(1, 2, [1])._states.nbytes == 648
    states = StateArray(2, BIRMINGHAM.state_size)
    for i in range(2):
        lib.brass_clone(states.slot(i), brass.Game.new(2, seed=1)._g)
    acts, errs, done = ffi.new("int32_t[2]", [-1, -1]), ffi.new("int32_t[2]"), ffi.new("uint8_t[2]")
    obs = ffi.new("float[]", 2 * BIRMINGHAM.observation_size)
    masks = ffi.new("uint8_t[]", 2 * BIRMINGHAM.num_actions)
    for stride in (states.stride - 8, states.stride + 4, 0):
        assert lib.brass_step_batch(states.games, stride, 2, acts, errs, obs,
                                    BIRMINGHAM.observation_size, masks, BIRMINGHAM.num_actions,
                                    done) == -lib.BRASS_E_BAD_ARGUMENT
        assert lib.brass_playout_batch(states.games, stride, 2, lib.POLICY_RANDOM, 1,
                                       100) == -lib.BRASS_E_BAD_ARGUMENT
    assert lib.brass_step_batch(states.games, states.stride, 2, acts, errs, obs,
                                BIRMINGHAM.observation_size, masks, BIRMINGHAM.num_actions,
                                done) == 0
    rows = ffi.buffer(masks)
    width = BIRMINGHAM.num_actions
    assert all(rows[i * width:(i + 1) * width] != bytes(width) for i in range(2))
    assert lib.brass_playout_batch(states.games, states.stride, 2, lib.POLICY_RANDOM, 1,
                                   1 << 20) > 0
    assert all(states.slot(i).header.game_over for i in range(2))


@pytest.mark.parametrize("ruleset", ["birmingham", "pittsburgh"])
def test_the_legal_memo_never_vouches_for_another_state(ruleset: str) -> None:
    """The core remembers the last legal list with the state's bytes (engine.c): an id
    listed for one state, applied after other bytes were written over the same handle, is
    checked in full and refused where it is illegal, leaving the state as it was."""
    game = brass.Game.new(2, seed=7, ruleset=ruleset)
    listed = game.legal_ids()
    moved = game.clone()
    moved.apply(listed[0])
    stale = [a for a in listed if moved.reason(a) is not None]
    assert stale, "the first decision leaves every id of the list legal"
    game._mem[:] = moved._mem  # the same handle (and address), the other state's bytes
    before = bytes(game._mem)
    with pytest.raises(EngineError) as refused:
        game.apply(stale[0])
    assert refused.value.code == "ILLEGAL_ACTION"
    assert bytes(game._mem) == before
    game.apply(moved.legal_ids()[0])  # and the new state's own list still applies
