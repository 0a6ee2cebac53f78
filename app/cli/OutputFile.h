#pragma once
// Output files of the command-line tool that never cost the user a file.
//
// A regular file (or a path that does not exist yet) is written to a temporary file in
// the same directory and renamed over the path only when everything was written,
// flushed and closed without error; a run that is abandoned leaves the old file as it
// was. A path that is not a regular file (a device such as /dev/stdout or /dev/full, a
// FIFO) is written directly: renaming over a device would replace it; /dev/stdout,
// /dev/stderr and /dev/fd/N are written through the process's own descriptor, whatever
// the shell connected to it (a file opened for appending keeps its contents). Every write is
// checked. An output that is the same file as an input (same device and inode, whatever
// the spelling of the path, a symbolic or a hard link), or as another output of the run,
// is refused before anything is opened; so is one in a folder that does not exist. A run
// ended by SIGINT, SIGTERM or SIGHUP removes its temporary files before it ends (as the
// signal would have ended it), leaving the old files as they were.

#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace looplab::cli {

class OutputFile {
public:
    OutputFile() = default;
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;
    ~OutputFile();  ///< abandons an uncommitted temporary file

    /// Refuses an output that is one of the inputs (RunInputs.h): returns an error message
    /// naming the option and both paths, or an empty string. With `followLink` false, a
    /// symbolic link at `path` is not taken for the file it points to (an output that
    /// replaces the link rather than writing through it).
    static std::string checkNotAnInput(const std::string& option, const std::string& path,
                                       const std::vector<std::string>& inputs, bool followLink = true);
    /// Refuses two outputs of one run that are one file, whatever their spelling (a
    /// relative or absolute path, ./, a link): each pair is {option, path}; empty paths are
    /// skipped.
    static std::string checkDistinct(const std::vector<std::pair<std::string, std::string>>& outputs);
    /// Refuses an output that cannot be created: a folder, or a file (existing or not) in a
    /// folder that does not exist or that this user cannot write to. Checked before a long
    /// run, whose results would otherwise be lost at the end.
    static std::string checkCanCreate(const std::string& option, const std::string& path);
    /// Whether two paths name one file: the same file when both exist, else the same path
    /// once made absolute and the links of its existing part resolved.
    static bool sameFile(const std::string& a, const std::string& b);

    /// Opens the output; false with *error set if it cannot be created.
    bool open(const std::string& path, std::string* error);
    bool isOpen() const { return fd_ >= 0; }
    /// The temporary file being written, for writers that open the file by name
    /// themselves (the video encoder); empty when the output is written directly (a
    /// device, a FIFO, an open descriptor).
    const std::string& tempPath() const { return temp_; }
    /// Text written here goes to the file at the next drain() or commit().
    std::ostream& stream() { return buffer_; }
    /// Writes the buffered text once it has grown large; false once a write has failed.
    bool drain(bool force = false);
    bool good() const { return writeErrno_ == 0; }

    /// Flushes and closes, then renames the temporary file into place. False with *error
    /// set (naming the path and the system's reason) if any write, the close or the
    /// rename failed; the temporary file is then removed and the old file kept.
    bool commit(std::string* error);
    /// Closes and removes the temporary file, keeping the old file.
    void abandon();

private:
    std::string path_;     ///< what the user named
    std::string target_;   ///< where the result goes (a symbolic link's target)
    std::string temp_;     ///< temporary file, empty when writing directly
    std::ostringstream buffer_;
    int fd_ = -1;
    int writeErrno_ = 0;  ///< errno of the first failed write
    int tempSlot_ = -1;   ///< where the signal handler finds temp_ (OutputFile.cpp)
};

/// Values joined by commas, with a newline: a CSV row of a run (the precision is the stream's).
template <class T>
void writeCsvLine(std::ostream& out, const std::vector<T>& values) {
    for (size_t k = 0; k < values.size(); ++k) {
        if (k) out << ",";
        out << values[k];
    }
    out << "\n";
}

}  // namespace looplab::cli
