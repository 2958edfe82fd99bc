"""The largest caps of AG(4,3) and AG(5,3) by pencil programs, against the baselines.

Prints, in one run:
- AG(4,3): the pencil chain's proof of 20 (two programs) against setlab's isomorph-free
  generation (the baseline), with their ratio;
- AG(5,3): the pencil chain's proof of 45 (ten steps), the standalone checker's re-check of it
  (``proofcheck/caps_check.py``), and the seed's plain integer program (maximise sum x over
  x_a + x_b + x_c <= 2 for the 9801 lines) under CP-SAT for a time limit: its best cap and bound;
- peak memory.
Usage: python benchmarks/caps_p5.py [CP_SAT_LIMIT_S] (default 60).
"""

from __future__ import annotations

from _common import Parser, in_range, run_script  # first: see _common.py

# isort: split
import json
import resource
import time

from caps import cp_sat  # benchmarks/caps.py, beside this script
from setlab.extremal.bigcaps import best_construction
from setlab.extremal.caps import largest_cap
from setlab.extremal.caps.pencils import largest_cap_certificate
from setlab.proofcheck.caps_check import check_largest_cap


def timed(function, *args):
    start = time.perf_counter()
    value = function(*args)
    return value, time.perf_counter() - start


def main() -> None:
    parser = Parser(description=__doc__)
    parser.add_argument("limit", metavar="CP_SAT_LIMIT_S", nargs="?", default=60.0,
                        type=in_range(float, 1, 86400), help="CP-SAT's time limit (default 60)")
    limit = parser.parse_args().limit
    largest_cap_certificate(3)  # compile the pattern kernel outside the timings
    generated, generation_s = timed(largest_cap, 4)
    chain4, chain4_s = timed(largest_cap_certificate, 4)
    print(f"AG(4,3): generation proves {generated.size} in {generation_s:.2f} s; the pencil chain "
          f"proves {chain4['value']} in {chain4_s:.2f} s ({chain4_s / generation_s:.2f}x)")
    chain5, chain5_s = timed(largest_cap_certificate, 5)
    claim = {"properties": 5, "value": chain5["value"], "witness": best_construction(5).tolist(),
             "proof": {"method": "pencil chain", "steps": chain5["steps"]}}
    size = len(json.dumps(claim))
    errors, check_s = timed(check_largest_cap, json.loads(json.dumps(claim)))
    verdict = "passes" if not errors else f"FAILS: {errors[:2]}"
    print(f"AG(5,3): the pencil chain proves {chain5['value']} in {chain5_s:.1f} s "
          f"({len(chain5['steps'])} steps, {size / 1e3:.0f} kB); the standalone check {verdict} "
          f"in {check_s:.1f} s ({check_s / chain5_s:.1f}x the proof)")
    plain_s, text, _ = cp_sat(limit, 5)
    print(f"AG(5,3), plain integer program under CP-SAT for {limit:.0f} s: {text} "
          f"({plain_s:.0f} s, {plain_s / chain5_s:.1f}x the pencil chain)")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"peak memory: {peak / 1024:.0f} MiB")


if __name__ == "__main__":
    run_script(main)
