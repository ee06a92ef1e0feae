"""The ``matador`` command line: the only layer of the package that prints.

Subcommands (one module each): ``replay`` (the replay contract of RULES.md
section 8), ``deal`` (a fresh record) and ``simulate`` (random playouts).
"""
