"""The Python loop's cost: legal_ids + apply per decision, and clone(), in CPU microseconds
(random 2-player games of each ruleset). Compare two trees with alternating runs:
PYTHONPATH=<dir holding a brass package> python core_c/bench_python_loop.py [games]"""
import random
import sys
import time

import brass


def run(ruleset: str, games: int) -> tuple[float, float]:
    rng = random.Random(7)
    decisions, t_loop = 0, 0.0
    clones, t_clone = 0, 0.0
    for seed in range(games):
        g = brass.Game.new(2, seed, ruleset=ruleset)
        while not g.is_over:
            t0 = time.process_time_ns()
            ids = g.legal_ids()
            g.apply(ids[rng.randrange(len(ids))])
            t_loop += time.process_time_ns() - t0
            decisions += 1
            if decisions % 10 == 0:
                t0 = time.process_time_ns()
                for _ in range(20):
                    g.clone()
                t_clone += time.process_time_ns() - t0
                clones += 20
    return t_loop / decisions / 1e3, t_clone / clones / 1e3

games = int(sys.argv[1]) if len(sys.argv) > 1 else 3
out = [brass.__file__.split("/")[-3]]
for rs in ("birmingham", "pittsburgh"):
    loop, clone = run(rs, games)
    out.append(f"{rs} loop_us={loop:.2f} clone_us={clone:.2f}")
print(" | ".join(out))
