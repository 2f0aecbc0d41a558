"""What the app shows of a world beside answers: an entity's card read out (card_text.py), its
relations map (relmap.py) drawn as a picture (pictures.py), and the presence chart (presence.py).
"""
