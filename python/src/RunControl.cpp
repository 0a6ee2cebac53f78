#include "RunControl.h"

#include <algorithm>
#include <csignal>

namespace py = pybind11;

namespace looplab::python {

namespace {

// The run a Ctrl-C ends. A signal handler may only store to lock-free atomics.
std::atomic<std::atomic<bool>*> interruptTarget{nullptr};
std::atomic<bool> interrupted{false};
struct sigaction previousAction;

extern "C" void onInterrupt(int) {
    interrupted.store(true);
    if (std::atomic<bool>* t = interruptTarget.load()) t->store(true);
}

bool onMainThread() {
    const py::module_ threading = py::module_::import("threading");
    return threading.attr("current_thread")().is(threading.attr("main_thread")());
}

}  // namespace

RunControl::RunControl(py::object progress, std::shared_ptr<StopFlag> stop, double tStart, double tEnd,
                       double interval)
    : progress_(std::move(progress)),
      stop_(stop ? std::move(stop) : std::make_shared<StopFlag>()),
      tStart_(tStart),
      tEnd_(tEnd),
      interval_(interval),
      lastCall_(std::chrono::steady_clock::now()) {
    // Python runs its own SIGINT handler only between bytecodes of the main thread, never
    // during a solve without the GIL: for the solve's length the handler is ours. A run
    // from another thread, or one inside another run's callback, leaves it alone.
    if (onMainThread() && interruptTarget.load() == nullptr) {
        struct sigaction action {};
        action.sa_handler = onInterrupt;
        sigemptyset(&action.sa_mask);
        interrupted.store(false);
        interruptTarget.store(&stop_->value);
        if (sigaction(SIGINT, &action, &previousAction) == 0)
            handlerInstalled_ = true;
        else
            interruptTarget.store(nullptr);
    }
}

RunControl::~RunControl() {
    if (handlerInstalled_) {
        sigaction(SIGINT, &previousAction, nullptr);
        interruptTarget.store(nullptr);
    }
}

void RunControl::callProgress(double t) {
    if (progress_.is_none() || callbackError_) return;
    const double span = tEnd_ - tStart_;
    const double fraction = span > 0.0 ? std::min(1.0, std::max(0.0, (t - tStart_) / span)) : 1.0;
    try {
        const py::object answer = progress_(t, fraction);
        if (!answer.is_none() && !answer.cast<bool>()) {
            stop_->value.store(true);
            stoppedByUs_ = true;
        }
    } catch (py::error_already_set& e) {
        callbackError_ = std::make_unique<py::error_already_set>(std::move(e));
        stop_->value.store(true);
        stoppedByUs_ = true;
    }
}

void RunControl::reached(double t) {
    if (progress_.is_none()) return;
    const auto now = std::chrono::steady_clock::now();
    if (std::chrono::duration<double>(now - lastCall_).count() < interval_) return;
    lastCall_ = now;
    py::gil_scoped_acquire gil;
    callProgress(t);
}

void RunControl::finish(double t) {
    const bool wasInterrupted = handlerInstalled_ && interrupted.load();
    if (handlerInstalled_) {
        sigaction(SIGINT, &previousAction, nullptr);
        interruptTarget.store(nullptr);
        handlerInstalled_ = false;
    }
    if (!wasInterrupted) callProgress(t);
    // A flag the caller made is the caller's to clear; the one a Ctrl-C or the callback set
    // would otherwise stop the caller's next run at once.
    if (wasInterrupted || stoppedByUs_) stop_->value.store(false);
    if (callbackError_) throw std::move(*callbackError_);
    if (wasInterrupted) {
        PyErr_SetNone(PyExc_KeyboardInterrupt);
        throw py::error_already_set();
    }
}

}  // namespace looplab::python
