"""Extremal problems on AG(P,3): maximum and minimum numbers of sets, caps, heuristics."""
