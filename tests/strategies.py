"""The hypothesis strategies the tests share: every probability (0 and 1
always among the examples), door shares, room shares and seeds."""

from __future__ import annotations

from hypothesis import strategies as st

probabilities = st.one_of(st.sampled_from([0.0, 1.0, 0.5]), st.floats(0.0, 1.0))
door_probabilities = st.one_of(st.sampled_from([1.0, 0.5, 0.05, 0.3]), st.floats(0.001, 1.0))
room_shares = st.one_of(st.sampled_from([0.0, 0.05, 0.3, 0.99]), st.floats(0.0, 0.999))
seeds = st.integers(0, 2**64 - 1)


def plane_knobs() -> st.SearchStrategy[dict[str, object]]:
    """The plane's knobs, by ``PlaneParams.names()`` (a new knob is drawn
    without editing the tests that use this): flags both ways, probabilities
    as ``probabilities``."""
    from eller_stream._plane_params import PlaneParams

    kinds: dict[type, st.SearchStrategy[object]] = {bool: st.booleans(), float: probabilities}
    return st.fixed_dictionaries({name: kinds[PlaneParams.kind(name)] for name in PlaneParams.names()})
