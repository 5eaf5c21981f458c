"""Bottisota Referee: referees the tabletop bot-battle game Bottisota."""
__version__ = "0.1.0"
