"""The world samplers' cache: one sampler per view while it is in use, and bounded memory.

A sampler holds its view, so a cache keyed by the view that keeps samplers for as
long as their views live keeps them forever. That leaked: a process playing hand
after hand (``benchmarks/value_net.py data``, a server's bots) grew by about half a
megabyte a hand, to 4.6 GB per worker in a 16,000-hand data run under the six rules.
"""

from __future__ import annotations

import gc
import random
import weakref

from matador.core.rules import Rules
from matador.core.sampling import SAMPLERS_KEPT, flat_worlds, sampler_for
from matador.core.state import HandState
from matador.core.view import PlayerView
from matador.players import make_bot


def _views(count: int, seed: int = 3) -> list[PlayerView]:
    """Views of ``count`` new two-player classic hands."""
    rng = random.Random(seed)
    rules = Rules.from_preset("classic")
    out = []
    for _ in range(count):
        state = HandState.new(rules, 2, rng)
        out.append(PlayerView.of(state, state.to_move))
    return out


def test_one_sampler_per_view_while_in_use() -> None:
    view, other = _views(2)
    first = sampler_for(view)
    assert sampler_for(view) is first
    assert sampler_for(other) is not first
    assert sampler_for(view) is first  # still among the last few


def test_a_view_searched_long_ago_is_rebuilt() -> None:
    view, *others = _views(SAMPLERS_KEPT + 1)
    first = sampler_for(view)
    for v in others:
        sampler_for(v)
    assert sampler_for(view) is not first  # evicted, then counted again
    again = sampler_for(view).sample(random.Random(1))  # the same counts: the same world
    assert again.hands == first.sample(random.Random(1)).hands
    assert again.boneyard == first.sample(random.Random(1)).boneyard


def test_views_no_longer_used_are_freed() -> None:
    views = _views(3 * SAMPLERS_KEPT)
    refs = [weakref.ref(v) for v in views]
    for v in views:
        flat_worlds(v)  # the flat tables too, which the kernel's tables are keyed by
    del views, v
    gc.collect()
    alive = sum(r() is not None for r in refs)
    assert alive <= SAMPLERS_KEPT


def test_a_bot_playing_many_hands_keeps_few_views() -> None:
    """The searches' views die with the decisions (``pimc`` and ``sage`` use the cache)."""
    rules = Rules.from_preset("classic")
    bots = [make_bot("sage:20it"), make_bot("pimc:20it")]
    refs: list[weakref.ref[PlayerView]] = []
    for hand in range(6):
        rng = random.Random(hand)
        state = HandState.new(rules, 2, rng)
        while not state.is_over:
            view = PlayerView.of(state, state.to_move)
            refs.append(weakref.ref(view))
            state.play(bots[state.to_move].choose(view, rng))
    del view
    gc.collect()
    assert len(refs) > 3 * SAMPLERS_KEPT
    assert sum(r() is not None for r in refs) <= SAMPLERS_KEPT
