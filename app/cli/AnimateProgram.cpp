// `looplab-cli animate` runs looplab-cli-animate, the same command line built with the
// animation library, from the directory of this program. Rendering and encoding need VTK
// and FFmpeg, which with their dependencies are about 180 shared libraries: loaded by every
// command, they made each start take 0.64 s instead of 0.27 s under the sanitizers, for
// the one command that renders.
#include "CliCommon.h"

#include <cerrno>
#include <cstring>
#include <string>

#include <unistd.h>

namespace looplab::cli {

int runAnimateProgram(const char* programName, char** argv, bool json) {
    std::string self(4096, '\0');
    const ssize_t n = ::readlink("/proc/self/exe", self.data(), self.size() - 1);
    if (n <= 0)
        return reportFailure(json, kBadInput,
                             std::string("cannot find the folder of looplab-cli to start ") + programName + ": " +
                                 std::strerror(errno));
    self.resize(static_cast<std::size_t>(n));
    const std::string path = self.substr(0, self.rfind('/') + 1) + programName;
    std::cout.flush();
    std::cerr.flush();
    ::execv(path.c_str(), argv);
    // Only reached when the program could not be started.
    return reportFailure(json, kBadInput,
                         "cannot start '" + path + "' for `animate`: " + std::strerror(errno) +
                             " (it is built beside looplab-cli with -DLOOPLAB_BUILD_UI=ON)");
}

}  // namespace looplab::cli
