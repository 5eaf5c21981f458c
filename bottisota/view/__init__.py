"""The table view: everything that draws (pygame lives only in this package).

Importing it keeps pygame's greeting off the console of the command-line tools.
"""
import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
