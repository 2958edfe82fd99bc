"""Pictures of SET: cards and boards as the players know them, configurations as the geometers do.

Every function returns a :class:`Drawing` (SVG text of known size) that shows itself in Jupyter
and saves as SVG, PNG or PDF. Cards are points of F_3^P (:mod:`setlab.cards`), sets are lines of
AG(P,3); a board highlights sets by outline colour, a configuration draws them as curves, and
every picture of points of AG(P,3) places them by the one layout of :mod:`setlab.render.layout`.
"""

from setlab.render.board import board_svg, set_colours, sets_svg
from setlab.render.caps import blocking_graph_svg, cap_and_completion_svg, deck_svg
from setlab.render.cards import card_svg, valued_card_svg
from setlab.render.drawing import Drawing
from setlab.render.grid import configuration_svg
from setlab.render.layout import grid_cell, layout_axes, point_position

__all__ = [
    "Drawing",
    "blocking_graph_svg",
    "board_svg",
    "cap_and_completion_svg",
    "card_svg",
    "configuration_svg",
    "deck_svg",
    "grid_cell",
    "layout_axes",
    "point_position",
    "set_colours",
    "sets_svg",
    "valued_card_svg",
]
