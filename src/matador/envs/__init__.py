"""Matador for AI researchers: Gymnasium, PettingZoo and OpenSpiel adapters (encoding only).

Needs the ``rl`` extra (``pip install 'matador[rl]'``). Importing this
package registers the Gymnasium environment ``matador/Matador-v0``:

* :mod:`matador.envs.gym_env` -- ``gymnasium.make("matador/Matador-v0")``;
* :mod:`matador.envs.matador_v0` -- the PettingZoo AEC environment;
* :mod:`matador.envs.openspiel` -- ``python_matador`` for OpenSpiel (import
  it to register the game with ``pyspiel``);
* :mod:`matador.envs.encoding` -- action ids, observation tensor and mask,
  shared by all three and by the ``policy:FILE`` bot (:mod:`matador.envs.policy`).

The rules are the core's: these modules only encode (docs/research.md).
"""

from matador.envs import gym_env, matador_v0
from matador.envs.encoding import NUM_ACTIONS, encode_view, observation_size
from matador.envs.gym_env import MatadorEnv

__all__ = ["NUM_ACTIONS", "MatadorEnv", "encode_view", "gym_env", "matador_v0",
           "observation_size"]
