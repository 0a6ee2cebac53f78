#pragma once
// A thread of its own for work the window must not wait for: simulations, modes, method
// comparisons, studies. Works run there one at a time, in the order they were started,
// each with a cancellation flag of its own, so a work given up on ends at its next check
// while a newer one waits behind it instead of sharing its state. Everything a work hands
// back (progress, results) and the end of each work reach the GUI thread as queued calls
// on this object: they arrive in the order they were posted, and never once the job is
// gone, since its destructor cancels what runs and waits for the thread before the posted
// calls still pending are dropped with it.
//
// An owner that keeps the job as a member declares it last: it is destroyed first, so the
// thread has ended before anything else of the owner that a work may still be using.

#include <QObject>
#include <QString>
#include <QThread>

#include <atomic>
#include <functional>
#include <map>
#include <memory>

namespace looplab::ui {

class BackgroundJob : public QObject {
    Q_OBJECT

public:
    /// One start of a work as the work sees it, in the worker thread.
    class Run {
    public:
        int id() const { return id_; }
        bool isCancelled() const { return cancelled_->load(); }
        /// The flag itself, for the core's loops that poll one between steps.
        const std::atomic<bool>* cancelFlag() const { return cancelled_.get(); }
        /// Calls `call` on the GUI thread, after whatever this job posted before it.
        void post(std::function<void()> call) const;

    private:
        friend class BackgroundJob;
        Run(BackgroundJob* job, int id, std::shared_ptr<std::atomic<bool>> cancelled)
            : job_(job), id_(id), cancelled_(std::move(cancelled)) {}

        BackgroundJob* job_;
        int id_;
        std::shared_ptr<std::atomic<bool>> cancelled_;
    };
    /// Runs in the worker thread; it must not throw (nothing would report its end). It is
    /// called even when cancelled before it began, so that it can say so in its own result.
    using Work = std::function<void(const Run&)>;

    /// What start() does while an earlier work has not finished.
    enum class IfBusy {
        Refuse,   ///< starts nothing and returns 0
        Replace,  ///< cancels the earlier works; the new one runs once they have ended
    };
    enum class Priority {
        Normal,
        /// On Linux the thread runs at nice 10: the window, the renderer and the display
        /// server come first.
        BelowWindow,
    };

    explicit BackgroundJob(const QString& threadName, Priority priority = Priority::Normal,
                           QObject* parent = nullptr);
    /// Cancels every work and waits for the one in progress to return (never terminates it).
    ~BackgroundJob() override;

    /// Queues `work` on the thread (started on first use); returns its id, counted from 1.
    int start(Work work, IfBusy ifBusy);
    /// Sets the flag of every work started and not yet finished. Answers at once.
    void cancel();
    /// From start() until finished() of the last work started.
    bool isRunning() const { return finishedThrough_ < lastId_; }

    /// Called on the GUI thread after each cancellation (cancel(), a replacing start, the
    /// destructor), for a work that waits on something other than its flag (a condition
    /// variable) and must be woken to see it.
    void setOnCancel(std::function<void()> onCancel) { onCancel_ = std::move(onCancel); }

signals:
    /// Work `id` returned; `cancelled` if its flag was set by then. Once per start, after
    /// everything the work posted.
    void finished(int id, bool cancelled);

private:
    void ended(int id, bool cancelled);

    QString threadName_;
    Priority priority_;
    QThread thread_;
    QObject* context_ = nullptr;  ///< lives in thread_; works are queued calls on it
    int lastId_ = 0;
    int finishedThrough_ = 0;
    /// The flags of the works started and not yet finished, by id.
    std::map<int, std::shared_ptr<std::atomic<bool>>> flags_;
    std::function<void()> onCancel_;
};

}  // namespace looplab::ui
