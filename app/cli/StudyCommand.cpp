// `looplab-cli study`: runs a design study (docs/study-format.md) on a pool of threads or,
// when started by mpirun or srun in a build with MPI, on every rank; writes one row per case
// in case order, and the summary statistics.
#include "CliCommon.h"
#include "OutputFile.h"
#include "RunInputs.h"

#include "looplab/study/StudyCases.h"
#include "looplab/study/StudyExecution.h"
#include "looplab/study/StudyFile.h"
#include "looplab/study/StudyRunner.h"
#include "looplab/study/StudySummary.h"

#ifdef LOOPLAB_WITH_MPI
#include <mpi.h>
#endif

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <thread>

namespace looplab::cli {

namespace {

std::string duration(double s) {
    char buf[32];
    if (s < 90) std::snprintf(buf, sizeof buf, "%.0f s", s);
    else if (s < 5400) std::snprintf(buf, sizeof buf, "%.1f min", s / 60);
    else std::snprintf(buf, sizeof buf, "%.1f h", s / 3600);
    return buf;
}

// Rows of an earlier run of the same study that can be kept: the header must be this
// study's, and rows are taken from case 0 on while each is complete (ends with a line
// break), is the next case and has this case's parameter values.
bool resumeRows(const StudyDescription& study, const std::string& path, std::vector<StudyRow>& rows,
                std::string* error) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return true;  // nothing to resume from
    std::ostringstream ss;
    ss << in.rdbuf();
    const std::string text = ss.str();
    size_t pos = text.find('\n');
    if (pos == std::string::npos) return true;  // not even a complete header
    if (text.substr(0, pos) != studyHeader(study)) {
        *error = "cannot resume from " + path + ": its columns are not this study's (remove it, or run without --resume)";
        return false;
    }
    const long n = studyCaseCount(study);
    for (size_t start = pos + 1; start < text.size();) {
        const size_t end = text.find('\n', start);
        if (end == std::string::npos) break;
        StudyRow row;
        std::string why;
        const long k = static_cast<long>(rows.size());
        if (k >= n || !parseStudyRow(study, text.substr(start, end - start), row, &why) || row.index != k ||
            row.parameters != studyCaseValues(study, k))
            break;
        rows.push_back(row);
        start = end + 1;
    }
    return true;
}

// Writes finished rows in case order: to the partial file as soon as all rows before
// them are there (so that an interrupted study can resume), and keeps them for the final
// file and the summary. Reports progress on stderr.
class StudyWriter {
public:
    StudyWriter(const StudyDescription& study, long total, std::vector<StudyRow> done, const std::string& partialPath)
        : total_(total), rows_(static_cast<size_t>(total)), start_(std::chrono::steady_clock::now()),
          resumed_(static_cast<long>(done.size())), tty_(isatty(2) != 0) {
        for (StudyRow& r : done) rows_[size_t(r.index)] = std::move(r);
        // A new file in place of whatever is there (the rows to resume have been read):
        // a stale link, or a second name of another file, would be written through.
        ::unlink(partialPath.c_str());
        partial_.open(partialPath, std::ios::binary | std::ios::trunc);
        if (!partial_) {
            std::cerr << "warning: cannot write " << partialPath << ": an interrupted study will not resume\n";
        } else {
            partial_ << studyHeader(study) << "\n";
        }
        flushContiguous();
        for (const auto& r : rows_)
            if (r && !r->ok) ++failed_;
        if (resumed_ > 0) std::cerr << "study: resuming after " << resumed_ << " finished cases\n";
    }

    void put(StudyRow row) {
        if (!row.ok) ++failed_;
        ++doneNow_;
        rows_[size_t(row.index)] = std::move(row);
        flushContiguous();
        progress(false);
    }

    void progress(bool last) {
        const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
        if (!last && elapsed - lastReport_ < (tty_ ? 0.2 : 10.0)) return;
        lastReport_ = elapsed;
        const long done = resumed_ + doneNow_;
        const int width = 30;
        const int filled = total_ > 0 ? int(double(width) * double(done) / double(total_)) : width;
        std::string bar = "[" + std::string(size_t(filled), '#') + std::string(size_t(width - filled), '.') + "]";
        std::ostringstream line;
        line << "study " << bar << " " << done << "/" << total_ << " cases";
        if (failed_) line << ", " << failed_ << " failed";
        line << ", " << duration(elapsed);
        if (!last && doneNow_ > 0) line << ", about " << duration(elapsed / double(doneNow_) * double(total_ - done)) << " left";
        std::cerr << (tty_ ? "\r" : "") << line.str() << (tty_ && !last ? "    " : "\n") << std::flush;
    }

    /// The rows, all present once every case has been put.
    std::vector<StudyRow> rows() const {
        std::vector<StudyRow> r;
        for (const auto& x : rows_)
            if (x) r.push_back(*x);
        return r;
    }
    long failed() const { return failed_; }
    void closePartial() { partial_.close(); }

private:
    void flushContiguous() {
        while (next_ < rows_.size() && rows_[next_]) {
            if (partial_.is_open()) partial_ << formatStudyRow(*rows_[next_]) << "\n";
            ++next_;
        }
        if (partial_.is_open()) partial_.flush();
    }

