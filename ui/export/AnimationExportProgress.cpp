#include "export/AnimationExportProgress.h"

#include "export/AnimationExportJob.h"

#include <QEventLoop>
#include <QProgressDialog>

namespace looplab::ui {

bool runAnimationExport(AnimationExportJob& job, QWidget* parent, QString* error) {
    QProgressDialog progress(QObject::tr("Rendering and encoding the animation…"), QObject::tr("Cancel"), 0, 1, parent);
    progress.setObjectName("animationExportProgress");
    progress.setWindowModality(Qt::WindowModal);
    progress.setMinimumDuration(300);
    bool ok = false;
    QString message;
    QEventLoop loop;
    QObject::connect(&job, &AnimationExportJob::progress, &progress, [&progress](int done, int total) {
        progress.setMaximum(total);
        progress.setValue(done);
    });
    QObject::connect(&progress, &QProgressDialog::canceled, &job, &AnimationExportJob::cancel);
    QObject::connect(&job, &AnimationExportJob::finished, &loop, [&](bool success, const QString& why) {
        ok = success;
        message = why;
        loop.quit();
    });
    if (!job.start(&message)) {
        if (error) *error = message;
        return false;
    }
    loop.exec();
    progress.reset();
    if (error) *error = message;
    return ok;
}

}  // namespace looplab::ui
