#include "export/ModeOscillationFrames.h"

#include <QCoreApplication>

namespace looplab::ui {

namespace {
// Enough for a smooth swing at any rate the encoders take; more only makes files larger.
constexpr int kMaxFramesPerPeriod = 1000;
constexpr int kMaxPeriods = 1000;
}  // namespace

ModeOscillationFrames::ModeOscillationFrames(const ModeShapeAnimation& animation, ModeVideoCycles cycles, double fps)
    : animation_(animation), cycles_(cycles), fps_(fps)
{
}

QString ModeOscillationFrames::checkCycles(ModeVideoCycles cycles, double fps)
{
    const auto tr = [](const char* text) { return QCoreApplication::translate("ModeOscillationFrames", text); };
    if (cycles.periods < 1 || cycles.periods > kMaxPeriods)
        return tr("The number of periods must be from 1 to %1 (got %2).").arg(kMaxPeriods).arg(cycles.periods);
    // Fewer than four frames a period cannot show both extremes and the rest between them.
    if (cycles.framesPerPeriod < 4 || cycles.framesPerPeriod > kMaxFramesPerPeriod)
        return tr("The frames per period must be from 4 to %1 (got %2).")
            .arg(kMaxFramesPerPeriod)
            .arg(cycles.framesPerPeriod);
    if (!(fps > 0.0))
        return tr("The frame rate must be positive.");
    return {};
}

int ModeOscillationFrames::frameCount() const
{
    if (!checkCycles(cycles_, fps_).isEmpty())
        return 0;
    return cycles_.periods * cycles_.framesPerPeriod;
}

double ModeOscillationFrames::frameTime(int i) const { return static_cast<double>(i) / fps_; }

State ModeOscillationFrames::frameState(int i) const
{
    State s = animation_.stateAtPhase(i % cycles_.framesPerPeriod, cycles_.framesPerPeriod);
    s.t = frameTime(i);
    return s;
}

Scene ModeOscillationFrames::frameScene(int i) const
{
    Scene scene = animation_.sceneAtPhase(i % cycles_.framesPerPeriod, cycles_.framesPerPeriod);
    scene.t = frameTime(i);
    return scene;
}

}  // namespace looplab::ui
