#pragma once
// The paths the view draws during runs and playback: the selected rigid body's centre of
// mass (View → Trail of Selected Body) and one node of a beam or solid chosen by name
// (the tree's "Trail of a Node…"). The node is kept by name across edits and followed while
// the model drawn has such a node; the trails start over when the view's solids are new.

#include <QObject>
#include <QString>

class QAction;
class QMenu;
class QWidget;

namespace looplab {
struct Model;
struct ModelDocument;
}

namespace looplab::ui {

class VtkViewport;

class Trails : public QObject {
    Q_OBJECT
public:
    Trails(VtkViewport* viewport, QWidget* dialogParent);

    /// Adds the checkable "Trail of Selected Body" action to `menu`; the window calls
    /// update() when it toggles.
    QAction* addAction(QMenu* menu);
    QAction* action() const { return action_; }

    /// The model the view draws (null: none) and the viewport index of the selected rigid
    /// body (−1: none): the trails follow them.
    void update(const Model* drawn, int selectedBody);
    /// The view's solids are new: their trails went with the old ones.
    void forgetDrawn();
    /// Another model: also the node's name goes.
    void forgetAll();
    /// The trails start again at the frame shown (after a jump back in time).
    void restart();
    /// Whether any trail is drawn, so that every frame of a batch must be shown.
    bool any() const { return body_ >= 0 || nodeBody_ >= 0; }

    int body() const { return body_; }
    QString node() const { return node_; }
    /// Makes the node `name` ("beam.tip", "box.node2_0_1") of the model drawn leave a trail;
    /// an empty name removes it. False, with the reason in `error`, for a name that is no
    /// node of the model drawn, or an inner node of a solid (not drawn).
    bool setNode(const QString& name, const Model* drawn, QString* error = nullptr);
    /// Asks for a node of the beam or solid `member` of `doc` to trail.
    void chooseNode(const QString& member, const ModelDocument& doc, const Model* drawn);

private:
    void updateNode(const Model* drawn);

    VtkViewport* viewport_;
    QWidget* dialogParent_;
    QAction* action_ = nullptr;
    int body_ = -1;
    QString node_;
    int nodeBody_ = -1;
    int nodeIndex_ = -1;
};

}  // namespace looplab::ui
