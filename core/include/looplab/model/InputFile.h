#pragma once
// Reading a model or study file whole, with the checks a hostile or careless path needs:
// a directory, a file that cannot be opened, and a source that never ends (a device such as
// /dev/zero, an endless pipe) are refused with the reason instead of hanging or exhausting
// the memory. A pipe or a process substitution that ends is read like a file; a named pipe
// that no program writes to is refused after kInputPipeWaitSeconds instead of blocking.

#include <cstddef>
#include <string>

namespace looplab {

/// Largest model or study file read [bytes]: model files describe meshes by their
/// parameters, so real ones are kilobytes; this only stops a source that does not end.
inline constexpr std::size_t kMaxInputFileBytes = std::size_t(64) << 20;

/// Longest wait for a named pipe's writer [s] before the pipe is refused.
inline constexpr int kInputPipeWaitSeconds = 5;

/// Reads `path` into `text`; false with the reason in `why` ("is a directory, not a
/// KIND", "cannot open the file for reading", "is larger than 64 MB (...)", "is a pipe that
/// nothing wrote to within 5 s (...)", a read error).
bool readInputFile(const std::string& path, const char* kind, std::string& text, std::string& why);

}  // namespace looplab
