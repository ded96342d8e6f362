"""The dice service: notation, fair rolls from a committed seed, physical entry, and a verifier anyone can run."""

from .fair import TableDice, check_physical, commitment, new_seed, roll_with, shuffled_order, uniform
from .notation import Dice, DiceError, DiceGroup, Roll, parse
from .verify import Check, Report, verify

__all__ = ["Dice", "DiceError", "DiceGroup", "Roll", "parse", "TableDice", "check_physical", "commitment",
           "new_seed", "roll_with", "shuffled_order", "uniform", "Check", "Report", "verify"]
