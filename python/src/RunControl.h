#pragma once
// What lets Python keep its hands on a long solve that runs without the GIL: a stop flag
// another thread may set, a progress callback called now and then with the GIL held, and
// Ctrl-C, which ends the run after its current step and then raises KeyboardInterrupt.
#include <pybind11/pybind11.h>

#include <atomic>
#include <chrono>
#include <memory>

namespace looplab::python {

/// Python's looplab.StopFlag: set() from any thread ends the runs it was given to.
struct StopFlag {
    std::atomic<bool> value{false};
};

class RunControl {
public:
    /// Holds the GIL when made. `progress` (None or a callable (t, fraction) returning
    /// False to stop) is called at most every `interval` seconds of wall time, and at the end.
    RunControl(pybind11::object progress, std::shared_ptr<StopFlag> stop, double tStart, double tEnd,
               double interval = 0.1);
    ~RunControl();
    RunControl(const RunControl&) = delete;
    RunControl& operator=(const RunControl&) = delete;

    /// What the solver watches.
    const std::atomic<bool>* flag() const { return &stop_->value; }
    /// At each output time, without the GIL: calls the progress callback when it is due.
    void reached(double t);
    /// With the GIL, after the solve: the last progress call, the signal handler put back,
    /// and KeyboardInterrupt or the callback's exception raised if either ended the run.
    void finish(double t);

private:
    void callProgress(double t);
    pybind11::object progress_;
    std::shared_ptr<StopFlag> stop_;
    double tStart_, tEnd_, interval_;
    std::chrono::steady_clock::time_point lastCall_;
    bool handlerInstalled_ = false;
    bool stoppedByUs_ = false;
    std::unique_ptr<pybind11::error_already_set> callbackError_;
};

}  // namespace looplab::python
