#include "overlays/Trails.h"

#include "viewport/VtkViewport.h"

#include "looplab/kinematics/NodalOutputs.h"
#include "looplab/model/ModelDocument.h"
#include "looplab/scene/Scene.h"

#include <QAction>
#include <QInputDialog>
#include <QMenu>
#include <QMessageBox>

namespace looplab::ui {

Trails::Trails(VtkViewport* viewport, QWidget* dialogParent)
    : QObject(dialogParent), viewport_(viewport), dialogParent_(dialogParent)
{
}

QAction* Trails::addAction(QMenu* menu)
{
    action_ = menu->addAction(tr("&Trail of Selected Body"));
    action_->setCheckable(true);
    action_->setToolTip(tr("Draw the path of the selected body's centre of mass during runs and playback"));
    return action_;
}

void Trails::update(const Model* drawn, int selectedBody)
{
    updateNode(drawn);
    const int wanted = action_ && action_->isChecked() ? selectedBody : -1;
    if (wanted == body_)
        return;
    // The body frame's origin is its centre of mass.
    if (body_ >= 0)
        viewport_->setTrail(body_, Eigen::Vector3d::Zero(), false);
    if (wanted >= 0)
        viewport_->setTrail(wanted, Eigen::Vector3d::Zero(), true);
    body_ = wanted;
}

void Trails::forgetDrawn()
{
    body_ = -1;
    nodeBody_ = nodeIndex_ = -1;
}

void Trails::forgetAll()
{
    forgetDrawn();
    node_.clear();
}

void Trails::restart()
{
    if (nodeBody_ >= 0) {
        viewport_->setNodeTrail(nodeBody_, nodeIndex_, false);
        viewport_->setNodeTrail(nodeBody_, nodeIndex_, true);
    }
    if (body_ < 0)
        return;
    viewport_->setTrail(body_, Eigen::Vector3d::Zero(), false);
    viewport_->setTrail(body_, Eigen::Vector3d::Zero(), true);
}

void Trails::updateNode(const Model* drawn)
{
    // Found by name in the model drawn, so that the trail follows the node through edits
    // that renumber the bodies.
    int body = -1, node = -1;
    if (!node_.isEmpty() && drawn)
        if (const auto n = findMeshNode(*drawn, node_.toStdString())) {
            body = sceneBodyIndex(n->body);
            node = n->node;
        }
    if (body == nodeBody_ && node == nodeIndex_)
        return;
    if (nodeBody_ >= 0)
        viewport_->setNodeTrail(nodeBody_, nodeIndex_, false);
    nodeBody_ = nodeIndex_ = -1;
    if (body >= 0 && viewport_->setNodeTrail(body, node, true)) {
        nodeBody_ = body;
        nodeIndex_ = node;
    }
}

bool Trails::setNode(const QString& name, const Model* drawn, QString* error)
{
    const std::string node = name.trimmed().toStdString();
    if (node.empty()) {
        node_.clear();
        updateNode(drawn);
        return true;
    }
    if (!drawn || !findMeshNode(*drawn, node)) {
        if (error)
            *error = tr("'%1' is not a node of the model's beams or solids (nodes are named <beam>.node<k>, "
                        "<beam>.root, <beam>.tip or <solid>.node<i>_<j>_<k>)")
                         .arg(QString::fromStdString(node));
        return false;
    }
    const QString previous = node_;
    node_ = QString::fromStdString(node);
    updateNode(drawn);
    if (nodeBody_ < 0) {
        if (error)
            *error = tr("'%1' is an inner node of a solid, which the view does not draw: choose a node on its surface")
                         .arg(node_);
        node_ = previous;
        updateNode(drawn);
        return false;
    }
    return true;
}

void Trails::chooseNode(const QString& member, const ModelDocument& doc, const Model* drawn)
{
    // The nodes worth offering: a beam's ends and nodes, a solid's corners; any other
    // node may be typed.
    QStringList names;
    for (const BeamDoc& b : doc.beams)
        if (QString::fromStdString(b.name) == member) {
            names << member + ".tip" << member + ".root";
            for (int k = 1; k < b.elements && k <= 64; ++k)
                names << QString("%1.node%2").arg(member).arg(k);
        }
    for (const SolidDoc& b : doc.solids)
        if (QString::fromStdString(b.name) == member)
            for (int k : {0, b.elements[2]})
                for (int j : {0, b.elements[1]})
                    for (int i : {0, b.elements[0]})
                        names << QString("%1.node%2_%3_%4").arg(member).arg(i).arg(j).arg(k);
    bool ok = false;
    const QString name = QInputDialog::getItem(dialogParent_, tr("Trail of a Node"),
                                               tr("Node whose path is drawn during runs and playback:"), names, 0,
                                               true, &ok);
    if (!ok)
        return;
    QString error;
    if (!setNode(name, drawn, &error))
        QMessageBox::warning(dialogParent_, tr("Trail of a Node"), error);
}

}  // namespace looplab::ui
