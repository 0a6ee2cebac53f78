"""Loading and running again and again does not grow the process: the resident size is
measured after a warm-up and again after many more rounds."""

import looplab


def resident_kib():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS in /proc/self/status")


def test_repeated_load_and_simulate_do_not_leak(examples):
    def round_trip():
        model = looplab.load(examples / "four-bar.json")
        run = looplab.simulate(model, t_end=0.2, output_step=0.01)
        assert run.ok
        looplab.check(model)

    for _ in range(50):
        round_trip()
    before = resident_kib()
    for _ in range(300):
        round_trip()
    grown = resident_kib() - before
    print(f"resident size grew by {grown} KiB over 300 rounds")
    # A model and its run are about 100 KiB: a leak of either would add some 30 MiB.
    assert grown < 4096
