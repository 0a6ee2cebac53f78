"""A run taken a stretch at a time, and models drafted in code."""

import numpy as np
import looplab


def test_stretches_follow_the_whole_run(examples):
    model = looplab.load(examples / "four-bar.json")
    whole = looplab.simulate(model, t_end=1.0, rtol=1e-11, atol=1e-13)
    session = looplab.Session(model, rtol=1e-11, atol=1e-13)
    previous_end = session.t
    for k in range(1, 11):
        stretch = session.advance(0.1 * k)
        assert stretch.ok and stretch.t[0] == previous_end and stretch.t[-1] == session.t
        previous_end = session.t
    assert abs(session.t - 1.0) < 1e-15
    # The integrator restarts at each stretch: the two agree to the tolerance, not the bit;
    # the crank's angle goes on counting turns across the stretches.
    angle = whole.columns.index("A.angle")
    assert abs(stretch.data[-1, angle] - whole.data[-1, angle]) < 1e-8


def small_pendulum(theta0=0.01, length=1.0, g=9.81):
    """A bob of 1 kg (inertia 1e-3 kg m^2 about its centre) on a massless arm of
    `length`, released from rest at theta0 from the downward vertical."""
    draft = looplab.ModelDraft("small pendulum", gravity=[0, -g, 0])
    draft.body(name="bob", mass=1.0, inertia=[1e-3] * 3,
               position=[length * np.sin(theta0), -length * np.cos(theta0), 0])
    draft.joint(name="pivot", type="revolute", body1="ground", body2="bob", point=[0, 0, 0], axis=[0, 0, 1])
    return draft.build()


def period(run):
    """The mean time between upward zero crossings of the pivot's angle (linear
    interpolation between output times)."""
    t, a = run.t, run["pivot.angle"]
    a = a - 0.5 * (a.max() + a.min())  # the angle is counted from the initial pose
    k = np.nonzero((a[:-1] < 0) & (a[1:] >= 0))[0]
    crossings = t[k] - a[k] * (t[k + 1] - t[k]) / (a[k + 1] - a[k])
    return np.mean(np.diff(crossings))


def test_a_changed_number_takes_effect_in_the_next_stretch():
    # Small swings: T = 2 pi sqrt(I_pivot / (m g L)) (1 + theta0^2 / 16 + ...), here
    # I_pivot = 1e-3 + 1 = 1.001 kg m^2; quadrupled gravity halves the period.
    session = looplab.Session(small_pendulum(), rtol=1e-11, atol=1e-13, output_step=1e-3)
    first = session.advance(10.0)
    expected = 2 * np.pi * np.sqrt(1.001 / 9.81) * (1 + 0.01**2 / 16)
    assert abs(period(first) / expected - 1) < 1e-5
    session.set_value("/gravity/1", -4 * 9.81)
    second = session.advance(20.0)
    assert second.ok and second.t[0] == first.t[-1]
    assert abs(period(second) / (expected / 2) - 1) < 1e-5
    # The state carried over: the second stretch starts where the first ended.
    np.testing.assert_array_equal(second.data[0, 1:4], first.data[-1, 1:4])


def test_a_drafted_pendulum_is_the_shipped_one(examples):
    shipped = looplab.load(examples / "pendulum.json").to_dict()
    bob = shipped["bodies"][0]
    draft = looplab.ModelDraft(shipped["name"], gravity=np.array([0.0, -9.81, 0.0]))
    draft.body(**bob)
    draft.joint(name="pivot", type="revolute", body1="ground", body2="bob", point=[0, 0, 0], axis=[0, 0, 1])
    drafted = draft.build()
    a = looplab.simulate(drafted, t_end=2.0, rtol=1e-10)
    b = looplab.simulate(examples / "pendulum.json", t_end=2.0, rtol=1e-10)
    np.testing.assert_array_equal(a.data, b.data)
    # Energy is kept to the tolerance's order over the swing.
    assert np.ptp(a["energy"]) < 1e-7


def test_to_pandas_names_the_columns(examples):
    run = looplab.simulate(examples / "pendulum.json", t_end=0.1)
    try:
        import pandas  # noqa: F401
    except ImportError:
        import pytest
        with pytest.raises(ImportError, match="python3-pandas"):
            run.to_pandas()
        return
    frame = run.to_pandas()
    assert list(frame.columns) == run.columns and len(frame) == len(run)
