#include "looplab/model/InputFile.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>

namespace looplab {

bool readInputFile(const std::string& path, const char* kind, std::string& text, std::string& why) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
        why = std::string("is a directory, not a ") + kind;
        return false;
    }
    const std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
    if (!f) {
        why = "cannot open the file for reading";
        return false;
    }
    text.clear();
    char buffer[1 << 16];
    for (;;) {
        const std::size_t n = std::fread(buffer, 1, sizeof buffer, f.get());
        text.append(buffer, n);
        if (text.size() > kMaxInputFileBytes) {
            text.clear();
            why = "is larger than 64 MB (a " + std::string(kind) +
                  " is far smaller; a device or a pipe that does not end cannot be read)";
            return false;
        }
        if (n < sizeof buffer) break;
    }
    if (std::ferror(f.get())) {
        const int error = errno;
        text.clear();
        why = std::string("cannot be read: ") + (error ? std::strerror(error) : "read error");
        return false;
    }
    return true;
}

}  // namespace looplab
