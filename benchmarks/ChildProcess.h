#pragma once
// A measurement in a child process, so that the peak resident memory it reports is its own
// and not the largest of every measurement the benchmark made before it.

#include <sys/wait.h>
#include <unistd.h>

#include <functional>
#include <optional>
#include <string>

namespace looplab::bench {

/// Runs `measure` in a forked child and returns the text it produced, read through a pipe;
/// nothing if no child could be started (the caller then measures in this process). An
/// empty text means the child died before writing; `status` gets its wait status.
inline std::optional<std::string> textFromChild(const std::function<std::string()>& measure, int* status = nullptr) {
    int fd[2];
    if (pipe(fd) != 0) return std::nullopt;
    const pid_t pid = fork();
    if (pid < 0) {
        close(fd[0]);
        close(fd[1]);
        return std::nullopt;
    }
    if (pid == 0) {
        close(fd[0]);
        const std::string text = measure();
        if (write(fd[1], text.data(), text.size()) < 0) _exit(1);
        _exit(0);
    }
    close(fd[1]);
    std::string text;
    char buf[4096];
    for (ssize_t k; (k = read(fd[0], buf, sizeof buf)) > 0;) text.append(buf, size_t(k));
    close(fd[0]);
    int st = 0;
    waitpid(pid, &st, 0);
    if (status) *status = st;
    return text;
}

}  // namespace looplab::bench
