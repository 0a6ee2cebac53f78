#pragma once
// What the two kinds of `looplab-cli animate` share: the checks of --out, --size and --fps,
// and the camera's up direction.

#include "CliCommon.h"

#include "export/VideoEncoder.h"

#include "looplab/model/Model.h"

#include <string>

namespace looplab::cli {

struct VideoSettings {
    ui::VideoFormat format = ui::VideoFormat::Mp4;
    int width = 0, height = 0;
};

/// Why `a`'s --out, --size and --fps make no video (the message names the option), or an
/// empty string with *settings filled in.
std::string checkVideoSettings(const AnimateOptions& a, VideoSettings* settings);

/// The world axis nearest to "up": against gravity; y for a model without gravity (the
/// renderer turns it away from the viewing direction if need be).
int upAxis(const Vec3& gravity);

/// `looplab-cli animate MODEL --mode K`: the K-th mode swinging about the static
/// equilibrium (AnimateModeCommand.cpp).
int runModeAnimate(const AnimateOptions& a);

}  // namespace looplab::cli
