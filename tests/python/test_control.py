"""Long solves can be watched and stopped: a progress callback, a stop flag set from
another thread, Ctrl-C. Nothing here waits on the clock: each step waits for an event."""

import os
import signal
import subprocess
import sys
import textwrap
import threading

import pytest
import looplab

LONG = dict(t_end=1e5, output_step=0.1, rtol=1e-10)


def test_a_flag_set_from_another_thread_stops_the_run(examples):
    stop = looplab.StopFlag()
    running = threading.Event()

    def progress(t, fraction):
        running.set()

    def stopper():
        running.wait()
        stop.set()

    helper = threading.Thread(target=stopper, daemon=True)
    helper.start()
    run = looplab.simulate(examples / "pendulum.json", progress=progress, stop=stop, **LONG)
    helper.join()
    assert not run.ok and run.message == "stopped"
    assert len(run) > 1 and run.t[-1] < LONG["t_end"]
    assert stop.is_set  # the caller's flag is the caller's to clear
    stop.clear()
    assert looplab.simulate(examples / "pendulum.json", t_end=0.1, stop=stop).ok


def test_progress_returning_false_stops_and_its_exception_propagates(examples):
    calls = []

    def enough(t, fraction):
        calls.append((t, fraction))
        return False

    run = looplab.simulate(examples / "pendulum.json", progress=enough, **LONG)
    assert not run.ok and run.message == "stopped" and calls
    assert all(0.0 <= f <= 1.0 for _, f in calls)

    def broken(t, fraction):
        raise ZeroDivisionError("from the callback")

    with pytest.raises(ZeroDivisionError, match="from the callback"):
        looplab.simulate(examples / "pendulum.json", progress=broken, **LONG)
    # The kinematic runs take the same controls.
    run = looplab.kinematics(examples / "slider-crank.json", t_end=1e3, step=1e-3, progress=enough)
    assert not run.ok and run.message == "stopped"


def test_ctrl_c_ends_the_run_with_keyboard_interrupt(examples, tmp_path):
    script = tmp_path / "interrupted.py"
    script.write_text(textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {os.environ.get("LOOPLAB_PYTHON_PATH", "")!r})
        import looplab
        announced = []
        def progress(t, fraction):
            if not announced:
                announced.append(t)
                print("running", flush=True)
        try:
            looplab.simulate({str(examples / "pendulum.json")!r}, progress=progress,
                             t_end=1e5, output_step=0.1, rtol=1e-10)
            print("finished", flush=True)
        except KeyboardInterrupt:
            print("interrupted", flush=True)
        # Python's own handler is back: the next run goes to its end.
        print("again", looplab.simulate({str(examples / "pendulum.json")!r}, t_end=0.1).ok, flush=True)
    """))
    child = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    assert child.stdout.readline().strip() == "running"
    child.send_signal(signal.SIGINT)
    rest = child.stdout.read().split()
    assert child.wait() == 0
    assert rest == ["interrupted", "again", "True"]


def test_a_wall_time_limit_ends_the_equilibrium_search_of_statics_and_modes(examples):
    # As the command line's --max-wall-time: checked between iterations, so a limit of a
    # nanosecond has passed at the first check; the reason is given, the same search
    # without a limit converges. The pendulum starts at 30° above the horizontal, away
    # from its equilibrium, so the search has iterations to make.
    model = examples / "pendulum.json"
    limited = looplab.statics(model, max_wall_time=1e-9)
    assert not limited.ok
    assert limited.report["error"].startswith("wall-time limit reached")
    assert "(limit 1e-09 s) after 0 Newton iterations and 0 relaxation steps" in limited.report["error"]
    assert looplab.statics(model).ok
    modes = looplab.modes(model, 1, max_wall_time=1e-9)
    assert not modes.ok and len(modes.frequencies_hz) == 0
    assert modes.report["error"].startswith("no static equilibrium: wall-time limit reached")
    along = looplab.modes(examples / "flexible-slider-crank.json", 1, along="motor", from_=0, to=1, steps=2,
                          max_wall_time=1e-9)
    assert not along.ok and "wall-time limit reached" in along.message
    with pytest.raises(ValueError, match="max_wall_time"):
        looplab.statics(model, max_wall_time=-1)
    with pytest.raises(ValueError, match="max_wall_time"):
        looplab.modes(model, 1, max_wall_time=float("nan"))
