"""matador: the reference implementation of the Matador family of domino games."""

__version__ = "0.1.0"
