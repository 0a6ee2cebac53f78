#include "OutputFile.h"

#include <cerrno>
#include <csignal>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

namespace looplab::cli {

namespace {

std::string reason(int err) { return err ? std::strerror(err) : "write error"; }

// Temporary files being written, for the signal handler: a run ended by SIGINT, SIGTERM
// or SIGHUP would otherwise leave FILE.tmp-XXXXXX with the rows so far, and nothing would
// say so. Fixed slots of plain characters, so that the handler only reads memory and
// calls unlink(), which is async-signal-safe.
constexpr int kTempSlots = 16;
char tempNames[kTempSlots][PATH_MAX];
volatile std::sig_atomic_t tempUsed[kTempSlots];

void removeTempFilesAndDie(int signal) {
    for (int k = 0; k < kTempSlots; ++k)
        if (tempUsed[k]) ::unlink(tempNames[k]);
    // Ended as the signal would have ended it (the shell sees the signal, not a status).
    ::signal(signal, SIG_DFL);
    ::raise(signal);
}

void installSignalCleanup() {
    static bool installed = false;
    if (installed) return;
    installed = true;
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
        struct sigaction old {};
        // A signal the caller ignores (nohup's SIGHUP) stays ignored.
        if (::sigaction(sig, nullptr, &old) != 0 || old.sa_handler != SIG_DFL) continue;
        struct sigaction action {};
        action.sa_handler = removeTempFilesAndDie;
        sigemptyset(&action.sa_mask);
        for (int other : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&action.sa_mask, other);
        ::sigaction(sig, &action, nullptr);
    }
}

// The slot of a temporary file, or -1 when all are taken (the file is then only left
// behind on a signal, as before).
int registerTemp(const std::string& path) {
    if (path.size() >= PATH_MAX) return -1;
    installSignalCleanup();
    for (int k = 0; k < kTempSlots; ++k)
        if (!tempUsed[k]) {
            std::memcpy(tempNames[k], path.c_str(), path.size() + 1);
            tempUsed[k] = 1;
            return k;
        }
    return -1;
}

void unregisterTemp(int slot) {
    if (slot >= 0) tempUsed[slot] = 0;
}

}  // namespace

OutputFile::~OutputFile() { abandon(); }

std::string OutputFile::checkNotAnInput(const std::string& option, const std::string& path,
                                        const std::vector<std::string>& inputs, bool followLink) {
    struct stat out {};
    const int found = followLink ? ::stat(path.c_str(), &out) : ::lstat(path.c_str(), &out);
    if (found != 0) return {};  // does not exist yet: cannot be an input
    for (const std::string& in : inputs) {
        struct stat st {};
        if (::stat(in.c_str(), &st) == 0 && st.st_dev == out.st_dev && st.st_ino == out.st_ino)
            return option + " '" + path + "' is the input file '" + in +
                   "'; refusing to overwrite it (choose another output file)";
    }
    return {};
}

bool OutputFile::sameFile(const std::string& a, const std::string& b) {
    std::error_code ea, eb;
    if (std::filesystem::exists(a, ea) && std::filesystem::exists(b, eb)) {
        std::error_code ec;
        return std::filesystem::equivalent(a, b, ec);
    }
    const std::filesystem::path ca = std::filesystem::weakly_canonical(std::filesystem::absolute(a, ea), ea);
    const std::filesystem::path cb = std::filesystem::weakly_canonical(std::filesystem::absolute(b, eb), eb);
    return !ea && !eb ? ca == cb : a == b;
}

std::string OutputFile::checkDistinct(const std::vector<std::pair<std::string, std::string>>& outputs) {
    for (size_t i = 0; i < outputs.size(); ++i)
        for (size_t k = i + 1; k < outputs.size(); ++k) {
            const auto& [optionA, a] = outputs[i];
            const auto& [optionB, b] = outputs[k];
            if (!a.empty() && !b.empty() && sameFile(a, b))
                return optionA + " '" + a + "' and " + optionB + " '" + b +
                       "' are one file: the second would replace the first (choose two files)";
        }
    return {};
}

std::string OutputFile::checkCanCreate(const std::string& option, const std::string& path) {
    std::error_code ec;
    const std::filesystem::file_status st = std::filesystem::status(path, ec);
    if (std::filesystem::is_directory(st)) return option + " '" + path + "' is a folder (name a file in it)";
    if (std::filesystem::exists(st) && !std::filesystem::is_regular_file(st)) return {};  // written directly
    // A regular file is replaced through a temporary file beside it (beside a link's target).
    std::filesystem::path folder = std::filesystem::exists(st)
                                       ? std::filesystem::weakly_canonical(path, ec).parent_path()
                                       : std::filesystem::path(path).parent_path();
    if (folder.empty()) folder = ".";
    if (!std::filesystem::is_directory(folder, ec))
        return option + " '" + path + "': the folder '" + folder.string() + "' does not exist (create it first)";
    if (::access(folder.c_str(), W_OK | X_OK) != 0)
        return option + " '" + path + "': cannot create a file in the folder '" + folder.string() + "': " + reason(errno);
    return {};
}

