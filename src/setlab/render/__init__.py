"""Pictures of SET: cards and boards as the players know them, configurations as the geometers do.

Every function returns a :class:`Drawing` (SVG text of known size) that shows itself in Jupyter
and saves as SVG or PNG. Cards are points of F_3^P (:mod:`setlab.cards`), sets are lines of
AG(P,3); a board highlights sets by outline colour, a configuration draws them as curves.
"""

from setlab.render.board import board_svg, set_colours, sets_svg
from setlab.render.cards import card_svg
from setlab.render.drawing import Drawing
from setlab.render.grid import configuration_svg, point_position

__all__ = [
    "Drawing",
    "board_svg",
    "card_svg",
    "configuration_svg",
    "point_position",
    "set_colours",
    "sets_svg",
]
