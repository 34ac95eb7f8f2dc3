"""Okabe-Ito colours: distinguishable with every common colour-vision deficiency.

Every chart curator draws (the gate's reliability PNG, the HTML report) takes its colours
from here, so one meaning keeps one colour everywhere.
"""

BLACK = "#000000"
ORANGE = "#E69F00"
SKY_BLUE = "#56B4E9"
BLUISH_GREEN = "#009E73"
YELLOW = "#F0E442"
BLUE = "#0072B2"
VERMILLION = "#D55E00"
REDDISH_PURPLE = "#CC79A7"
GREY = "#999999"

# For categorical series (mutation kinds, ...), in this order; yellow last: it is faint on white.
SERIES = (BLUE, ORANGE, BLUISH_GREEN, VERMILLION, SKY_BLUE, REDDISH_PURPLE, BLACK, YELLOW)

ACCURACY = BLUE  # observed accuracy
CONFIDENCE = VERMILLION  # what the system said
COUNT = GREY  # how many items a bin or bar holds
