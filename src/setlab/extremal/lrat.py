"""From a SAT solver's refutation to one a short checker can follow: DRUP to LRAT.

A CDCL solver that finds a CNF unsatisfiable logs each clause it learns; every learnt clause C is
*RUP* (reverse unit propagation): assuming every literal of C false, unit propagation over the
clauses so far reaches a conflict. Checking that needs a propagation engine. LRAT (Cruz-Filipe,
Heule, Hunt, Kaufmann, Schneider-Kamp 2017) adds to each clause its *hints*: the clauses that
become unit one after the other under the negated clause, and the one that then becomes false.
A checker of LRAT only walks the hints, so it is a dozen lines and fast in plain Python.

:func:`drup_to_lrat` replays the solver's log forward with two watched literals, keeps the
top-level assignments (with their reasons) between clauses, and reads each clause's hints off
its conflict by walking the trail backwards (the reasons of the literals the conflict depends
on, in trail order). Only the clauses the empty clause needs, followed back through the hints,
are written. Deletions only prune the propagation; the LRAT deletes nothing (a clause that is
RUP over fewer clauses is RUP over more), so a hint never names a deleted clause.

References
----------
L. Cruz-Filipe, M. J. H. Heule, W. A. Hunt Jr., M. Kaufmann, P. Schneider-Kamp, "Efficient
certified RAT verification", CADE 2017.
"""

from __future__ import annotations

from collections.abc import Sequence

import numba as nb
import numpy as np

from setlab.errors import SetlabError

__all__ = ["drup_to_lrat"]


@nb.njit(cache=True)
def _assign(lit, reason, value, trail, n_trail, reason_of):  # pragma: no cover - numba
    """Make ``lit`` true with ``reason`` (a clause id; 0 for an assumption)."""
    value[lit] = 1
    value[lit ^ 1] = -1
    trail[n_trail] = lit
    reason_of[lit >> 1] = reason
    return n_trail + 1


@nb.njit(cache=True)
def _propagate(lits, start, length, deleted, whead, wnext, value, trail, n_trail, qhead, reason_of):  # pragma: no cover - numba  # noqa: E501
    """Unit propagation of trail[qhead:]; returns (trail length, conflicting clause or 0).

    Invariant: each live clause of two or more literals watches lits[start], lits[start + 1];
    its two watch entries (2c and 2c + 1, in the linked lists whead/wnext of the watched
    literals) name the clause, not a position. A deleted clause leaves the lists lazily.
    """
    while qhead < n_trail:
        false_lit = trail[qhead] ^ 1
        qhead += 1
        prev = -1
        e = whead[false_lit]
        while e != -1:
            nxt = wnext[e]
            c = e >> 1
            s = start[c]
            if deleted[c]:
                if prev == -1:
                    whead[false_lit] = nxt
                else:
                    wnext[prev] = nxt
                e = nxt
                continue
            if lits[s] == false_lit:  # the false watch goes to position 1
                lits[s] = lits[s + 1]
                lits[s + 1] = false_lit
            first = lits[s]
            if value[first] == 1:  # satisfied: keep watching
                prev = e
                e = nxt
                continue
            moved = False
            for j in range(2, length[c]):  # a new watch among the literals not false
                q = lits[s + j]
                if value[q] != -1:
                    lits[s + 1] = q
                    lits[s + j] = false_lit
                    if prev == -1:
                        whead[false_lit] = nxt
                    else:
                        wnext[prev] = nxt
                    wnext[e] = whead[q]
                    whead[q] = e
                    moved = True
                    break
            if moved:
                e = nxt
                continue
            if value[first] == -1:
                return n_trail, c
            n_trail = _assign(first, c, value, trail, n_trail, reason_of)
            prev = e
            e = nxt
    return n_trail, 0


@nb.njit(cache=True)
def _hints(conflict, lits, start, length, trail, n_trail, reason_of, mark, out, n_out):  # pragma: no cover - numba  # noqa: E501
    """Append the hints of a conflict to out[n_out:]: walking the trail backwards, the reason
    of every literal the conflict depends on; reversed into trail order, then the conflict."""
    s = start[conflict]
    for j in range(length[conflict]):
        mark[lits[s + j] >> 1] = 1
    first = n_out
    for i in range(n_trail - 1, -1, -1):
        v = trail[i] >> 1
        if mark[v]:
            mark[v] = 0
            r = reason_of[v]
            if r > 0 and r != conflict:
                out[n_out] = r
                n_out += 1
                rs = start[r]
                for j in range(length[r]):
                    w = lits[rs + j] >> 1
                    if w != v:
                        mark[w] = 1
    a, b = first, n_out - 1
    while a < b:
        out[a], out[b] = out[b], out[a]
        a += 1
        b -= 1
    out[n_out] = conflict
    return n_out + 1


