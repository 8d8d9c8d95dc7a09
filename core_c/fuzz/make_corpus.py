"""Write the seed corpus of the fuzz harnesses from real games (through the Python API).

    python core_c/fuzz/make_corpus.py   # rewrites core_c/fuzz/corpus/{fuzz_restore,...}/

fuzz_restore:   snapshots of seeded random games at varied decisions and eras;
fuzz_state:     the same states as raw BirminghamGame bytes, then decision bytes;
fuzz_decisions: seed (8 bytes), options, prefix length, salt, then decision bytes;
fuzz_pgh_json:  Pittsburgh positions as JSON text (both table sets, every player count, mid
                action and finished), and game parameters whose position is mutated;
fuzz_worths:    the bots' evaluator params (BrassWorthParams' bytes, as brass_clients' static
                evaluators fill them) and a summary of a random game, both rulesets, 2-4
                players, from the start to the end.
Deterministic: the same engine writes the same files.
"""

from __future__ import annotations

import json
import random
import shutil
import struct
from pathlib import Path

import brass
from brass._core import lib

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "corpus"
HEADER = (lib.brass_snapshot_size(lib.BRASS_RULESET_BIRMINGHAM)
          - lib.brass_state_size(lib.BRASS_RULESET_BIRMINGHAM))


def states() -> list[tuple[str, bytes]]:
    """(name, snapshot) of varied states: every decision kind met, both eras, the end."""
    out: list[tuple[str, bytes]] = []
    seen: set[tuple[int, str, str]] = set()
    for players in (2, 3, 4):
        for seed in range(6):
            g = brass.Game.new(players, seed, beginner=seed == 5,
                               manufacturer_iv_cost=14 if seed % 3 == 0 else 8,
                               auto_resolve=seed % 4 != 0)
            rng = random.Random(seed)
            step = 0
            while not g.is_over:
                era = g.position()["era"] if step % 50 == 0 else ""
                key = (players, g.decision, era)
                if key not in seen:
                    seen.add(key)
                    out.append((f"p{players}-s{seed}-d{step}-{g.decision}", g.snapshot()))
                ids = g.legal_ids()
                if g.decision == "action" and rng.random() < 0.8:
                    ids = [i for i in ids if i not in (4, 6)] or ids
                g.apply(rng.choice(ids))
                step += 1
            if seed < 2:
                out.append((f"p{players}-s{seed}-end", g.snapshot()))
    return out


def write_pgh_json_corpus() -> None:
    out = CORPUS / "fuzz_pgh_json"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    rng = random.Random(11)
    for players in (2, 3, 4):
        for data in ("pittsburgh", "tiny"):
            g = brass.Game.new(players, players * 7, ruleset="pittsburgh", options={"data": data})
            for step in range(2000):
                if step in (0, 90, 333) or g.is_over:
                    text = json.dumps(g.position(), separators=(",", ":")).encode()
                    (out / f"p{players}-{data}-{step}").write_bytes(text)
                if g.is_over:
                    break
                g.apply(rng.choice(g.legal_ids()))
    for k in range(6):
        params = bytes([k % 3, k % 4]) + struct.pack("<Q", rng.getrandbits(64)) + bytes([k * 20])
        (out / f"mutated{k}").write_bytes(params + rng.randbytes(24))


def write_worths_corpus() -> None:
    from brass._core import ffi
    from brass_clients.bots.heuristic import evaluator_for

    out = CORPUS / "fuzz_worths"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    rng = random.Random(5)
    for ruleset in ("birmingham", "pittsburgh"):
        params = bytes(ffi.buffer(evaluator_for(ruleset).worth_params._params))
        for players in (2, 3, 4):
            g = brass.Game.new(players, players, ruleset=ruleset)
            for step in range(3000):
                if step in (0, 150) or g.is_over:
                    summary = g.summary()
                    (out / f"{ruleset}-p{players}-{step}").write_bytes(
                        params + struct.pack(f"<{len(summary)}i", *summary))
                if g.is_over:
                    break
                g.apply(rng.choice(g.legal_ids()))


def main() -> None:
    write_pgh_json_corpus()
    write_worths_corpus()
    for sub in ("fuzz_restore", "fuzz_state", "fuzz_decisions"):
        shutil.rmtree(CORPUS / sub, ignore_errors=True)
        (CORPUS / sub).mkdir(parents=True)
    rng = random.Random(2024)
    for name, snap in states():
        (CORPUS / "fuzz_restore" / name).write_bytes(snap)
        (CORPUS / "fuzz_state" / name).write_bytes(snap[HEADER:] + rng.randbytes(48))
    for k in range(24):
        seed = rng.getrandbits(64)
        head = struct.pack("<Q", seed) + bytes([k % 32, (k * 23) % 256, k])
        (CORPUS / "fuzz_decisions" / f"seed{k}").write_bytes(head + rng.randbytes(96 + 8 * k))
    counts = {d.name: len(list(d.iterdir())) for d in sorted(CORPUS.iterdir())}
    print(counts)


if __name__ == "__main__":
    main()
