"""The rules engine: pure Python, standard library only (no Django).

Functions take values in and give values out; time and randomness are arguments.
"""
