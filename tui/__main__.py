"""`python -m tui` is the same as `lore`."""

from tui.cli import main

main()