namespace {

// The descriptor a path names when it is one of the process's own open files
// (/dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N), else -1. Such a path must be
// written through that descriptor: it may be a regular file the shell opened (with its
// own offset, perhaps in append mode), which neither truncating nor renaming may touch.
int ownDescriptor(const std::string& path) {
    if (path == "/dev/stdout") return 1;
    if (path == "/dev/stderr") return 2;
    for (const char* prefix : {"/dev/fd/", "/proc/self/fd/"}) {
        const std::string p(prefix);
        if (path.size() > p.size() && path.compare(0, p.size(), p) == 0) {
            const std::string digits = path.substr(p.size());
            if (digits.find_first_not_of("0123456789") == std::string::npos && digits.size() < 9)
                return std::stoi(digits);
        }
    }
    return -1;
}

}  // namespace

bool OutputFile::open(const std::string& path, std::string* error) {
    abandon();
    path_ = target_ = path;
    writeErrno_ = 0;
    buffer_.str(std::string());
    int own = ownDescriptor(path);
    if (own < 0) {
        // Any other spelling of the file that standard output or error already goes to.
        struct stat out {};
        if (::stat(path.c_str(), &out) == 0)
            for (int fd : {1, 2}) {
                struct stat st {};
                if (::fstat(fd, &st) == 0 && st.st_dev == out.st_dev && st.st_ino == out.st_ino) {
                    own = fd;
                    break;
                }
            }
    }
    if (own >= 0) {
        fd_ = ::fcntl(own, F_DUPFD_CLOEXEC, 0);
        if (fd_ < 0) {
            if (error) *error = "cannot write '" + path + "': " + reason(errno);
            return false;
        }
        return true;
    }
    struct stat st {};
    const bool exists = ::stat(path.c_str(), &st) == 0;
    if (exists && !S_ISREG(st.st_mode)) {
        // A device or a FIFO: write to it directly.
        fd_ = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
        if (fd_ < 0) {
            if (error) *error = "cannot write '" + path + "': " + reason(errno);
            return false;
        }
        return true;
    }
    if (exists) {
        // Follow a symbolic link so that the link stays and its target gets the result.
        char resolved[PATH_MAX];
        if (::realpath(path.c_str(), resolved)) target_ = resolved;
    }
    const std::string pattern = target_ + ".tmp-XXXXXX";
    std::vector<char> name(pattern.begin(), pattern.end());
    name.push_back('\0');
    fd_ = ::mkstemp(name.data());
    if (fd_ < 0) {
        if (error) *error = "cannot write '" + path + "': " + reason(errno);
        return false;
    }
    temp_ = name.data();
    tempSlot_ = registerTemp(temp_);
    mode_t mode;
    if (exists) {
        mode = st.st_mode & 07777;
    } else {
        const mode_t mask = ::umask(0);
        ::umask(mask);
        mode = 0666 & ~mask;
    }
    ::fchmod(fd_, mode);
    return true;
}

bool OutputFile::drain(bool force) {
    if (fd_ < 0) return false;
    if (writeErrno_) {
        buffer_.str(std::string());
        return false;
    }
    if (!force && buffer_.tellp() < std::streampos(1 << 16)) return true;
    const std::string data = buffer_.str();
    buffer_.str(std::string());
    size_t done = 0;
    while (done < data.size()) {
        const ssize_t n = ::write(fd_, data.data() + done, data.size() - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            writeErrno_ = errno;
            return false;
        }
        done += size_t(n);
    }
    return true;
}

bool OutputFile::commit(std::string* error) {
    if (fd_ < 0) return true;
    drain(true);
    // A regular file reaches the disk before it replaces the old one.
    if (!writeErrno_ && !temp_.empty() && ::fsync(fd_) != 0) writeErrno_ = errno;
    if (::close(fd_) != 0 && !writeErrno_) writeErrno_ = errno;
    fd_ = -1;
    if (!writeErrno_ && !temp_.empty() && ::rename(temp_.c_str(), target_.c_str()) != 0) writeErrno_ = errno;
    unregisterTemp(tempSlot_);
    tempSlot_ = -1;
    if (writeErrno_) {
        if (error) *error = "cannot write '" + path_ + "': " + reason(writeErrno_);
        if (!temp_.empty()) ::unlink(temp_.c_str());
        temp_.clear();
        return false;
    }
    temp_.clear();
    return true;
}

void OutputFile::abandon() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    if (!temp_.empty()) ::unlink(temp_.c_str());
    unregisterTemp(tempSlot_);
    tempSlot_ = -1;
    temp_.clear();
}

}  // namespace looplab::cli
