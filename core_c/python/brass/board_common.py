"""What every ruleset's board description shares: the data directory, the projection of
real-world coordinates into the view box, and the check of the board against the engine."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any


class BoardMismatch(Exception):
    """The board data and the engine's action space disagree (a build or data error)."""


def data_dir() -> Path:
    """Where the data files are: installed beside the package, or core_c/data in a checkout."""
    here = Path(__file__).resolve().parent
    for candidate in (here / "data", here.parent.parent / "data"):
        if (candidate / "birmingham.json").is_file():
            return candidate
    raise FileNotFoundError("the engine's data directory (birmingham.json) is missing")


def _load(name: str) -> Any:
    return json.loads((data_dir() / name).read_text(encoding="utf-8"))


def project(layout: dict[str, Any], towns: list[str]) -> dict[str, tuple[float, float]]:
    """Each location's point in the view box (the layout's `projection` text says how):
    the board `towns` fix the reference latitude and fill the view box."""
    places = layout["locations"]
    box = layout["view_box"]
    real = {k: v for k, v in places.items() if "lat" in v}
    lat0 = sum(real[k]["lat"] for k in towns) / len(towns)
    shrink = math.cos(math.radians(lat0))

    def plane(key: str) -> tuple[float, float]:
        return real[key]["lon"] * shrink, -real[key]["lat"]

    us = [plane(k)[0] for k in towns]
    vs = [plane(k)[1] for k in towns]
    inner_w, inner_h = box["width"] - 2 * box["margin"], box["height"] - 2 * box["margin"]
    scale = min(inner_w / (max(us) - min(us)), inner_h / (max(vs) - min(vs)))
    mid_u, mid_v = (max(us) + min(us)) / 2, (max(vs) + min(vs)) / 2

    def to_box(key: str) -> tuple[float, float]:
        u, v = plane(key)
        return box["width"] / 2 + (u - mid_u) * scale, box["height"] / 2 + (v - mid_v) * scale

    points: dict[str, tuple[float, float]] = {k: to_box(k) for k in real}
    for key, place in places.items():
        if "anchor" in place:
            anchors = [points[a] for a in place["anchor"]]
            points[key] = (sum(p[0] for p in anchors) / len(anchors),
                           sum(p[1] for p in anchors) / len(anchors))
    for key, place in places.items():
        dx, dy = place.get("nudge", (0, 0))
        x, y = points[key]
        points[key] = (round(x + dx, 1), round(y + dy, 1))
    return points


def _check_same(what: str, engine: set[str], board: set[str]) -> list[str]:
    problems = []
    if engine - board:
        problems.append(f"{what} the engine has but the board lacks: {sorted(engine - board)}")
    if board - engine:
        problems.append(f"{what} on the board but not in the engine: {sorted(board - engine)}")
    return problems