    long total_;
    std::vector<std::optional<StudyRow>> rows_;
    size_t next_ = 0;
    std::ofstream partial_;
    std::chrono::steady_clock::time_point start_;
    long resumed_ = 0, doneNow_ = 0, failed_ = 0;
    double lastReport_ = -1e9;
    bool tty_;
};

// Runs `pending` on `threads` threads; the writer gets the rows one at a time.
void runOnThreads(const StudyDescription& study, const std::vector<long>& pending, int threads, StudyWriter& writer) {
    runStudyCases(study, pending, threads, [&](StudyRow&& row, const StudyProgress&) { writer.put(std::move(row)); });
}

#ifdef LOOPLAB_WITH_MPI
enum MpiTag : int { kTagRequest = 1, kTagResult = 2, kTagWork = 3 };

// Launched by mpirun or srun: the launchers' environment variables say so. A tool started
// by hand never initialises MPI (a singleton start may look for a daemon).
bool launchedByMpi() {
    for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"})
        if (std::getenv(v)) return true;
    return false;
}

// Rank 0: hands out case indices one at a time to whichever rank asks (the cases differ
// widely in cost), collects the rows as text and passes them to the writer.
void runMpiCoordinator(const StudyDescription& study, const std::vector<long>& pending, int ranks,
                       StudyWriter& writer, std::string* error) {
    size_t next = 0;
    int active = ranks - 1;
    std::vector<char> buffer;
    while (active > 0) {
        // Polled with pauses: a blocking probe spins, and rank 0 would take a core from the
        // ranks that compute (cases take milliseconds; a pause of 0.2 ms costs little).
        MPI_Status st;
        int arrived = 0;
        MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &arrived, &st);
        if (!arrived) {
            std::this_thread::sleep_for(std::chrono::microseconds(200));
            continue;
        }
        int count = 0;
        MPI_Get_count(&st, MPI_CHAR, &count);
        buffer.resize(size_t(std::max(count, 1)));
        MPI_Recv(buffer.data(), count, MPI_CHAR, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (st.MPI_TAG == kTagResult) {
            StudyRow row;
            std::string why;
            if (parseStudyRow(study, std::string(buffer.data(), size_t(count)), row, &why))
                writer.put(std::move(row));
            else if (error->empty())
                *error = "rank " + std::to_string(st.MPI_SOURCE) + " sent a row that does not parse: " + why;
        }
        long index = next < pending.size() ? pending[next++] : -1;
        MPI_Send(&index, 1, MPI_LONG, st.MPI_SOURCE, kTagWork, MPI_COMM_WORLD);
        if (index < 0) --active;
    }
}

// Ends the workers of a study that stopped before its cases were handed out (a bad --out):
// each has asked for work once and is told there is none.
void releaseMpiWorkers(int ranks) {
    for (int k = 1; k < ranks; ++k) {
        MPI_Status st;
        MPI_Recv(nullptr, 0, MPI_CHAR, MPI_ANY_SOURCE, kTagRequest, MPI_COMM_WORLD, &st);
        const long none = -1;
        MPI_Send(&none, 1, MPI_LONG, st.MPI_SOURCE, kTagWork, MPI_COMM_WORLD);
    }
}

void runMpiWorker(const StudyDescription& study) {
    MPI_Send(nullptr, 0, MPI_CHAR, 0, kTagRequest, MPI_COMM_WORLD);
    for (;;) {
        long index = -1;
        MPI_Recv(&index, 1, MPI_LONG, 0, kTagWork, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (index < 0) return;
        const std::string text = formatStudyRow(runStudyCase(study, index));
        MPI_Send(text.data(), static_cast<int>(text.size()), MPI_CHAR, 0, kTagResult, MPI_COMM_WORLD);
    }
}
#endif

// The whole study on this process (rank 0 under MPI): validation, resume, the cases, the
// output files. `ranks` > 1: the cases go to the other ranks.
int runStudyHere(const StudyOptions& o, const std::optional<StudyDescription>& study, int ranks, bool* coordinated) {
    const long total = studyCaseCount(*study);
    const std::string partialPath = o.out + ".partial";
    // Every output is checked before the first case runs: a study may take hours, and its
    // table is only written at the end.
    const std::vector<std::string> inputs = studyInputs(o.study, *study);
    for (const auto& [option, path] : {std::pair<const char*, std::string>{"--out", o.out}, {"--summary", o.summary}}) {
        if (path.empty()) continue;
        std::string clash = OutputFile::checkNotAnInput(option, path, inputs);
        if (clash.empty()) clash = OutputFile::checkCanCreate(option, path);
        if (!clash.empty()) return reportFailure(false, kBadInput, clash);
    }
    // The partial file is replaced, never written through (StudyWriter): a link there is
    // not followed, but the name itself must not be one of the inputs.
    if (const std::string clash = OutputFile::checkNotAnInput("--out's partial file", partialPath, inputs, false);
        !clash.empty())
        return reportFailure(false, kBadInput, clash);
    if (const std::string clash = OutputFile::checkDistinct(
            {{"--out", o.out}, {"--summary", o.summary}, {"--out's partial file", partialPath}});
        !clash.empty())
        return reportFailure(false, kBadInput, clash);
    std::vector<StudyRow> done;
    if (o.resume) {
        std::string error;
        std::ifstream probe(partialPath);
        const std::string from = probe ? partialPath : o.out;
        probe.close();
        if (!resumeRows(*study, from, done, &error)) return reportFailure(false, kBadInput, error);
    }
    std::vector<long> pending;
    for (long k = static_cast<long>(done.size()); k < total; ++k) pending.push_back(k);

    const auto t0 = std::chrono::steady_clock::now();
    StudyWriter writer(*study, total, std::move(done), partialPath);
    std::string mpiError;
#ifdef LOOPLAB_WITH_MPI
    if (ranks > 1) {
        runMpiCoordinator(*study, pending, ranks, writer, &mpiError);
        *coordinated = true;
    } else
#endif
    {
        (void)ranks;
        runOnThreads(*study, pending, o.threads, writer);
    }
    writer.progress(true);
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!mpiError.empty()) return reportFailure(false, kSolverFailure, mpiError);

    const std::vector<StudyRow> rows = writer.rows();
    OutputFile csv;
    std::string error;
    if (!csv.open(o.out, &error)) return reportFailure(false, kWriteFailure, error);
    csv.stream() << studyHeader(*study) << "\n";
    for (const StudyRow& r : rows) {
        csv.stream() << formatStudyRow(r) << "\n";
        csv.drain();
    }
    if (!csv.commit(&error)) return reportFailure(false, kWriteFailure, error);
    writer.closePartial();
    std::remove(partialPath.c_str());
    if (!o.summary.empty()) {
        OutputFile sum;
        if (!sum.open(o.summary, &error)) return reportFailure(false, kWriteFailure, error);
        sum.stream() << studySummaryJson(*study, summarizeStudy(*study, rows));
        if (!sum.commit(&error)) return reportFailure(false, kWriteFailure, error);
    }
    const long computed = static_cast<long>(pending.size());
    std::cerr << "study: " << rows.size() << " cases (" << computed << " run now, " << writer.failed()
              << " failed) in " << duration(wall);
    if (computed > 0 && wall > 0) {
        char buf[64];
        std::snprintf(buf, sizeof buf, ", %.3g cases/s", double(computed) / wall);
        std::cerr << buf;
    }
    std::cerr << (ranks > 1 ? " on " + std::to_string(ranks - 1) + " MPI worker ranks"
                            : " on " + std::to_string(o.threads) + " threads")
              << "\n";
    return kSuccess;
}

}  // namespace

