"""Proof bundles: every proven M(n) and m(n) of the store as files a sceptic re-checks alone.

The variants' largest structure-free boards (no UltraSet, no 4Set, no GhostSet) proven in the
store for the same P go in as well, each a claim and its witness, which ``variants_check.py``
re-proves by a search of its own.

A bundle is a directory: one JSON file per proven value (its witness as digit vectors and its
proof: the method, a certificate, the values it cites), the representatives of every search
level the proofs use, ``manifest.json``, and ``check.py``, a checker written from the
mathematics that imports no setlab module (the standard library, numpy, python-igraph). The
values a proof cites (the other problem, n - 1, the slice values of dimension P - 1) go in too,
so every chain of citations ends in the bundle. See docs/certificates.md.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from setlab.cards import check_properties, deck_size, vector_of
from setlab.certificates import Key, citations
from setlab.errors import SetlabError
from setlab.executor import run_tasks
from setlab.store import PROBLEMS, Result, Store

__all__ = [
    "BUNDLE_FORMAT",
    "CHECKED_MOST",
    "MINIMUM_CAP_METHOD",
    "PROGRAM_METHODS",
    "SLOW_METHODS",
    "VALUED_CAP_METHOD",
    "BundleSummary",
    "program_certificate",
    "slow_certificate",
    "split_certificate",
    "value_proof",
    "write_bundle",
]

BUNDLE_FORMAT = "setlab-proof-bundle/1"
"""The ``format`` field of ``manifest.json``; ``check.py`` refuses any other."""

PROGRAM_METHODS = ("bounds",)  # the values they cite: setlab.certificates.citations
"""Store proof methods whose bound comes from a counting-identity program: in a bundle their
method is ``"farkas"`` (exact rational multipliers), checked by ``farkas_check.py``."""


MINIMUM_CAP_METHOD = "minimum"
"""How a bundle proves the largest cap s of AG(P,3) for P <= 4: the minimum m(s + 1) >= 1 of
its own values (any s + 1 cards hold a set), checked with them, and a witness of s cards."""

VALUED_CAP_METHOD = "search"
"""How ``valued_caps_check.py`` proves the largest cap of a deck of V != 3 values: its own
exhaustive search (no cap one card larger), with the witness counted by plain loops."""

CHECKED_MOST = 6
"""Largest P whose proven most-UltraSets values a bundle holds: every P setlab counts them for
(AG(4,3): every class of up to 10 cards, 1,658 of them at 10, checked by bliss in seconds; AG(5,3)
and AG(6,3): the classes of up to 7 and 6 cards, checked in 5 s and 32 s)."""


@dataclass(frozen=True)
class BundleSummary:
    """What :func:`write_bundle` wrote: values by method, level files, bytes on disk."""

    directory: Path
    values: int
    methods: dict[str, int]
    levels: int
    without_certificate: int
    bytes: int
    seconds: float
    variants: int = 0
    caps: int = 0


def program_certificate(result: Result) -> dict[str, Any] | None:
    """The exact certificate of a bound proven by a counting-identity program, or None.

    The program's LP relaxation (or, where it is feasible, a branching tree whose leaves are
    infeasible) refuted with exact rational Farkas multipliers, by
    :func:`setlab.extremal.farkas.record_certificate`; ``proofcheck/farkas_check.py`` rebuilds
    the program from the identities and checks them. None for a program without one (the
    integer program alone is infeasible and no tree within the node budget refutes it, or a
    method other than the slice programs): the checker then fails the value, "no certificate".

    Examples
    --------
    >>> from setlab.extremal.bounds import prove_max_bound
    >>> store = Store(":memory:")
    >>> record = prove_max_bound(4, 10, 13, {9: 12})
    >>> _ = store.record_bound("maxsets", 4, 10, "max", 12, {"method": "bounds", "record": record},
    ...                        "bounds")
    >>> program_certificate(store.get("maxsets", 4, 10))["kind"]
    'farkas'
    """
    from setlab.extremal.farkas import record_certificate  # SciPy: only for program proofs

    record = (result.proof or {}).get("record") or {}
    return record_certificate(record)


def split_certificate(result: Result) -> dict[str, Any] | None:
    """The certificate of a bound proven by the big-slice split (:mod:`setlab.extremal.split`):
    theta and the exact certificate of its program (at most one class above theta), the
    pencils' theta, and the certificates of the middle case's programs (big = t and forced
    class types), or None when a program has none within the node budget. The checker
    (``split_check.py``) redoes the pencils' case and the middle case's enumeration itself, so
    only the pencils' largest bound goes along, for information. The split maxima the pencils
    used go along with one subset of each affine orbit of their largest part (the checker
    verifies the orbits and recomputes each bound). Where a middle program has a count of big
    classes, its meeting bound goes along (the checker redoes the pencils) and the arrangements
    of one more big hyperplane than it allows, each with its multipliers
    (:func:`~setlab.extremal.arrangements.arrangement_certificate`; with the sets asked of
    them where the entry has "sets").

    Examples
    --------
    >>> from setlab.extremal.split import prove_split_bound
    >>> plane = {k: v for k, v in enumerate([0, 0, 0, 1, 1, 2, 3, 5, 8, 12])}
    >>> record = prove_split_bound(3, 12, 15, plane, {0: 0, 1: 0, 2: 0, 3: 1})
    >>> store = Store(":memory:")
    >>> _ = store.record_bound("maxsets", 3, 12, "max", 14, {"method": "split", "record": record},
    ...                        "split")
    >>> certificate = split_certificate(store.get("maxsets", 3, 12))
    >>> certificate["theta"], certificate["program"]["big"], certificate["program"]["kind"]
    (8, 8, 'farkas')
    """
    from setlab.extremal.arrangements import arrangement_certificate  # SciPy, as below
    from setlab.extremal.farkas import record_certificate  # SciPy: only for program proofs
    from setlab.extremal.splitmax import orbit_part, part_orbits

    record = (result.proof or {}).get("record") or {}
    program = record_certificate(record.get("program") or {})
    entries = record.get("middle") or []
    middle = [record_certificate(entry) for entry in entries]
    if program is None or None in middle:
        return None
    properties, cards = int(record.get("properties", 0)), int(record.get("cards", 0))
    arrangements = []
    wanted = {(int(e["count"][1]) + 1, int(e["count"][0]), int(e["ceiling"]), int(e["meeting"]),
               e.get("sets")) for e in entries if e.get("count")}  # fmt: skip
    for *key, sets in sorted(wanted, key=lambda key: (*key[:4], key[4] or 0)):
        found = arrangement_certificate(properties, *key, cards, sets,  # (k, low, high, meeting)
                                        complement=sets is not None)  # fmt: skip
        if found is None:
            return None
        arrangements.append(found)
    counts = ("meeting", "sets")
    middle = [{**found, **{name: entry[name] for name in counts if name in entry}}
              if entry.get("count") else found
              for found, entry in zip(middle, entries, strict=True)]  # fmt: skip
    pencil = record.get("pencil") or {}
    dimension = properties - 2
    split_maxima = [
        {
            "split": [a, b, c],
            "bound": v,
            "orbits": part_orbits(dimension, orbit_part(dimension, (a, b, c))),
        }
        for a, b, c, v in record.get("split_maxima") or []
    ]
    return {
        "theta": record["theta"],
        "program": program,
        "pencil": {
            "theta": pencil.get("theta", record["theta"]),
            "largest": pencil.get("largest"),
            **({"multipliers": pencil["multipliers"]} if pencil.get("multipliers") else {}),
        },
        "middle": middle,
        "split_maxima": split_maxima,
        **({"arrangements": arrangements} if arrangements else {}),
    }


SLOW_METHODS = (*PROGRAM_METHODS, "split")
"""Proof methods whose certificates are built from their records, seconds to minutes each:
:func:`write_bundle` builds them side by side."""


def slow_certificate(result: Result) -> dict[str, Any]:
    """``{"certificate": ...}``: :func:`program_certificate` or :func:`split_certificate` of a
    value proven by one of :data:`SLOW_METHODS` (top level, for a pool's workers). A record
    that holds no program has none (the checker then fails the value, "no certificate"):

    Examples
    --------
    >>> store = Store(":memory:")
    >>> proof = {"method": "bounds", "record": {}}
    >>> _ = store.record_bound("maxsets", 4, 10, "max", 12, proof, "bounds")
    >>> slow_certificate(store.get("maxsets", 4, 10))
    {'certificate': None}
    """
    if (result.proof or {}).get("method") == "split":
        return {"certificate": split_certificate(result)}
    return {"certificate": program_certificate(result)}


def value_proof(
    result: Result, store: Store, level_file: dict[str, str], built: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The ``proof`` object of a value file: method, certificate, cited values.

    ``level_file`` maps a stored level's name to its file in the bundle (filled as levels are
    met; :func:`write_bundle` writes them). ``built``: the certificate of a program or split
    proof, :func:`slow_certificate`'s ``{"certificate": ...}`` built ahead (else built here).

    Examples
    --------
    >>> store = Store(":memory:")
    >>> argument = {"method": "trivial", "argument": "all 9 cards: 12 lines"}
    >>> _ = store.record_bound("maxsets", 2, 9, "max", 12, argument, "trivial")
    >>> value_proof(store.get("maxsets", 2, 9), store, {})
    {'method': 'trivial', 'certificate': {'argument': 'all 9 cards: 12 lines'}}
    """
    proof = result.proof or {}
    method = proof.get("method")
    cites = [{"properties": p, "cards": n, "sense": s} for p, n, s in citations(result)]
    if method == "trivial":
        return {"method": "trivial", "certificate": {"argument": proof.get("argument")}}
    if method == "exhaustive":
        return {
            "method": "exhaustive",
            "certificate": {"subsets": 2 ** deck_size(result.properties)},
        }
    if method == "search":
        names = proof.get("levels")
        if names is None:
            raise SetlabError(
                f"the search record of {_name(result)} has no stored levels (recorded before "
                "levels were kept): solve it again on a fresh store"
            )
        files = []
        for name in names:
            if name not in level_file:
                level_file[name] = f"levels/{hashlib.sha256(name.encode()).hexdigest()[:20]}.json"
            files.append(level_file[name])
        certificate = {
            "threshold": proof["threshold"],
            "levels": files,
            "classes": proof["classes"],
        }
        return {"method": "search", "certificate": certificate}
    if method == "deletion":
        return {
            "method": "deletion",
            "certificate": {"previous": proof["previous"]},
            "cites": cites,
        }
    if method == "complement":
        kept = {k: proof[k] for k in ("identity", "min_bound", "max_bound") if k in proof}
        return {"method": "complement", "certificate": kept, "cites": cites}
    if method in PROGRAM_METHODS:
        record = proof.get("record") or {}
        return {
            "method": "farkas",
            "program": record.get("method"),
            "certificate": (slow_certificate(result) if built is None else built)["certificate"],
            "cites": cites,
        }
    if method == "split":
        certificate = (slow_certificate(result) if built is None else built)["certificate"]
        return {"method": "split", "certificate": certificate, "cites": cites}
    raise SetlabError(f"{_name(result)}: no bundle format for proof method {method!r}")


def write_bundle(
    store: Store,
    properties: int,
    directory: str | os.PathLike[str],
    progress: Callable[[int, int], None] | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
) -> BundleSummary:
    """Write the proof bundle of every proven M(n), m(n) of AG(P,3) in ``store`` to ``directory``.

    The values their proofs cite are written too (e.g. the (P-1)-dimensional values a slice
    program assumed), and the other proven claims of P the checker re-checks: the variants'
    largest structure-free boards and most UltraSets, the largest cap of AG(5,3) and the largest
    caps of the decks of V != 3 values. The directory is built beside the target and renamed
    into place, so an interruption leaves no half-written bundle; an existing bundle there is
    replaced, any other non-empty directory refused.

    Parameters
    ----------
    store
        The results store.
    properties
        P.
    directory
        Where the bundle goes.
    progress
        Called as ``progress(done, total)`` after each value's certificate is built or the
        value is written (the certificates of program and split proofs are built first; for
        P = 5 that takes minutes).
    workers, scheduler
        Processes building those side by side (default: :func:`~setlab.executor.default_workers`),
        or the Dask scheduler whose cluster builds them instead (default ``$SETLAB_SCHEDULER``,
        ``""`` for none), as in :func:`~setlab.executor.run_tasks`.

    Returns
    -------
    BundleSummary

    Examples
    --------
    >>> from setlab.extremal.maxsets import Solver
    >>> store = Store(":memory:")
    >>> _ = Solver(2, store).table()
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     summary = write_bundle(store, 2, Path(tmp) / "p2")
    ...     summary.values, summary.methods, (Path(tmp) / "p2" / "check.py").exists()
    (20, {'exhaustive': 20}, True)
    """
    check_properties(properties)
    started = time.perf_counter()
    target = Path(directory)
    if target.exists() and (not target.is_dir() or (
        any(target.iterdir()) and not (target / "manifest.json").exists()
    )):  # fmt: skip
        raise SetlabError(f"{target} exists and is not an empty directory or a proof bundle")
    results = _bundle_results(store, properties)
    target.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{target.name}-", dir=target.parent))
    try:
        (work / "values").mkdir()
        (work / "levels").mkdir()
        level_file: dict[str, str] = {}
        entries = []
        methods: dict[str, int] = {}
        missing = 0
        # The slow certificates first, side by side (a pool, or a Dask cluster); each reports
        # progress as it is built, the rest as they are written.
        slow = {str(i): (result,) for i, result in enumerate(results)
                if (result.proof or {}).get("method") in SLOW_METHODS}  # fmt: skip
        built = run_tasks(f"bundle-P{properties}", slow, slow_certificate,
                          workers=workers if len(slow) > 1 else 1, scheduler=scheduler,
                          description="the certificates of program and split proofs",
                          progress=None if progress is None else
                          lambda done, _: progress(done, len(results)))  # fmt: skip
        written = len(built)
        for i, result in enumerate(results):
            proof = value_proof(result, store, level_file, built.get(str(i)))
            missing += proof["certificate"] is None
            methods[proof["method"]] = methods.get(proof["method"], 0) + 1
            letter = "M" if result.sense == "max" else "m"
            file = f"values/{letter}{result.properties}-{result.cards:03d}.json"
            value = {
                "properties": result.properties,
                "cards": result.cards,
                "sense": result.sense,
                "value": result.value,
                "witness": [list(vector_of(c, result.properties)) for c in result.witness or []],
                "proof": proof,
                "setlab": {"bound_method": result.bound_method,
                           "witness_method": result.witness_method},
            }  # fmt: skip
            (work / file).write_text(json.dumps(value) + "\n")
            entries.append({"file": file, "properties": result.properties, "cards": result.cards,
                            "sense": result.sense, "value": result.value,
                            "method": proof["method"]})  # fmt: skip
            if progress is not None and str(i) not in built:
                written += 1
                progress(written, len(results))
        for name, file in level_file.items():
            representatives = store.level(name)
            if representatives is None:
                raise SetlabError(f"the store lost the search level {name}")
            cards = len(representatives[0]) if representatives else None
            level = {"name": name, "cards": cards, "representatives": representatives}
            (work / file).write_text(json.dumps(level, separators=(",", ":")) + "\n")
        variants = _write_variants(work, store, properties)
        written = {(e["properties"], e["cards"], e["sense"]) for e in entries}
        caps = _write_caps(work, store, properties, written)
        if not (entries or variants or caps):
            raise SetlabError(f"the store holds no proven value for P = {properties}")
        _write_manifest(work, properties, entries, variants, caps)
        checker = resources.files("setlab") / "proofcheck"
        for source in checker.iterdir():
            if source.name.endswith(".py"):
                (work / source.name).write_text(source.read_text(encoding="utf-8"))
        size = sum(f.stat().st_size for f in work.rglob("*") if f.is_file())
        if target.exists():
            shutil.rmtree(target)
        work.rename(target)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    return BundleSummary(target, len(entries), dict(sorted(methods.items())), len(level_file),
                         missing, size, time.perf_counter() - started, len(variants),
                         len(caps))  # fmt: skip


def _bundle_results(store: Store, properties: int) -> list[Result]:
    """The proven values of P and, transitively, every value their proofs cite."""
    chosen: dict[Key, Result] = {}
    pending: list[Key] = [
        (r.properties, r.cards, r.sense)
        for sense in ("max", "min")
        for r in store.results(PROBLEMS[sense], properties)
        if r.proven and r.witness is not None
    ]
    while pending:
        key = pending.pop()
        if key in chosen:
            continue
        result = store.get(PROBLEMS[key[2]], key[0], key[1])
        if result is None or not result.proven or result.witness is None:
            continue  # the checker reports the citation of a value the bundle does not hold
        chosen[key] = result
        pending.extend(citations(result))
    return [chosen[k] for k in sorted(chosen, key=lambda k: (k[0], k[2], k[1]))]


def _write_variants(work: Path, store: Store, properties: int) -> list[dict[str, Any]]:
    """The variants' claims of P proven in ``store``, one file each: the largest structure-free
    boards (variant, P, size, witness) and the most UltraSets among n cards (with the classes
    of k-card collections their proofs rest on, in ``variants/`` too)."""
    from setlab.extremal.sidon import CERTIFIED_FREE
    from setlab.extremal.sidon import PROBLEM as FREE
    from setlab.extremal.ultrasets import PROBLEM as MOST

    (work / "variants").mkdir()
    entries = []
    for result in store.results(FREE, properties):
        variant = result.params.get("variant")
        if not result.proven or result.witness is None or variant is None:
            continue
        if properties > CERTIFIED_FREE.get(variant, 0):
            continue  # beyond what the checker's own search re-proves in minutes
        file = f"variants/{variant}-free-P{properties}.json"
        claim = {"kind": "free", "variant": variant, "properties": properties,
                 "value": result.value, "witness": sorted(result.witness),
                 "setlab": {"method": result.bound_method}}  # fmt: skip
        (work / file).write_text(json.dumps(claim) + "\n")
        entries.append({"file": file, "kind": "free", "variant": variant,
                        "properties": properties, "value": result.value})  # fmt: skip
    most = [r for r in store.results(MOST, properties)
            if r.params.get("variant") == "ultra" and r.proven and r.witness is not None
            and properties <= CHECKED_MOST]  # fmt: skip
    size = deck_size(properties)
    proofs = {r.cards: _most_proof(r, size) for r in most}
    needed = {proof["classes"] for proof in proofs.values() if "classes" in proof}
    for k, classes in _classes(properties, needed).items():
        level = {"properties": properties, "cards": k, "representatives": classes}
        (work / _classes_file(properties, k)).write_text(json.dumps(level) + "\n")
    for result in most:
        proof = proofs[result.cards]
        if "classes" in proof:
            proof["classes"] = _classes_file(properties, proof["classes"])
        file = f"variants/ultra-most-P{properties}-n{result.cards:03d}.json"
        claim = {"kind": "most", "variant": "ultra", "properties": properties,
                 "cards": result.cards, "value": result.value,
                 "witness": sorted(result.witness), "proof": proof,
                 "setlab": {"method": result.bound_method}}  # fmt: skip
        (work / file).write_text(json.dumps(claim) + "\n")
        entries.append({"file": file, "kind": "most", "variant": "ultra",
                        "properties": properties, "cards": result.cards,
                        "value": result.value})  # fmt: skip
    return entries


def _write_caps(work: Path, store: Store, properties: int,
                values_written: set[tuple[int, int, str]]) -> list[dict[str, Any]]:  # fmt: skip
    """The largest caps of P that ``store`` holds proven, one claim each: of AG(P,3) by the
    pencil chain (P = 5), or, for the exhaustive generation of P <= 4, which has no certificate
    of its own, by the minimum m(s + 1) >= 1 when the bundle holds it (``values_written``: the
    (P, n, sense) of its values, cited ones of P - 1 among them); and of every deck of V != 3
    values (``valued_caps_check.py`` searches again)."""
    from setlab.extremal.caps.deck import card_words
    from setlab.extremal.caps.largest import PENCIL_METHOD

    entries = []
    for stored in store.results("maxcap", properties):
        values = int(stored.params.get("values", 3))
        proof = stored.proof or {}
        if not stored.proven or stored.witness is None:
            continue
        pencils = proof.get("method") == PENCIL_METHOD
        minimum = (properties, stored.value + 1, "min")
        if values == 3 and not pencils and minimum not in values_written:
            continue  # no certificate in this bundle: the table of minima was not solved
        (work / "caps").mkdir(exist_ok=True)
        words = card_words(sorted(stored.witness), properties, values)
        if values == 3:
            method = PENCIL_METHOD if pencils else MINIMUM_CAP_METHOD
            steps = {"steps": proof["steps"]} if pencils else {"cards": stored.value + 1}
            file = f"caps/largest-P{properties}.json"
            claim = {"kind": "largest cap", "properties": properties, "value": stored.value,
                     "witness": words, "proof": {"method": method, **steps}}
        else:
            file, method = f"caps/largest-P{properties}-V{values}.json", VALUED_CAP_METHOD
            claim = {"kind": "valued cap", "properties": properties, "values": values,
                     "value": stored.value, "witness": words}  # fmt: skip
        (work / file).write_text(json.dumps(claim) + "\n")
        entries.append({"file": file, "properties": properties, "values": values,
                        "value": stored.value, "method": method})  # fmt: skip
    return entries


def _most_proof(result: Result, size: int) -> dict[str, Any]:
    """The bundle's proof of a proven most-UltraSets value, from its store method."""
    method = result.bound_method or ""
    if method == "exhaustive classes":
        return {"method": "classes", "classes": result.cards}
    if method == "exhaustive classes of the complement":
        return {"method": "complement classes", "classes": size - result.cards}
    if method.startswith("pair-sum bound"):
        return {"method": "pair sums"}
    if method.startswith("deletion chain") and result.proof is not None:
        return {"method": "deletion", "from": result.proof["from"]}
    return {"method": method}  # the checker fails what it does not know


def _classes(properties: int, ks: set[int]) -> dict[int, list[list[int]]]:
    """Every AGL(P,3)-class of k-card collections, one representative each, for k in ``ks``."""
    from setlab.extremal.search import generate_levels

    if not ks:
        return {}
    out = {0: [[]]} if 0 in ks else {}
    for level in generate_levels(properties, "max", [0] * (max(ks) + 1), workers=1):
        if level.k in ks:
            out[level.k] = [cards for cards, _ in level.classes]
    return out


def _classes_file(properties: int, k: int) -> str:
    return f"variants/classes-P{properties}-k{k:03d}.json"


def _write_manifest(work: Path, properties: int, entries: list[dict[str, Any]],
                    variants: list[dict[str, Any]],
                    caps: list[dict[str, Any]]) -> None:  # fmt: skip
    from setlab import __version__

    manifest = {
        "format": BUNDLE_FORMAT,
        "properties": properties,
        "setlab": __version__,
        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "cards": "a card is its P digits 0, 1, 2 (0..V-1 in a claim of a deck of V values); in "
        "level files a card index is those digits read as a base-3 number, first digit most "
        "significant",
        "check": "python check.py DIR",
        "values": entries,
        "variants": variants,
        "caps": caps,
    }
    (work / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")


def _name(result: Result) -> str:
    letter = "M" if result.sense == "max" else "m"
    return f"{letter}_{result.properties}({result.cards})"
