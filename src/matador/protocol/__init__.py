"""MEP, the Matador Engine Protocol (docs/protocol.md): both sides of it.

* :mod:`matador.protocol.engine` serves one of our bots to any host
  (``matador engine BOT``);
* :mod:`matador.protocol.host` drives any engine process from Python
  (:class:`EngineProcess`);
* :class:`matador.table.players.EnginePlayer` seats an engine at any table
  (``engine:COMMAND`` specs).
"""
