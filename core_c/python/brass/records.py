"""Game records for research: the versioned JSON Schemas of positions, replay records and
bulk export lines (in `brass/schemas/`, served by the service at GET /v1/schemas/{schema}),
and the loader of a bulk export (JSON Lines) that rebuilds every game and checks it.

    import brass.records as records
    records.validate(game.replay_record(), "replay-record.v1")
    for exported in records.read_export(open("games.jsonl", "rb")):
        exported.game.scores()        # rebuilt from the seed or position and the decisions

A schema's name carries its version (`.v1`): a change that refuses a document the
previous version accepted gets a new name, and the old one stays.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import jsonschema
from referencing import Registry, Resource

from .game import Game

SCHEMA_NAMES = ("position.v1", "replay-record.v1", "game-export.v1")
EXPORT_FORMAT = "brass-game-export/1"


class RecordError(ValueError):
    """An exported game that does not rebuild to what was exported (line: 1-based)."""

    def __init__(self, line: int, game_id: str, message: str) -> None:
        super().__init__(f"line {line} (game {game_id}): {message}")
        self.line, self.game_id = line, game_id


@cache
def schema(name: str) -> dict[str, Any]:
    """The JSON Schema `name` (one of SCHEMA_NAMES), as a dict; KeyError for another."""
    if name not in SCHEMA_NAMES:
        raise KeyError(f"no schema {name!r}; there are {', '.join(SCHEMA_NAMES)}")
    text = resources.files("brass").joinpath("schemas", f"{name}.json").read_text("utf-8")
    return dict(json.loads(text))


@cache
def _validator(name: str) -> jsonschema.protocols.Validator:
    # the schemas refer to each other by their $id (position.v1.json, ...)
    registry: Registry = Registry().with_resources(
        (schema(other)["$id"], Resource.from_contents(schema(other)))
        for other in SCHEMA_NAMES)
    cls = jsonschema.validators.validator_for(schema(name))
    return cls(schema(name), registry=registry, format_checker=cls.FORMAT_CHECKER)


def validate(document: Any, name: str) -> None:
    """Raises jsonschema.ValidationError unless `document` is valid under schema `name`."""
    _validator(name).validate(document)


@dataclass
class ExportedGame:
    """One line of a bulk export, its game rebuilt and checked."""

    line: dict[str, Any]
    game: Game


def read_export(lines: Iterable[str | bytes], check_schema: bool = True
                ) -> Iterator[ExportedGame]:
    """The games of a bulk export (GET /v1/games:export), one line at a time (memory: one
    game): each is rebuilt by brass.Game.replay from its record, and its version and the
    engine's state hash after the last decision must be those exported (RecordError
    otherwise). With `check_schema`, each line is first checked against game-export.v1."""
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        line = json.loads(text)
        game_id = str(line.get("game_id", "?")) if isinstance(line, dict) else "?"
        if check_schema:
            try:
                validate(line, "game-export.v1")
            except jsonschema.ValidationError as exc:
                raise RecordError(number, game_id, f"not a game-export.v1 line: {exc.message}"
                                  ) from exc
        game = Game.replay(line["record"])
        if game.version != line["version"]:
            raise RecordError(number, game_id, f"rebuilds to version {game.version}, not "
                              f"{line['version']}")
        if line.get("state_hash") is not None and game.state_hash() != int(line["state_hash"]):
            raise RecordError(number, game_id, f"rebuilds to state hash {game.state_hash()}, "
                              f"not {line['state_hash']}")
        yield ExportedGame(line, game)