int runStudy(const StudyOptions& o) {
    if (o.threads < 1) return reportFailure(false, kBadInput, "--threads must be at least 1");
    int rank = 0, ranks = 1;
#ifdef LOOPLAB_WITH_MPI
    const bool mpi = launchedByMpi();
    if (mpi) {
        MPI_Init(nullptr, nullptr);
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    }
#endif
    // Every rank reads the study (a shared file system, as batch clusters have); all agree
    // on whether it is valid, so that no rank waits for work that will never come.
    // The study's model is built once as the file is read, and once per case: one of
    // hundreds of thousands of coordinates is announced before that, as simulate announces
    // it (from the file's values: a parameter that refines a mesh is not counted).
    StudyFileResult read = readStudyFile(o.study, [rank](const ModelDocument& model) {
        if (rank != 0) return;
        if (const std::string w = largeModelWarning(model); !w.empty())
            std::cerr << "warning: " << w << "\n";
    });
    int valid = read.study && studyCaseCount(*read.study) > 0 ? 1 : 0;
    int rc = kSuccess;
#ifdef LOOPLAB_WITH_MPI
    if (mpi) MPI_Allreduce(MPI_IN_PLACE, &valid, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
#endif
    if (!valid) {
        if (rank == 0) {
            std::string message = read.study ? o.study + ": the study has no cases" : formatDiagnostics(read.diagnostics);
            while (!message.empty() && message.back() == '\n') message.pop_back();
            if (read.study || !read.diagnostics.empty()) std::cerr << message << "\n";
            else std::cerr << "error: another MPI rank cannot read " << o.study << "\n";
        }
        rc = kBadInput;
    } else if (rank == 0) {
        bool coordinated = false;
        rc = runStudyHere(o, read.study, ranks, &coordinated);
#ifdef LOOPLAB_WITH_MPI
        // A coordinator that stopped before handing out work still releases the workers.
        if (mpi && ranks > 1 && !coordinated) releaseMpiWorkers(ranks);
#endif
    }
#ifdef LOOPLAB_WITH_MPI
    else {
        runMpiWorker(*read.study);
    }
    if (mpi) MPI_Finalize();
#endif
    return rc;
}

}  // namespace looplab::cli
