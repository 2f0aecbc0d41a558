"""The main screen's widgets, one small module each."""
