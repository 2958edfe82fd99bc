"""Extremal problems on AG(P,3): the most and fewest sets among n cards, caps, and their proofs.

Search engines (isomorph-free generation up to AGL(P,3)), exhaustive reference solvers, bounds and
heuristics live in one module each; results and their certificates go to :mod:`setlab.store`.
"""
