"""Re-verification of every extremal value the results store claims (``setlab verify``).

Not independent of setlab: it runs setlab's own code (and re-solves the programs with the other
solver); the independent check is the proof bundle's, ``setlab certify`` and its standalone
checker (docs/certificates.md).

A witness is re-counted from its digit vectors (each pair's third card -(x + y) looked up),
sharing no code with the numba kernels. A bound is re-checked from its proof record: arithmetic
for deletion and complement bounds, the identity M(n) + m(N-n) = N(N-1)/6 - n(N-n)/2 between the
two problems, a re-run of searches and exhaustive walks on request, and the bounds
module's own verifier for its records. Every chain of cited values (deletion cites M(n-1),
complement the other problem at N - n, a slice program the values of dimension P - 1) must end in
a base proof, and a cycle fails; a search record is checked against the levels it stored.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import asdict, dataclass
from functools import cache
from typing import Any

from setlab.cards import check_properties, deck_size, vector_of
from setlab.executor import default_workers, run_tasks
from setlab.extremal.bounds import verify_max_bound
from setlab.extremal.bruteforce import Extremes, exhaustive_table
from setlab.extremal.identities import complement_sum, total_lines
from setlab.extremal.maxsets import deletion_bound
from setlab.extremal.search import extend_classes, level_thresholds, orbit_sizes, search
from setlab.extremal.split import verify_split_bound
from setlab.find import count_sets
from setlab.store import PROBLEMS, Result, Sense, Store
from setlab.symmetry import certificate

__all__ = [
    "BASE_METHODS",
    "Check",
    "Key",
    "check_bound",
    "check_citations",
    "check_complements",
    "check_witness",
    "citations",
    "recount",
    "slice_values_are_proven",
    "trusted",
    "verify_store",
]

Key = tuple[int, int, Sense]
"""(P, n, sense): one stored value, M_P(n) for ``"max"``, m_P(n) for ``"min"``."""

BASE_METHODS = ("trivial", "exhaustive", "search", "bounds", "split", "no cap", "one set")
"""Proof methods that cite no other value of the same problem pair (a slice program cites the
values of dimension P - 1, the split those of P - 1 and P - 2, which rest on their own base
proofs; "no cap" rests on the stored largest cap and its pencil chain, "one set" on that too and
on the fibre split's stored refutations)."""


@dataclass(frozen=True)
class Check:
    """One verified claim: which result, what was checked, and whether it holds."""

    problem: str
    properties: int
    cards: int
    what: str
    ok: bool
    detail: str

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


def recount(cards: list[int], properties: int) -> int:
    """Sets among distinct ``cards``, digit by digit (no table, no numba).

    Two cards x, y force the third, -(x + y) in every coordinate (x + y + z = 0 mod 3); each
    set is met once from each of its three pairs. So the count is the pairs whose third card is
    present, over 3: C(n, 2) lookups where a triple loop makes C(n, 3) tests.

    Examples
    --------
    >>> recount([0, 1, 2, 3, 4, 5, 6, 7, 8], 2)  # the whole plane AG(2,3): 12 lines
    12
    """
    vectors = [tuple(vector_of(c, properties)) for c in cards]
    present = set(vectors)
    thirds = sum(
        tuple((-a - b) % 3 for a, b in zip(x, y, strict=True)) in present
        for i, x in enumerate(vectors)
        for y in vectors[i + 1 :]
    )
    return thirds // 3


def check_witness(result: Result) -> Check:
    """The stored witness has ``cards`` distinct cards and exactly ``value`` sets.

    Examples
    --------
    >>> store = Store(":memory:")
    >>> _ = store.record_witness("maxsets", 2, 4, "max", 1, [0, 1, 2, 3], "a line and a card")
    >>> check_witness(store.get("maxsets", 2, 4)).detail
    '1 set re-counted'
    >>> _ = store.record_witness("maxsets", 2, 5, "max", 2, [0, 1, 2, 3, 4], "claims too many")
    >>> check_witness(store.get("maxsets", 2, 5)).detail  # 00 01 02 10 11: one line only
    '1 set re-counted'
    >>> check_witness(store.get("maxsets", 2, 5)).ok
    False
    """
    n = deck_size(result.properties)
    witness = result.witness or []
    if len(set(witness)) != result.cards or any(not 0 <= c < n for c in witness):
        return _check(result, "witness", False, "not a set of distinct cards of the right size")
    sets = recount(witness, result.properties)
    noun = "set" if sets == 1 else "sets"
    return _check(result, "witness", sets == result.value, f"{sets} {noun} re-counted")


def check_bound(
    result: Result, store: Store, rerun: bool = False, scheduler: str | None = None
) -> Check:
    """Re-check the proof record of a stored bound (``rerun``: repeat searches and walks, on
    the Dask cluster of ``scheduler`` when given; see :func:`setlab.executor.run_tasks`).

    Examples
    --------
    >>> store = Store(":memory:")
    >>> _ = store.record_bound("maxsets", 2, 9, "max", 12, {"method": "trivial"}, "trivial")
    >>> check_bound(store.get("maxsets", 2, 9), store).ok  # the whole deck: its 12 lines
    True
    >>> _ = store.record_bound("maxsets", 2, 8, "max", 7, {"method": "trivial"}, "trivial")
    >>> check_bound(store.get("maxsets", 2, 8), store).ok  # 8 of 9 cards is not trivial
    False
    """
    proof = result.proof or {}
    method = proof.get("method")
    p, n, bound = result.properties, result.cards, result.bound
    size = deck_size(p)
    if result.sense == "max" and result.value is not None and result.value > bound:
        return _check(result, "bound", False, f"witness {result.value} exceeds bound {bound}")
    if result.sense == "min" and result.value is not None and result.value < bound:
        return _check(result, "bound", False, f"witness {result.value} below bound {bound}")
    if method == "trivial":
        if n <= 2 or n == size:
            expected = 0 if n <= 2 else total_lines(p)
            return _check(result, "bound", bound == expected, f"n = {n}: {expected} sets")
        ok = result.sense == "min" and bound == 0
        return _check(result, "bound", ok, "a minimum is never below 0")
    if method == "exhaustive":
        ok = proof.get("value") == bound
        detail = "recorded walk value"
        if rerun:
            e = _walk(p, scheduler)[n]
            ok = ok and bound == (e.max if result.sense == "max" else e.min)
            detail = "walk over all subsets repeated"
        return _check(result, "bound", ok, detail)
    if method == "deletion":
        sense = result.sense
        previous = store.get(PROBLEMS[sense], p, n - 1)
        known = previous is not None and previous.bound is not None
        if known and sense == "max":
            known = previous.bound <= proof["previous"]
        elif known:
            known = previous.bound >= proof["previous"]
        ok = known and deletion_bound(n, proof["previous"], sense) == bound
        letter, relation = ("M", "<=") if sense == "max" else ("m", ">=")
        return _check(
            result, "bound", ok, f"from {letter}({n - 1}) {relation} {proof.get('previous')}"
        )
    if method == "complement":
        identity = complement_sum(p, n)
        if result.sense == "max":
            low = proof["min_bound"]
            other = store.get(PROBLEMS["min"], p, size - n)
            known = low == 0 or (other is not None and (other.bound or 0) >= low)
            ok = known and identity == proof["identity"] and bound == identity - low
            return _check(result, "bound", ok, f"M(n) <= {identity} - m({size - n}), m >= {low}")
        other = store.get(PROBLEMS["max"], p, size - n)
        ok = (
            other is not None
            and other.bound is not None
            and other.bound <= proof["max_bound"]
            and bound == identity - proof["max_bound"]
        )
        return _check(result, "bound", ok, f"from M({size - n}) <= {proof.get('max_bound')}")
    if method in ("no cap", "one set"):
        largest = proof.get("largest_cap")
        cap = store.get("maxcap", p, 0, {"values": 3})
        ok = (
            result.sense == "min"
            and bound == (1 if method == "no cap" else 2)
            and cap is not None
            and cap.proven
            and cap.value == largest
            and n > largest
            and _cap_chain_holds(cap)
        )
        if method == "no cap":
            return _check(result, "bound", ok, f"no cap of AG({p},3) has more than {largest} cards")
        errors = _one_set_errors(p, n, store) if ok else ["no proven largest cap below n"]
        detail = f"no {n} cards of AG({p},3) hold exactly one set (oneset_check.py)"
        return _check(result, "bound", not errors, detail if not errors else errors[0])
    if method == "search":
        return _check_search(result, proof, rerun, store, scheduler)
    if method == "bounds":
        record = proof["record"]
        ok = (
            result.sense == "max"
            and record.get("claim") == f"max <= {bound}"
            and slice_values_are_proven(record, store)
            and verify_max_bound(record)
        )
        return _check(result, "bound", ok, f"verify_max_bound ({proof['record'].get('method')})")
    if method == "split":
        record = proof["record"]
        below = {"properties": p - 1, "known_max": record["pencil"]["known_below"]}
        ok = (
            result.sense == "max"
            and record.get("claim") == f"max <= {bound}"
            and slice_values_are_proven(record["program"], store)
            and slice_values_are_proven(below, store)
            and verify_split_bound(record)
        )
        return _check(result, "bound", ok, f"verify_split_bound (theta {record.get('theta')})")
    return _check(result, "bound", False, f"unknown proof method {method!r}")


_CHAINS: dict[str, bool] = {}
"""Verdicts of the standalone checker on the pencil chains met (by their JSON text)."""


def _cap_chain_holds(cap: Result) -> bool:
    """The stored largest cap's pencil chain passes ``proofcheck/caps_check.py`` (once per
    chain and process: about 30 s for AG(5,3))."""
    from setlab.proofcheck.caps_check import check_largest_cap

    steps = (cap.proof or {}).get("steps")
    if not steps:
        return False
    claim = {"properties": cap.properties, "value": cap.value,
             "witness": [list(vector_of(c, cap.properties)) for c in cap.witness or []],
             "proof": {"method": "pencil chain", "steps": steps}}  # fmt: skip
    text = json.dumps(claim, sort_keys=True)
    if text not in _CHAINS:
        _CHAINS[text] = not check_largest_cap(claim)
    return _CHAINS[text]


def _one_set_errors(properties: int, cards: int, store: Store) -> list[str]:
    """What ``proofcheck/oneset_check.py`` finds wrong with the stored fibre split of "n cards
    with exactly one set" (the cap classes, every case, every LRAT refutation: minutes for
    AG(5,3))."""
    from setlab.extremal.oneset import one_set_claim
    from setlab.proofcheck.oneset_check import check_one_set

    stored = one_set_claim(properties, cards, store)
    if stored is None:
        return ["the store does not hold every case of the fibre split refuted"]
    claim, lrat = stored
    return check_one_set(claim, lrat, workers=2)


def citations(result: Result) -> list[Key]:
    """The stored values the proof of ``result``'s bound rests on.

    deletion: M(n - 1); complement: m(N - n) for a maximum (none when it uses only m >= 0),
    M(N - n) for a minimum; a slice program: the (P-1)-dimensional values it assumed; the split:
    those of its program and the (P-2)-dimensional maxima of its pencils.

    Examples
    --------
    >>> store = Store(":memory:")
    >>> _ = store.record_bound("maxsets", 4, 13, "max", 16, {"method": "deletion", "previous": 14},
    ...                        "deletion")
    >>> citations(store.get("maxsets", 4, 13))
    [(4, 12, 'max')]
    """
    proof = result.proof or {}
    method = proof.get("method")
    p, n = result.properties, result.cards
    if method == "deletion":
        return [(p, n - 1, result.sense)]
    if method == "complement":
        other = deck_size(p) - n
        if result.sense == "max":
            return [(p, other, "min")] if proof.get("min_bound", 0) > 0 else []
        return [(p, other, "max")]
    if method in ("bounds", "split"):
        record = proof.get("record") or {}
        program = record.get("program", record)  # the split's first case is a slice program
        out: list[Key] = []
        for field, sense in (("known_max", "max"), ("known_min", "min")):
            out += [(p - 1, int(k), sense) for k in sorted(program.get(field) or {}, key=int)]
        below = (record.get("pencil") or {}).get("known_below") or {}
        return out + [(p - 2, int(k), "max") for k in sorted(below, key=int)]
    return []


def check_citations(result: Result, store: Store, memo: dict[Key, str] | None = None) -> Check:
    """Every chain of values cited from ``result`` ends in a base proof, with no cycle.

    (Two complement or deletion records citing each other once made a false value pass every
    other check.) ``memo`` keeps the verdicts of values already followed (empty: fine).

    Examples
    --------
    >>> store = Store(":memory:")
    >>> proof = {"method": "deletion", "previous": 0}
    >>> _ = store.record_bound("maxsets", 4, 5, "max", 2, proof, "deletion")
    >>> check_citations(store.get("maxsets", 4, 5), store).detail
    'cites M_4(4), which has no proven bound in the store'
    """
    memo = {} if memo is None else memo

    def follow(key: Key, trail: tuple[Key, ...]) -> str:
        if key in memo:
            return memo[key]
        if key in trail:
            cycle = (*trail[trail.index(key) :], key)
            return "citation cycle " + " -> ".join(_key_name(k) for k in cycle)
        current = store.get(PROBLEMS[key[2]], key[0], key[1])
        if current is None or current.bound is None:
            verdict = f"cites {_key_name(key)}, which has no proven bound in the store"
            return verdict if trail else "no proven bound"
        verdict = ""
        for other in citations(current):
            found = follow(other, (*trail, key))
            if found:
                verdict = found if found.startswith(("citation cycle", "cites")) else (
                    f"cites {_key_name(other)}: {found}"
                )  # fmt: skip
                break
        memo[key] = verdict
        return verdict

    key: Key = (result.properties, result.cards, result.sense)
    verdict = follow(key, ())
    cited = ", ".join(_key_name(k) for k in citations(result)) or "nothing"
    return _check(
        result, "citations", not verdict, verdict or f"cites {cited}; chains end in base proofs"
    )


def trusted(rerun: bool) -> str:
    """One line: what ``verify_store`` takes on trust rather than checks.

    Examples
    --------
    >>> trusted(rerun=False).startswith("trusted: Python integers for witnesses and arithmetic")
    True
    >>> "replay each stored level's closure" in trusted(rerun=True)
    True
    """
    closure = (
        "setlab's own search code and nauty to replay each stored level's closure"
        if rerun
        else "the stored search levels' closure (checked only with --rerun, or by a bundle's "
        "check.py)"
    )
    return (
        f"trusted: Python integers for witnesses and arithmetic; {closure}; CP-SAT/HiGHS "
        "re-solving the counting programs (no certificate checked here)"
    )


def slice_values_are_proven(record: dict[str, Any], store: Store) -> bool:
    """The (P-1)-dimensional values a slice program assumed are proven in the store.

    The program bounds the sets inside each slice by ``known_max`` (and ``known_min``); its
    refutation proves the claim only if M_{P-1}(k) <= known_max[k] and m_{P-1}(k) >=
    known_min[k] are themselves proven bounds. Records without such values pass.

    Examples
    --------
    >>> record = {"properties": 4, "known_max": {"9": 12}}
    >>> slice_values_are_proven(record, Store(":memory:"))  # M_3(9) is not in this store
    False
    """
    flat = int(record["properties"]) - 1
    assumed = (("known_max", "max"), ("known_min", "min"))
    for key, sense in assumed:
        for k, value in record.get(key, {}).items():
            stored = store.get(PROBLEMS[sense], flat, int(k))
            if stored is None or stored.bound is None:
                return False
            if (stored.bound > int(value)) if sense == "max" else (stored.bound < int(value)):
                return False
    return True


def _check_search(
    result: Result, proof: dict[str, Any], rerun: bool, store: Store, scheduler: str | None
) -> Check:
    p, n, sense, threshold = result.properties, result.cards, result.sense, proof["threshold"]
    refuted = proof["best"] is None
    step = 1 if sense == "max" else -1
    ok = (
        proof["thresholds"] == level_thresholds(sense, n, threshold)
        and proof["properties"] == p
        and proof["cards"] == n
        and proof["sense"] == sense
        and (result.bound == threshold - step if refuted else result.bound == proof["best"])
        and (proof["classes"][n] == 0) == refuted
        and all(proof["orbit_checks"].values())
    )
    detail = f"threshold {threshold}, classes {proof['classes']}"
    if not ok:
        return _check(result, "bound", False, detail + ": the record contradicts itself")
    problem = _levels_problem(result, proof, store, rerun)
    if problem:
        return _check(result, "bound", False, f"{detail}: {problem}")
    detail += ", stored levels checked" + (" and their closure replayed" if rerun else "")
    if rerun:
        again = search(p, n, sense, threshold, scheduler=scheduler)
        ok = again.best == proof["best"] and again.level_hashes == proof["level_hashes"]
        detail += ", search repeated"
    return _check(result, "bound", ok, detail)


def _levels_problem(result: Result, proof: dict[str, Any], store: Store, rerun: bool) -> str:
    """What is wrong with a search record against the levels it stored ('' if nothing).

    Each level k stored has classes[k] representatives of k cards passing T_k; the level-n
    extreme is the recorded best (an empty last level for a refutation); on levels that prune
    nothing the orbit sizes sum to C(N, k). With ``rerun``, closure is replayed: every child of
    a level-k representative passing T_(k+1) has the whole certificate of a level-(k+1) one.
    """
    p, n, sense = result.properties, result.cards, result.sense
    names = proof.get("levels")
    if names is None:
        return "no stored levels (recorded before levels were kept: search again)"
    thresholds, classes = proof["thresholds"], proof["classes"]
    levels: list[list[list[int]]] = [[[]] if classes[0] else []]
    for k, name in enumerate(names, start=1):
        level = store.level(name)
        if level is None:
            return f"level {k} is not in the store"
        levels.append(level)
    last = len(levels) - 1
    if last < n and levels[last]:
        return f"the stored levels stop at {last} with classes left"
    size = deck_size(p)
    for k in range(1, last + 1):
        if len(levels[k]) != classes[k]:
            return f"level {k} stores {len(levels[k])} classes, the record says {classes[k]}"
        counts = [count_sets(rep, p) for rep in levels[k]]
        if any(len(set(rep)) != k for rep in levels[k]):
            return f"level {k} holds a representative that is not {k} cards"
        if not all(c >= thresholds[k] if sense == "max" else c <= thresholds[k] for c in counts):
            return f"a level-{k} representative fails T_{k} = {thresholds[k]}"
        unpruned = thresholds[k] <= 0 if sense == "max" else thresholds[k] >= k * (k - 1) // 6
        if unpruned and sum(orbit_sizes(levels[k], p)) != math.comb(size, k):
            return f"level {k}: orbit sizes do not sum to C({size},{k})"
        if k == n:
            best = (max if sense == "max" else min)(counts) if counts else None
            if best != proof["best"]:
                return f"level {n}'s extreme is {best}, the record says {proof['best']}"
    if rerun:
        for k in range(last):
            wholes = {certificate(rep, p) for rep in levels[k + 1]}
            parents = [[rep, count_sets(rep, p)] for rep in levels[k]]
            found = extend_classes(p, sense, thresholds[k + 1], parents)["classes"]
            if any(certificate(cards, p) not in wholes for _, cards, _ in found):
                return f"a child of level {k} passing T_{k + 1} is in no stored level-{k + 1} class"
    return ""


def check_complements(store: Store, properties: int) -> list[Check]:
    """M(n) and m(N-n) agree with sets(S) + sets(complement) = N(N-1)/6 - n(N-n)/2.

    A max witness with v sets gives a min witness for N - n with identity - v sets, so the proven
    min bound cannot exceed that (and likewise the other way); both proven means they sum exactly.

    Examples
    --------
    >>> store = Store(":memory:")  # AG(2,3): M(5) = 2 and m(4) = 0, and 12 - 4 * 5 / 2 = 2
    >>> _ = store.record_witness("maxsets", 2, 5, "max", 2, [0, 1, 2, 3, 6], "two lines")
    >>> _ = store.record_bound("maxsets", 2, 5, "max", 2, {"method": "example"}, "example")
    >>> _ = store.record_witness("minsets", 2, 4, "min", 0, [4, 5, 7, 8], "a cap")
    >>> _ = store.record_bound("minsets", 2, 4, "min", 0, {"method": "example"}, "example")
    >>> [(c.cards, c.ok) for c in check_complements(store, 2)]
    [(5, True)]
    """
    size = deck_size(properties)
    out = []
    for high in store.results(PROBLEMS["max"], properties):
        low = store.get(PROBLEMS["min"], properties, size - high.cards)
        if low is None:
            continue
        identity = complement_sum(properties, high.cards)
        ok = True
        if high.value is not None and low.bound is not None:
            ok = ok and low.bound <= identity - high.value
        if low.value is not None and high.bound is not None:
            ok = ok and high.bound >= identity - low.value
        if high.proven and low.proven:
            ok = ok and high.value + low.value == identity
        detail = f"M({high.cards}) + m({size - high.cards}) vs {identity}"
        out.append(_check(high, "complement", ok, detail))
    return out


def verify_store(
    store: Store,
    properties: int | None = None,
    rerun: bool = False,
    scheduler: str | None = None,
    progress: Callable[[int, int], None] | None = None,
    workers: int | None = None,
) -> list[Check]:
    """Every check of every max/min result in the store (optionally one P).

    With ``rerun`` the searches and walks are repeated, on the Dask cluster of ``scheduler``
    when given (default ``$SETLAB_SCHEDULER``). Otherwise the results are checked on
    ``workers`` local processes (default :func:`~setlab.executor.default_workers`), each
    reading the store's file; a store in memory, or a rerun (whose searches have workers of
    their own), is checked in this process. ``progress(done, total)`` is called before the first
    result and after each is checked (the P = 5 table's 488: 9 1/2 minutes on one process, 5 on
    two; benchmarks/verify.py).

    Examples
    --------
    >>> store = Store(":memory:")
    >>> _ = store.record_witness("maxsets", 2, 3, "max", 1, [0, 1, 2], "example")
    >>> proof = {"method": "deletion", "previous": 0}  # M(2) <= 0 is not in the store
    >>> _ = store.record_bound("maxsets", 2, 3, "max", 1, proof, "deletion")
    >>> [(c.what, c.ok) for c in verify_store(store)]
    [('witness', True), ('bound', False), ('citations', False)]
    """
    if properties is not None:
        check_properties(properties)
    results = [r for problem in PROBLEMS.values() for r in store.results(problem, properties)]
    workers = 1 if rerun or store.path == ":memory:" else workers or default_workers()
    own: list[list[Check]] = []
    if workers == 1:
        if progress is not None:
            progress(0, len(results))
        for done, result in enumerate(results, 1):
            own.append(_own_checks(result, store, rerun, scheduler))
            if progress is not None:
                progress(done, len(results))
    else:
        # The slowest checks go first (the pool takes tasks in order), so that no worker is left
        # with the one-set refutation or a split while the others have finished.
        slowest_first = sorted(enumerate(results), key=lambda ir: -_SLOW.get(ir[1].bound_method, 0))
        tasks = {
            str(i): (store.path, r.problem, r.properties, r.cards, r.params)
            for i, r in slowest_first
        }
        payloads = run_tasks("verify", tasks, _stored_checks, workers=workers, scheduler="",
                             progress=progress)  # fmt: skip
        own = [[Check(**c) for c in payloads[str(i)]] for i in range(len(results))]
    checks: list[Check] = []
    memo: dict[Key, str] = {}
    for result, checked in zip(results, own, strict=True):
        checks.extend(checked)
        if result.bound is not None:
            checks.append(check_citations(result, store, memo))
    for p in sorted({r.properties for r in results}):
        checks.extend(check_complements(store, p))
    return checks


_SLOW = {"one set": 3, "split": 2, "bounds": 1}
"""Proof methods whose check takes long, by rank: for P = 5, the fibre split's LRAT (about 2
minutes), a split's programs and split maxima (up to 2 minutes each), a slice program."""


def _own_checks(result: Result, store: Store, rerun: bool, scheduler: str | None) -> list[Check]:
    """The checks of one result on its own: its witness re-counted, its proof record re-checked
    (the citations, which follow chains through the store, are checked in one place)."""
    checks = []
    if result.witness is not None:
        checks.append(check_witness(result))
    if result.bound is not None:
        checks.append(check_bound(result, store, rerun, scheduler))
    return checks


def _stored_checks(
    path: str, problem: str, properties: int, cards: int, params: dict[str, Any]
) -> list[dict[str, Any]]:
    """:func:`_own_checks` of one result, read in a worker process from the store at ``path``."""
    with Store(path) as store:
        result = store.get(problem, properties, cards, params)
        if result is None:
            gone = Check(problem, properties, cards, "result", False, "left the store meanwhile")
            return [gone.as_json()]
        return [c.as_json() for c in _own_checks(result, store, False, None)]


@cache
def _walk(properties: int, scheduler: str | None) -> list[Extremes]:
    """The exhaustive walk, repeated once per P however many values it proved."""
    return exhaustive_table(properties, scheduler=scheduler)


def _key_name(key: Key) -> str:
    return f"{'M' if key[2] == 'max' else 'm'}_{key[0]}({key[1]})"


def _check(result: Result, what: str, ok: bool, detail: str) -> Check:
    return Check(result.problem, result.properties, result.cards, what, bool(ok), detail)
