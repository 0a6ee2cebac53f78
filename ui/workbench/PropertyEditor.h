#pragma once
// Typed editors for the selected item of the document: spin boxes with units for
// numbers, three spin boxes for vectors, axis and angle for orientations, combo boxes
// for types and for the bodies and joints an item refers to, a line of numbers for a
// polynomial's coefficients. Each change becomes one undoable document edit; stepping
// the same field repeatedly merges into one undo step. Input that cannot become a
// document value (a zero rotation axis, a word among numbers) is refused with a message
// in the loader's words, and the document keeps its value.
//
// Markers are not items of their own: joints name them, so a joint defined by markers
// shows a choice of the model's markers for each end ("marker1", "marker2") and the
// editors of the two markers it names.
//
// Beams and solids are edited field by field like the other items (end points, element
// counts, section, material); a value with which the member would not build is refused
// with the model builder's reason and location, and the document keeps its value.
//
// A node set's nodes are typed as one line of node names ("beam.tip, beam.node4"); a list
// the model cannot build (an unknown node, none, one twice) is refused whole with the
// builder's reason, as is a name already taken.
//
// Each editor widget is named after its field ("mass", "position.x", "body1",
// "orientation.angle", "marker1.position.x", "law.coefficients", ...) so that tests and
// accessibility tools can find it.

#include "document/DocumentOperations.h"

#include <QWidget>

#include <functional>
#include <string>
#include <vector>

class QFormLayout;
class QLabel;
class QScrollArea;

namespace looplab::ui {

class WorkbenchDocument;

class PropertyEditor : public QWidget {
    Q_OBJECT

public:
    explicit PropertyEditor(WorkbenchDocument* document, QWidget* parent = nullptr);

    /// Shows the editors of `item`; an invalid reference shows the model's own
    /// properties (name, gravity).
    void setItem(ItemRef item);
    ItemRef item() const { return item_; }
    /// Why the last input was refused ("/bodies/0/orientation: axis has zero length; ..."),
    /// or empty. Cleared by the next edit, document change or selection.
    QString message() const;

private:
    using Getter = std::function<double(const ModelDocument&)>;
    using Setter = std::function<void(ModelDocument&, double)>;
    using VecGetter = std::function<Vec3(const ModelDocument&)>;
    using VecSetter = std::function<void(ModelDocument&, const Vec3&)>;
    using TextGetter = std::function<QString(const ModelDocument&)>;
    using TextSetter = std::function<void(ModelDocument&, const QString&)>;
    using QuatGetter = std::function<Quat(const ModelDocument&)>;
    using QuatSetter = std::function<void(ModelDocument&, const Quat&)>;
    using LocationGetter = std::function<std::string(const ModelDocument&)>;
    using LawGetter = std::function<const TimeLaw*(const ModelDocument&)>;
    using LawAccess = std::function<TimeLaw*(ModelDocument&)>;

    /// The fields of one kind of item (PropertyEditor.cpp).
    struct KindEditor;
    static const KindEditor& editorOf(ItemKind kind);

    void rebuild();
    void refresh();
    void onDocumentChanged(bool structural);
    QString signature() const;

    void addName();
    void addNumber(const QString& label, const QString& key, const QString& unit, Getter get, Setter set,
                   double minimum = -1e9, double maximum = 1e9, int decimals = 6);
    void addVector(const QString& label, const QString& key, const QString& unit, VecGetter get, VecSetter set);
    /// A line of text, committed when editing finishes.
    void addText(const QString& label, const QString& key, TextGetter get, TextSetter set);
    void addChoice(const QString& label, const QString& key, const QStringList& options, TextGetter get,
                   TextSetter set);
    void addOrientation(const QString& label, const QString& key, LocationGetter location, QuatGetter get,
                        QuatSetter set);
    void addMarkerFields(const QString& label, const QString& key, std::string JointDoc::*marker);
    void addLawFields(const std::string& location, LawGetter get, LawAccess access);
    void addCoefficients(const std::string& location, LawGetter get, LawAccess access);
    void addBodyFields();
    void addJointFields();
    void addDriverFields();
    void addForceFields();
    void addBeamFields();
    void addSolidFields();
    /// The node names of a node set as one line of text, checked by the model builder.
    void addNodeSetFields();
    // CouplerFields.cpp
    void addCouplerFields();
    void addCamFields();
    /// Which fields a coupler shows: its type, how a gear is sized, its joint count.
    static QString couplerSignature(const CouplerDoc& coupler);
    /// E, ν and ρ of the selected beam or solid.
    void addMaterialFields();
    /// A number typed in full (a modulus of 2.1e11 Pa, a second moment of 1e-8 m⁴), which
    /// a spin box's fixed decimals and range could not hold.
    void addExactNumber(const QString& label, const QString& key, const QString& unit, const std::string& location,
                        Getter get, Setter set);
    /// A whole number of elements from 1 to `maximum`.
    void addCount(const QString& label, const QString& key, int maximum, std::function<int(const ModelDocument&)> get,
                  std::function<void(ModelDocument&, int)> set);
    void addModelFields();

    void commit(const QString& key, const std::function<void(ModelDocument&)>& change);
    void refuse(const std::string& location, const QString& why);
    void clearMessage();
    QStringList bodyChoices() const;
    QStringList jointChoices() const;
    QStringList markerChoices() const;

    WorkbenchDocument* document_;
    ItemRef item_;
    QString signature_;
    QScrollArea* scroll_ = nullptr;
    QWidget* form_ = nullptr;
    QFormLayout* layout_ = nullptr;
    QLabel* title_ = nullptr;
    QLabel* message_ = nullptr;
    std::vector<std::function<void()>> refreshers_;
};

}  // namespace looplab::ui
