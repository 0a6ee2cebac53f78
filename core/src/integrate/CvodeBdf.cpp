#include "looplab/integrate/CvodeBdf.h"

#include <cvode/cvode.h>
#include <cvode/cvode_proj.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#include <cmath>

namespace looplab {

struct CvodeBdf::Impl {
    SUNContext ctx = nullptr;
    void* mem = nullptr;
    N_Vector y = nullptr;
    N_Vector dense = nullptr;  // dense output, kept so that interpolation does not allocate
    SUNMatrix A = nullptr;
    SUNLinearSolver LS = nullptr;
    OdeSystem sys;
    StepStatistics* stats = nullptr;
    double tStop = 0.0;
    bool stopSet = false;
    VecX scratchY, scratchDy;
};

namespace {

Eigen::Map<VecX> view(N_Vector v) {
    return Eigen::Map<VecX>(N_VGetArrayPointer(v), N_VGetLength(v));
}

int rhsCallback(realtype t, N_Vector y, N_Vector ydot, void* user) {
    auto* impl = static_cast<CvodeBdf::Impl*>(user);
    impl->scratchY = view(y);
    ++impl->stats->rhsEvaluations;
    if (!impl->sys.rhs(t, impl->scratchY, impl->scratchDy) || !impl->scratchDy.allFinite())
        return 1;  // recoverable: CVODE retries with a smaller step
    view(ydot) = impl->scratchDy;
    return 0;
}

int projCallback(realtype t, N_Vector ycur, N_Vector corr, realtype /*eps*/, N_Vector /*err*/,
                 void* user) {
    auto* impl = static_cast<CvodeBdf::Impl*>(user);
    VecX y = view(ycur);
    if (!impl->sys.project(t, y)) return 1;
    view(corr) = y - view(ycur);
    return 0;
}

std::string flagText(int flag) {
    const char* name = CVodeGetReturnFlagName(flag);
    std::string s = name ? name : "unknown";
    // CVodeGetReturnFlagName allocates its result.
    free(const_cast<char*>(name));
    return s;
}

}  // namespace

CvodeBdf::CvodeBdf() = default;
CvodeBdf::~CvodeBdf() { release(); }

void CvodeBdf::release() {
    if (!impl_) return;
    if (impl_->mem) CVodeFree(&impl_->mem);
    if (impl_->LS) SUNLinSolFree(impl_->LS);
    if (impl_->A) SUNMatDestroy(impl_->A);
    if (impl_->y) N_VDestroy(impl_->y);
    if (impl_->dense) N_VDestroy(impl_->dense);
    if (impl_->ctx) SUNContext_Free(&impl_->ctx);
    delete impl_;
    impl_ = nullptr;
}

Status CvodeBdf::initialize(const OdeSystem& system, double t0, const VecX& y0,
                               const OdeSettings& settings) {
    release();
    stats_ = {};
    impl_ = new Impl;
    impl_->sys = system;
    impl_->stats = &stats_;
    if (!(settings.rtol > 0.0) || !(settings.atol > 0.0))
        return Status::failure("bdf needs positive rtol and atol");
    if (SUNContext_Create(nullptr, &impl_->ctx) != 0) return Status::failure("cannot create a SUNDIALS context");
    const sunindextype n = system.size;
    impl_->y = N_VNew_Serial(n, impl_->ctx);
    impl_->dense = N_VNew_Serial(n, impl_->ctx);
    y_ = y0;
    if (system.project && !system.project(t0, y_)) return Status::failure("initial projection failed");
    view(impl_->y) = y_;
    impl_->mem = CVodeCreate(CV_BDF, impl_->ctx);
    int flag = CVodeInit(impl_->mem, rhsCallback, t0, impl_->y);
    if (flag != CV_SUCCESS) return Status::failure("CVodeInit failed: " + flagText(flag));
    CVodeSetUserData(impl_->mem, impl_);
    CVodeSStolerances(impl_->mem, settings.rtol, settings.atol);
    impl_->A = SUNDenseMatrix(n, n, impl_->ctx);
    impl_->LS = SUNLinSol_Dense(impl_->y, impl_->A, impl_->ctx);
    CVodeSetLinearSolver(impl_->mem, impl_->LS, impl_->A);
    CVodeSetMaxNumSteps(impl_->mem, settings.maxSteps);
    CVodeSetErrHandlerFn(impl_->mem, [](int, const char*, const char*, char*, void*) {}, nullptr);
    if (settings.maxStep > 0.0) CVodeSetMaxStep(impl_->mem, settings.maxStep);
    if (settings.step > 0.0) CVodeSetInitStep(impl_->mem, settings.step);
    if (system.project) {
        CVodeSetProjFn(impl_->mem, projCallback);
        CVodeSetProjErrEst(impl_->mem, SUNFALSE);
    }
    t_ = t0;
    hLast_ = 0.0;
    return {};
}

Status CvodeBdf::step(double tStop) {
    if (!impl_ || !impl_->mem) return Status::failure("bdf solver is not initialised");
    if (!impl_->stopSet || impl_->tStop != tStop) {
        CVodeSetStopTime(impl_->mem, tStop);
        impl_->tStop = tStop;
        impl_->stopSet = true;
    }
    realtype t = t_;
    const int flag = CVode(impl_->mem, tStop, impl_->y, &t, CV_ONE_STEP);
    if (flag < 0) return Status::failure("CVODE failed near t = " + std::to_string(t_) + ": " + flagText(flag));
    t_ = t;
    y_ = view(impl_->y);
    realtype h = 0;
    CVodeGetLastStep(impl_->mem, &h);
    hLast_ = h;
    long v = 0;
    CVodeGetNumSteps(impl_->mem, &v);
    stats_.steps = v;
    CVodeGetNumErrTestFails(impl_->mem, &v);
    stats_.rejectedSteps = v;
    CVodeGetNumJacEvals(impl_->mem, &v);
    stats_.jacobianEvaluations = v;
    return {};
}

void CvodeBdf::interpolate(double t, VecX& y) const {
    if (CVodeGetDky(impl_->mem, t, 0, impl_->dense) == CV_SUCCESS) {
        y = view(impl_->dense);
    } else {
        y = y_;
    }
}


}  // namespace looplab