@nb.njit(cache=True)
def _grow(a, need):  # pragma: no cover - numba
    if need <= a.size:
        return a
    b = np.empty(max(need, 2 * a.size), a.dtype)
    b[: a.size] = a
    return b


@nb.njit(cache=True)
def _attach(c, lits, start, length, whead, wnext, value, trail, n_trail, reason_of):  # pragma: no cover - numba  # noqa: E501
    """Add clause c at the top level. Its literals not false go first; it watches the first
    two. Returns (trail length, 0 attached, 1 its one open literal assigned, 2 all false)."""
    s = start[c]
    n = length[c]
    k = 0
    for j in range(n):
        if value[lits[s + j]] != -1:
            lits[s + k], lits[s + j] = lits[s + j], lits[s + k]
            k += 1
    if k == 0:
        return n_trail, 2
    if n >= 2:
        for slot in range(2):
            e = 2 * c + slot
            q = lits[s + slot]
            wnext[e] = whead[q]
            whead[q] = e
    if k == 1 and value[lits[s]] == 0:
        return _assign(lits[s], c, value, trail, n_trail, reason_of), 1
    return n_trail, 0


@nb.njit(cache=True)
def _replay(n_vars, n_original, lits, start, length, steps):  # pragma: no cover - numba
    """Forward pass over the log. ``steps``: c > 0 adds clause c, -c deletes it. Returns the
    hints (flat), their start and count per clause id (the empty clause's at index 0), and a
    status: 1 refuted, 0 the log ends without the empty clause, -c clause c is not RUP."""
    n_clauses = length.size
    value = np.zeros(2 * n_vars + 2, np.int8)
    trail = np.empty(n_vars + 1, np.int64)
    reason_of = np.zeros(n_vars + 1, np.int64)
    mark = np.zeros(n_vars + 1, np.int8)
    whead = np.full(2 * n_vars + 2, -1, np.int64)
    wnext = np.full(2 * n_clauses, -1, np.int64)
    deleted = np.zeros(n_clauses, np.bool_)
    hints = np.empty(1 << 16, np.int64)
    hstart = np.zeros(n_clauses, np.int64)
    hcount = np.zeros(n_clauses, np.int64)
    saved_var = np.empty(n_vars + 1, np.int64)
    saved_reason = np.empty(n_vars + 1, np.int64)
    n_h = 0
    n_trail = 0
    top_conflict = 0
    for step in np.concatenate((np.arange(1, n_original + 1), steps)):
        if 0 < step <= n_original:  # a clause of the CNF
            top = n_trail
            n_trail, status = _attach(step, lits, start, length, whead, wnext, value, trail,
                                      n_trail, reason_of)  # fmt: skip
            top_conflict = step if status == 2 else 0
            if not top_conflict:
                n_trail, top_conflict = _propagate(
                    lits, start, length, deleted, whead, wnext, value, trail, n_trail, top,
                    reason_of,
                )
            if top_conflict:
                break
            continue
        if step < 0:
            deleted[-step] = True  # top-level literals keep their reasons: LRAT deletes nothing
            continue
        c = step
        top = n_trail
        s = start[c]
        # RUP: every literal of c false. One already true at the top conflicts with its reason.
        # One already false at the top is assumed false, as the LRAT checker will have it: its
        # reason must not be a hint (the checker would find that clause satisfied), so it is
        # set aside until the hints are read.
        conflict = 0
        n_saved = 0
        for j in range(length[c]):
            q = lits[s + j]
            if value[q] == 1:
                conflict = reason_of[q >> 1]
                break
            if value[q] == 0:
                n_trail = _assign(q ^ 1, 0, value, trail, n_trail, reason_of)
            elif reason_of[q >> 1] > 0:
                saved_var[n_saved] = q >> 1
                saved_reason[n_saved] = reason_of[q >> 1]
                reason_of[q >> 1] = 0
                n_saved += 1
        if conflict == 0:
            n_trail, conflict = _propagate(lits, start, length, deleted, whead, wnext, value,
                                           trail, n_trail, top, reason_of)  # fmt: skip
        if conflict == 0:
            return hints[:n_h], hstart, hcount, -c
        slot = c if length[c] else 0
        hints = _grow(hints, n_h + n_trail + 2)
        hstart[slot] = n_h
        n_end = _hints(conflict, lits, start, length, trail, n_trail, reason_of, mark, hints, n_h)
        hcount[slot] = n_end - n_h
        n_h = n_end
        for i in range(n_saved):
            reason_of[saved_var[i]] = saved_reason[i]
        for i in range(top, n_trail):  # back to the top level
            q = trail[i]
            value[q] = 0
            value[q ^ 1] = 0
            reason_of[q >> 1] = 0
        n_trail = top
        if length[c] == 0:
            return hints[:n_h], hstart, hcount, 1
        n_trail, status = _attach(c, lits, start, length, whead, wnext, value, trail, n_trail,
                                  reason_of)  # fmt: skip
        top_conflict = c if status == 2 else 0
        if not top_conflict:
            n_trail, top_conflict = _propagate(lits, start, length, deleted, whead, wnext, value,
                                               trail, n_trail, top, reason_of)  # fmt: skip
        if top_conflict:
            break
    if not top_conflict:
        return hints[:n_h], hstart, hcount, 0
    # The top level itself conflicts: the empty clause follows from the trail's reasons.
    hints = _grow(hints, n_h + n_trail + 2)
    hstart[0] = n_h
    n_end = _hints(top_conflict, lits, start, length, trail, n_trail, reason_of, mark, hints, n_h)
    hcount[0] = n_end - n_h
    return hints[:n_end], hstart, hcount, 1


