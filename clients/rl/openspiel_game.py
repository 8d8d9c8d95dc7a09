"""OpenSpiel Python game ``python_brass`` (needs the `rl` extra).

    import pyspiel
    import brass_clients.rl.openspiel_game  # registers the game
    game = pyspiel.load_game("python_brass", {"players": 2})
    pittsburgh = pyspiel.load_game("python_brass", {"players": 4, "ruleset": "pittsburgh",
                                                    "options": '{"data": "tiny"}'})

The deal is an explicit chance node at the root: outcome k deals the engine's game with seed
k (uniform over `num_deals` seeds); every later event inside the engine follows from that
seed, so a state knows every hidden card. Search that must not see them works on
`state.resample_from_infostate(player, sampler)`: a copy re-dealt by the core's `determinize`
(the other hands and the deck's order drawn again, everything the player has seen kept), as
OpenSpiel's ISMCTS does. Its nodes may be keyed by the information state (the default) or
by the observation string (`use_observation_string=True`): both are the same in every deal
the player cannot tell apart (`BrassObserver`).
Decisions are the engine's action ids; legality always comes from the engine.
Returns: place p of n is worth 1 - 2p/(n-1) (zero-sum). Parameters: `players`, `num_deals`,
`ruleset` (the engine's name: "birmingham", "pittsburgh"; its action space and observation
size follow) and `options` (the ruleset's options as a JSON object text, "" for none).
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel

import brass
from brass_clients.vector import outcome_rewards

SHORT_NAME = "python_brass"
DEFAULT_PLAYERS = 2
DEFAULT_NUM_DEALS = 1000
DEFAULT_RULESET = brass.DEFAULT_RULESET
MAX_GAME_LENGTH = 5000  # decisions; random games take ~150-300 (Pittsburgh ~450)

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Python Brass (Birmingham or Pittsburgh)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"players": DEFAULT_PLAYERS, "num_deals": DEFAULT_NUM_DEALS,
                             "ruleset": DEFAULT_RULESET, "options": ""},
)


def _game_info(players: int, num_deals: int, ruleset: brass.Ruleset) -> pyspiel.GameInfo:
    return pyspiel.GameInfo(
        num_distinct_actions=ruleset.num_actions,
        max_chance_outcomes=num_deals,
        num_players=players,
        min_utility=-1.0,
        max_utility=1.0,
        utility_sum=0.0,
        max_game_length=MAX_GAME_LENGTH,
    )


class _EngineGame:
    """Holds a brass.Game; deep copies clone it in C (OpenSpiel clones states by deepcopy)."""

    __slots__ = ("game",)

    def __init__(self, game: brass.Game | None) -> None:
        self.game = game

    def __deepcopy__(self, memo: dict[int, Any]) -> _EngineGame:
        return _EngineGame(None if self.game is None else self.game.clone())


class BrassOpenSpielGame(pyspiel.Game):
    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        self.players = int(params.get("players", DEFAULT_PLAYERS))
        self.num_deals = int(params.get("num_deals", DEFAULT_NUM_DEALS))
        self.ruleset = brass.get_ruleset(str(params.get("ruleset", DEFAULT_RULESET)))
        options_text = str(params.get("options", "") or "")
        self.options: dict[str, Any] = json.loads(options_text) if options_text else {}
        if not isinstance(self.options, dict):
            raise ValueError("options must be a JSON object")
        if not self.ruleset.min_players <= self.players <= self.ruleset.max_players:
            raise ValueError(f"players must be {self.ruleset.min_players} to "
                             f"{self.ruleset.max_players}")
        # the engine refuses an unknown option or value here, not at the first deal
        brass.Game.new(self.players, seed=0, ruleset=self.ruleset.name, options=self.options)
        super().__init__(_GAME_TYPE, _game_info(self.players, self.num_deals, self.ruleset),
                         params)

    def new_initial_state(self) -> BrassOpenSpielState:
        return BrassOpenSpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> BrassObserver:
        perfect_recall = bool(getattr(iig_obs_type, "perfect_recall", False))
        return BrassObserver(self.ruleset, perfect_recall=perfect_recall)


class BrassOpenSpielState(pyspiel.State):
    def __init__(self, game: BrassOpenSpielGame) -> None:
        super().__init__(game)
        self._players = game.players
        self._num_deals = game.num_deals
        self._ruleset = game.ruleset.name
        self._options = game.options
        self._engine = _EngineGame(None)

    @property
    def engine_game(self) -> brass.Game | None:
        return self._engine.game

    def current_player(self) -> int:
        game = self._engine.game
        if game is None:
            return pyspiel.PlayerId.CHANCE
        if game.is_over:
            return pyspiel.PlayerId.TERMINAL
        seat = game.current_seat
        assert seat is not None
        return seat

    def _legal_actions(self, player: int) -> list[int]:
        game = self._engine.game
        assert game is not None and player == game.current_seat
        return sorted(game.legal_ids())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        assert self._engine.game is None
        p = 1.0 / self._num_deals
        return [(seed, p) for seed in range(self._num_deals)]

    def _apply_action(self, action: int) -> None:
        if self._engine.game is None:
            self._engine.game = brass.Game.new(self._players, seed=int(action),
                                               ruleset=self._ruleset, options=self._options)
        else:
            self._engine.game.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal:{action}"
        return brass.action_name(int(action), self._ruleset)

    def is_terminal(self) -> bool:
        game = self._engine.game
        return game is not None and game.is_over

    def returns(self) -> list[float]:
        game = self._engine.game
        if game is None or not game.is_over:
            return [0.0] * self._players
        return [float(r) for r in outcome_rewards(game)]

    def resample_from_infostate(self, player_id: int,
                                probability_sampler: Any) -> BrassOpenSpielState:
        """A state `player_id` cannot tell from this one, its hidden cards dealt again:
        `probability_sampler()` (a float in [0, 1), as OpenSpiel's samplers give) seeds
        the core's `determinize`. Before the deal there is nothing hidden: a plain copy."""
        state = self.clone()
        game = self._engine.game
        if game is not None:
            seed = int(float(probability_sampler()) * 2.0**53)
            state._engine.game = game.determinize(int(player_id), seed)
        return state

    def __str__(self) -> str:
        game = self._engine.game
        return "(no deal yet)" if game is None else repr(game)


class BrassObserver:
    """Observation tensor = `game.observation(player)`; string = the seat's whole view as
    JSON (`game.view_json(player)`): equal exactly when the player cannot tell two states
    apart by what it sees now, so ISMCTS may key its nodes by it.

    The information state (`perfect_recall`, OpenSpiel's information_state_string/tensor)
    adds what the seat remembers: its string is the view followed by every decision played
    since the deal (all of them public: a discarded card is face up; the deal's seed is
    not in it). Its tensor is the observation: what the seat may believe about the hidden
    cards follows from its own hand and the face-up discards, which the observation holds
    (docs/ENGINE_API.md, "The observation vector"), so a longer record would add nothing
    to it."""

    def __init__(self, ruleset: brass.Ruleset | None = None, *,
                 perfect_recall: bool = False) -> None:
        size = (ruleset or brass.get_ruleset(DEFAULT_RULESET)).observation_size
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: BrassOpenSpielState, player: int) -> None:
        game = state.engine_game
        if game is None:
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = game.observation(player)

    def string_from(self, state: BrassOpenSpielState, player: int) -> str:
        game = state.engine_game
        if game is None:
            return "(no deal yet)"
        if not self.perfect_recall:
            return game.view_json(player)
        decisions = " ".join(str(option) for option in state.history()[1:])
        return f"{game.view_json(player)}\ndecisions: {decisions}"


pyspiel.register_game(_GAME_TYPE, BrassOpenSpielGame)
