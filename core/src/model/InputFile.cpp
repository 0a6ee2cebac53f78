#include "looplab/model/InputFile.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

namespace looplab {

namespace {

// A FIFO is opened without waiting for a writer (a plain open blocks until one comes, for
// ever if none does); this waits a bounded time for one to write or close, false when
// none did. A pipe whose writer is already there (process substitution) is ready at once.
bool waitForWriter(int fd) {
    pollfd p{fd, POLLIN, 0};
    for (;;) {
        const int n = ::poll(&p, 1, kInputPipeWaitSeconds * 1000);
        if (n > 0) return true;
        if (n == 0) return false;
        if (errno != EINTR) return true;  // let the read report the error
    }
}

}  // namespace

bool readInputFile(const std::string& path, const char* kind, std::string& text, std::string& why) {
    text.clear();
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        why = "cannot open the file for reading";
        return false;
    }
    const std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(::fdopen(fd, "rb"), &std::fclose);
    if (!f) {
        ::close(fd);
        why = "cannot open the file for reading";
        return false;
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        why = std::string("cannot be read: ") + std::strerror(errno);
        return false;
    }
    if (S_ISDIR(st.st_mode)) {
        why = std::string("is a directory, not a ") + kind;
        return false;
    }
    if (S_ISFIFO(st.st_mode) && !waitForWriter(fd)) {
        why = "is a pipe that nothing wrote to within " + std::to_string(kInputPipeWaitSeconds) +
              " s (a named pipe is read only while a program writes to it)";
        return false;
    }
    // The rest reads as a plain file: blocking, so that a pipe's writer may be slow.
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
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