def _layout(
    clauses: Sequence[Sequence[int]], proof: Sequence[str]
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """One array of every clause's literals (2v - 2 for v, 2v - 1 for -v; clause ids from 1:
    the CNF's, then the log's additions), their starts and lengths, and the steps."""
    ids: dict[tuple[int, ...], list[int]] = {}
    flat: list[int] = []
    length = [0]  # id 0 is no clause
    for c in clauses:
        flat += c
        length.append(len(c))
        ids.setdefault(tuple(sorted(c)), []).append(len(length) - 1)
    steps: list[int] = []
    for line in proof:
        words = line.split()
        if words[0] == "d":
            same = ids.get(tuple(sorted(int(x) for x in words[1:-1])))
            if same:
                steps.append(-same.pop())
            continue
        c = [int(x) for x in words[:-1]]
        flat += c
        length.append(len(c))
        ids.setdefault(tuple(sorted(c)), []).append(len(length) - 1)
        steps.append(len(length) - 1)
    lengths = np.array(length, np.int64)
    starts = np.zeros(len(length), np.int64)
    starts[1:] = np.cumsum(lengths)[:-1]
    a = np.array(flat, np.int64)
    return 2 * (np.abs(a) - 1) + (a < 0), starts, lengths, np.array(steps, np.int64)


def drup_to_lrat(n_vars: int, clauses: Sequence[Sequence[int]], proof: Sequence[str]) -> list[str]:
    """The LRAT lines of a DRUP refutation: ``id literals 0 hints 0``, the empty clause last.

    Parameters
    ----------
    n_vars
        Variables of the CNF (1..n_vars).
    clauses
        The CNF, clause i + 1 being ``clauses[i]`` (DIMACS literals).
    proof
        The solver's log, one clause per line as DIMACS text (``"1 -2 0"``), deletions prefixed
        by ``d``; as written by CaDiCaL and returned by PySAT's ``get_proof``.

    Returns
    -------
    list of str
        Only the clauses the empty clause needs; ids are the log's (CNF clauses first).

    Raises
    ------
    SetlabError
        When a clause of the log is not RUP, the log derives no empty clause, or a literal
        names a variable beyond ``n_vars``.

    Examples
    --------
    >>> cnf = [[1, 2], [-1, 2], [1, -2], [-1, -2]]
    >>> drup_to_lrat(2, cnf, ["2 0", "0"])  # 2: clause 2 makes -1 unit, clause 1 conflicts
    ['5 2 0 2 1 0', '7 0 5 4 3 0']
    """
    m = len(clauses)
    lits, starts, lengths, steps = _layout(clauses, proof)
    if lits.size and lits.max() >= 2 * n_vars:  # the replay's arrays stop at n_vars
        raise SetlabError(f"the CNF or its refutation names a variable beyond {n_vars}")
    text = np.where(lits & 1, -(lits // 2 + 1), lits // 2 + 1)  # before the replay reorders
    hints, hstart, hcount, status = _replay(n_vars, m, lits.copy(), starts, lengths, steps)
    if status < 0:
        raise SetlabError(f"clause {-status} of the refutation is not RUP")
    if status == 0:
        raise SetlabError("the refutation derives no empty clause")

    def hint_list(c: int) -> np.ndarray:
        return hints[hstart[c] : hstart[c] + hcount[c]]

    needed = np.zeros(len(lengths), dtype=bool)
    needed[hint_list(0)] = True
    for c in range(len(lengths) - 1, m, -1):  # hints name earlier clauses only
        if needed[c]:
            needed[hint_list(c)] = True
    lines = []
    for c in np.flatnonzero(needed[m + 1 :]) + m + 1:
        if lengths[c]:
            literals = " ".join(map(str, text[starts[c] : starts[c] + lengths[c]].tolist()))
            lines.append(f"{c} {literals} 0 {' '.join(map(str, hint_list(c).tolist()))} 0")
    lines.append(f"{len(lengths)} 0 {' '.join(map(str, hint_list(0).tolist()))} 0")
    return lines
