#include "workbench/PropertyEditor.h"

#include "plotting/DisplayUnits.h"
#include "looplab/model/ShapeMassProperties.h"

#include "workbench/FlexibleMemberCheck.h"
#include "document/WorkbenchDocument.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include <array>

namespace looplab::ui {

namespace {

QString kindLabel(ItemKind kind)
{
    switch (kind) {
    case ItemKind::Body: return QObject::tr("Body");
    case ItemKind::Joint: return QObject::tr("Joint");
    case ItemKind::Driver: return QObject::tr("Driver");
    case ItemKind::Force: return QObject::tr("Force");
    case ItemKind::Beam: return QObject::tr("Beam");
    case ItemKind::Solid: return QObject::tr("Solid");
    case ItemKind::NodeSet: return QObject::tr("Node set");
    case ItemKind::Coupler: return QObject::tr("Coupler");
    }
    return {};
}

QDoubleSpinBox* makeSpin(const QString& unit, double minimum, double maximum, int decimals)
{
    auto* spin = new QDoubleSpinBox;
    spin->setRange(minimum, maximum);
    spin->setDecimals(decimals);
    spin->setSingleStep(decimals > 3 ? 0.01 : 1.0);
    if (!unit.isEmpty())
        spin->setSuffix(" " + unit);
    // Without this every typed digit would become a separate edit and rebuild.
    spin->setKeyboardTracking(false);
    spin->setAccelerated(true);
    return spin;
}

QStringList jointTypeNames()
{
    QStringList names;
    for (JointType type : jointTypes())
        names << jointTypeName(type);
    return names;
}

QStringList forceTypeNames()
{
    QStringList names;
    for (int t = 0; t <= static_cast<int>(ForceType::BodyTorque); ++t)
        names << forceTypeName(static_cast<ForceType>(t));
    return names;
}

QStringList lawKindNames()
{
    QStringList names;
    for (int k = 0; k <= static_cast<int>(TimeLaw::Kind::SmoothStep); ++k)
        names << timeLawKindName(static_cast<TimeLaw::Kind>(k));
    return names;
}

QStringList shapeKindNames()
{
    QStringList names;
    for (int k = 0; k <= static_cast<int>(VisualShape::Kind::Mesh); ++k)
        names << visualShapeKindName(static_cast<VisualShape::Kind>(k));
    return names;
}

QString str(const std::string& s) { return QString::fromStdString(s); }

/// JSON pointer of a field, as the loader reports it: "/bodies/0/orientation".
std::string pointer(const char* list, size_t index, const char* field)
{
    return std::string("/") + list + "/" + std::to_string(index) + "/" + field;
}

constexpr const char* kNoLaw = "none";

}  // namespace

PropertyEditor::PropertyEditor(WorkbenchDocument* document, QWidget* parent)
    : QWidget(parent), document_(document)
{
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(4, 4, 4, 4);
    title_ = new QLabel;
    title_->setStyleSheet("font-weight: bold");
    outer->addWidget(title_);
    message_ = new QLabel;
    message_->setObjectName("message");
    message_->setWordWrap(true);
    // The message quotes what the user typed, which must not be read as markup.
    message_->setTextFormat(Qt::PlainText);
    message_->setStyleSheet("color: #b3261e");
    message_->hide();
    outer->addWidget(message_);
    scroll_ = new QScrollArea;
    scroll_->setWidgetResizable(true);
    scroll_->setFrameShape(QFrame::NoFrame);
    outer->addWidget(scroll_);
    connect(document_, &WorkbenchDocument::documentChanged, this, &PropertyEditor::onDocumentChanged);
    connect(&DisplayUnits::instance(), &DisplayUnits::changed, this, &PropertyEditor::rebuild);
    rebuild();
}

void PropertyEditor::setItem(ItemRef item)
{
    item_ = item;
    rebuild();
}

QString PropertyEditor::signature() const
{
    const ModelDocument& doc = document_->document();
    if (!item_.valid() || item_.index >= itemCount(doc, item_.kind))
        return "model";
    const auto i = static_cast<size_t>(item_.index);
    QString type;
    switch (item_.kind) {
    case ItemKind::Body: type = visualShapeKindName(doc.bodies[i].shape.kind); break;
    case ItemKind::Joint: {
        // Which markers a joint names decides which marker editors it shows.
        const JointDoc& j = doc.joints[i];
        type = jointTypeName(j.type);
        if (j.byMarkers)
            type += QString("/%1/%2").arg(str(j.marker1), str(j.marker2));
        break;
    }
    case ItemKind::Driver: type = timeLawKindName(doc.drivers[i].law.kind); break;
    case ItemKind::Force: {
        const ForceDoc& f = doc.forces[i];
        type = QString("%1/%2").arg(QString(forceTypeName(f.type)),
                                    QString(f.law ? timeLawKindName(f.law->kind) : kNoLaw));
        break;
    }
    // Which section fields a beam shows depends on its section's shape.
    case ItemKind::Beam: type = QString::number(static_cast<int>(doc.beams[i].section.shape)); break;
    case ItemKind::Solid: type = "solid"; break;
    case ItemKind::NodeSet: type = "node set"; break;
    case ItemKind::Coupler: type = couplerSignature(doc.couplers[i]); break;
    }
    return QString("%1/%2/%3").arg(static_cast<int>(item_.kind)).arg(item_.index).arg(type);
}

void PropertyEditor::rebuild()
{
    refreshers_.clear();
    if (form_) {
        // The old form may hold the sender of the signal that led here, so it must
        // outlive this call: take it back from the scroll area, which would delete it
        // at once in setWidget(). Its editors lose the focus on the way and must be able
        // to tell that they no longer belong to the current form.
        QWidget* old = form_;
        form_ = nullptr;
        scroll_->takeWidget();
        old->hide();
        old->deleteLater();
    }
    clearMessage();
    form_ = new QWidget;
    layout_ = new QFormLayout(form_);
    layout_->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    signature_ = signature();

    const ModelDocument& doc = document_->document();
    if (!item_.valid() || item_.index >= itemCount(doc, item_.kind)) {
        item_ = {};
        title_->setText(tr("Model"));
        addModelFields();
    } else {
        title_->setText(QString("%1 %2").arg(kindLabel(item_.kind), str(itemName(doc, item_))));
        addName();
        switch (item_.kind) {
        case ItemKind::Body: addBodyFields(); break;
        case ItemKind::Joint: addJointFields(); break;
        case ItemKind::Driver: addDriverFields(); break;
        case ItemKind::Force: addForceFields(); break;
        case ItemKind::Beam: addBeamFields(); break;
        case ItemKind::Solid: addSolidFields(); break;
        case ItemKind::NodeSet: addNodeSetFields(); break;
        case ItemKind::Coupler: addCouplerFields(); break;
        }
    }
    scroll_->setWidget(form_);
    refresh();
}

void PropertyEditor::refresh()
{
    if (item_.valid())
        title_->setText(QString("%1 %2").arg(kindLabel(item_.kind), str(itemName(document_->document(), item_))));
    for (const auto& r : refreshers_)
        r();
}

void PropertyEditor::onDocumentChanged(bool structural)
{
    // The editors now show the document again, not the refused input.
    clearMessage();
    if (structural || signature() != signature_)
        rebuild();
    else
        refresh();
}

void PropertyEditor::commit(const QString& key, const std::function<void(ModelDocument&)>& change)
{
    clearMessage();
    if (item_.kind == ItemKind::Beam || item_.kind == ItemKind::Solid) {
        // A member that already does not build (a recovered journal) stays editable field
        // by field; one that builds is never broken by an edit.
        const ModelDocument& current = document_->document();
        ModelDocument probe = current;
        change(probe);
        if (const auto problem = flexibleMemberProblem(probe, item_); problem && !flexibleMemberProblem(current, item_)) {
            // The editors show the document's value again; the message says what was refused.
            refresh();
            refuse(problem->location, tr("%1; the value is unchanged").arg(str(problem->message)));
            return;
        }
    }
    if (item_.kind == ItemKind::NodeSet) {
        // A node set is refused whole: an unknown node, none at all or one listed twice
        // would leave a set the model cannot build. One that already does not build (a
        // recovered journal) stays editable.
        ModelDocument probe = document_->document();
        change(probe);
        const auto problem = nodeSetProblem(probe, item_);
        if (problem && !nodeSetProblem(document_->document(), item_)) {
            refuse(problem->location, tr("%1; the node set is unchanged").arg(str(problem->message)));
            return;
        }
    }
    const QString what = item_.valid() ? str(itemName(document_->document(), item_)) : tr("model");
    const QString mergeKey = QString("%1/%2/%3").arg(static_cast<int>(item_.kind)).arg(item_.index).arg(key);
    document_->edit(tr("Change %1 of %2").arg(key, what), change, mergeKey);
}

void PropertyEditor::refuse(const std::string& location, const QString& why)
{
    message_->setText(QString("%1: %2").arg(str(location), why));
    message_->show();
}

void PropertyEditor::clearMessage()
{
    message_->clear();
    message_->hide();
}

QString PropertyEditor::message() const { return message_->text(); }

void PropertyEditor::addName()
{
    auto* edit = new QLineEdit;
    edit->setObjectName("name");
    layout_->addRow(tr("Name"), edit);
    const ItemRef item = item_;
    refreshers_.push_back([this, edit, item] {
        QSignalBlocker block(edit);
        edit->setText(str(itemName(document_->document(), item)));
    });
    connect(edit, &QLineEdit::editingFinished, this, [this, edit, item] {
        const std::string name = edit->text().trimmed().toStdString();
        ModelDocument probe = document_->document();
        if (name == itemName(probe, item))
            return;
        if (!renameItem(probe, item, name)) {
            // Refused (empty or taken): show the name the item still has.
            refresh();
            if (item.kind == ItemKind::NodeSet) {
                // Say why, in the loader's words: a set's name may be taken by many kinds of
                // things (another set, a body, a node, a face).
                ModelDocument named = document_->document();
                named.nodeSets[static_cast<size_t>(item.index)].name = name;
                const auto problem = nodeSetProblem(named, item);
                refuse(problem ? problem->location : pointer("node_sets", static_cast<size_t>(item.index), "name"),
                       tr("%1; the name is unchanged")
                           .arg(problem ? str(problem->message) : tr("the name '%1' is taken").arg(str(name))));
            }
            return;
        }
        document_->edit(tr("Rename %1").arg(str(name)),
                        [item, name](ModelDocument& doc) { renameItem(doc, item, name); });
    });
}

void PropertyEditor::addNumber(const QString& label, const QString& key, const QString& unit, Getter get,
                               Setter set, double minimum, double maximum, int decimals)
{
    // Angles and angular rates in the units the user chose (the document stays in SI).
    const UnitChoice& units = DisplayUnits::instance().choice();
    const double k = units.factor(unit);
    auto* spin = makeSpin(units.unit(unit), k * minimum, k * maximum, decimals);
    spin->setObjectName(key);
    layout_->addRow(label, spin);
    refreshers_.push_back([this, spin, get, k] {
        QSignalBlocker block(spin);
        spin->setValue(k * get(document_->document()));
    });
    connect(spin, &QDoubleSpinBox::valueChanged, this, [this, key, set, k](double value) {
        commit(key, [set, value, k](ModelDocument& doc) { set(doc, value / k); });
    });
}

void PropertyEditor::addVector(const QString& label, const QString& key, const QString& unit, VecGetter get,
                               VecSetter set)
{
    auto* row = new QWidget;
    auto* h = new QHBoxLayout(row);
    h->setContentsMargins(0, 0, 0, 0);
    h->setSpacing(2);
    static const char* axes[3] = {"x", "y", "z"};
    std::array<QDoubleSpinBox*, 3> spins{};
    const UnitChoice& units = DisplayUnits::instance().choice();
    const double k = units.factor(unit);
    for (int c = 0; c < 3; ++c) {
        spins[static_cast<size_t>(c)] = makeSpin(units.unit(unit), -1e9, 1e9, 6);
        // Three boxes share one row: arrows would leave too little room for the digits.
        spins[static_cast<size_t>(c)]->setButtonSymbols(QAbstractSpinBox::NoButtons);
        spins[static_cast<size_t>(c)]->setMinimumWidth(40);
        spins[static_cast<size_t>(c)]->setObjectName(key + "." + axes[c]);
        spins[static_cast<size_t>(c)]->setToolTip(QString("%1 %2").arg(label, axes[c]));
        h->addWidget(spins[static_cast<size_t>(c)]);
    }
    layout_->addRow(label, row);
    refreshers_.push_back([this, spins, get, k] {
        const Vec3 v = get(document_->document());
        for (int c = 0; c < 3; ++c) {
            QSignalBlocker block(spins[static_cast<size_t>(c)]);
            spins[static_cast<size_t>(c)]->setValue(k * v[c]);
        }
    });
    for (int c = 0; c < 3; ++c) {
        connect(spins[static_cast<size_t>(c)], &QDoubleSpinBox::valueChanged, this,
                [this, key, get, set, c, k](double value) {
                    commit(key + "." + axes[c], [get, set, c, value, k](ModelDocument& doc) {
                        Vec3 v = get(doc);
                        v[c] = value / k;
                        set(doc, v);
                    });
                });
    }
}

void PropertyEditor::addText(const QString& label, const QString& key, TextGetter get, TextSetter set)
{
    auto* edit = new QLineEdit;
    edit->setObjectName(key);
    layout_->addRow(label, edit);
    refreshers_.push_back([this, edit, get] {
        QSignalBlocker block(edit);
        edit->setText(get(document_->document()));
    });
    connect(edit, &QLineEdit::editingFinished, this, [this, edit, key, get, set] {
        const QString value = edit->text().trimmed();
        if (value == get(document_->document()))
            return;
        commit(key, [set, value](ModelDocument& doc) { set(doc, value); });
    });
}

void PropertyEditor::addChoice(const QString& label, const QString& key, const QStringList& options,
                               TextGetter get, TextSetter set)
{
    auto* combo = new QComboBox;
    combo->setObjectName(key);
    combo->addItems(options);
    layout_->addRow(label, combo);
    refreshers_.push_back([this, combo, get] {
        QSignalBlocker block(combo);
        const QString value = get(document_->document());
        int i = combo->findText(value);
        if (i < 0 && !value.isEmpty()) {
            // A dangling reference is shown as it is, so the user sees what is wrong.
            combo->addItem(value);
            i = combo->count() - 1;
        }
        combo->setCurrentIndex(i);
    });
    connect(combo, &QComboBox::currentTextChanged, this, [this, key, set](const QString& value) {
        commit(key, [set, value](ModelDocument& doc) { set(doc, value); });
    });
}

void PropertyEditor::addOrientation(const QString& label, const QString& key, LocationGetter location,
                                    QuatGetter get, QuatSetter set)
{
    auto* row = new QWidget;
    auto* h = new QHBoxLayout(row);
    h->setContentsMargins(0, 0, 0, 0);
    h->setSpacing(2);
    static const char* axes[3] = {"x", "y", "z"};
    std::array<QDoubleSpinBox*, 3> axis{};
    for (int c = 0; c < 3; ++c) {
        auto* spin = makeSpin("", -1e9, 1e9, 6);
        spin->setButtonSymbols(QAbstractSpinBox::NoButtons);
        spin->setMinimumWidth(40);
        spin->setObjectName(key + ".axis." + axes[c]);
        spin->setToolTip(tr("%1: rotation axis %2 (any length but zero)").arg(label, axes[c]));
        h->addWidget(spin);
        axis[static_cast<size_t>(c)] = spin;
    }
    layout_->addRow(tr("%1 axis").arg(label), row);
    auto* angle = makeSpin("°", -360.0, 360.0, 6);
    angle->setSingleStep(1.0);
    angle->setObjectName(key + ".angle");
    angle->setToolTip(tr("%1: rotation angle about the axis, in degrees").arg(label));
    layout_->addRow(tr("%1 angle").arg(label), angle);
    auto* quaternion = new QLineEdit;
    quaternion->setReadOnly(true);
    quaternion->setObjectName(key + ".quaternion");
    quaternion->setToolTip(tr("%1 as stored in the model: unit quaternion w x y z").arg(label));
    layout_->addRow(tr("Quaternion (w x y z)"), quaternion);

    auto shown = [axis, angle](Quat& q) {
        return quaternionFromAxisAngle(Vec3(axis[0]->value(), axis[1]->value(), axis[2]->value()), angle->value(), q);
    };
    refreshers_.push_back([this, axis, angle, quaternion, get, shown] {
        const Quat stored = get(document_->document());
        quaternion->setText(str(formatNumberList({stored.w(), stored.x(), stored.y(), stored.z()}, " ")));
        // w first: a text longer than the box would otherwise show only its end.
        quaternion->setCursorPosition(0);
        // A rotation has many axis–angle forms ((0, 0, 2) at 90°, any axis at 0°): keep the
        // one the user typed while it still describes what is stored.
        Quat q;
        if (shown(q) && sameRotation(q, stored))
            return;
        const AxisAngle value = axisAngleOf(stored);
        for (int c = 0; c < 3; ++c) {
            QSignalBlocker block(axis[static_cast<size_t>(c)]);
            axis[static_cast<size_t>(c)]->setValue(value.axis[c]);
        }
        QSignalBlocker block(angle);
        angle->setValue(value.degrees);
    });
    // The typed axis stays in its boxes when refused, so that it can be completed (an axis
    // passes through zero on the way from x to z); the quaternion row shows what is kept.
    auto apply = [this, key, location, set, shown](const QString& field) {
        Quat q;
        if (!shown(q)) {
            refuse(location(document_->document()), tr("axis has zero length; the orientation is unchanged"));
            return;
        }
        commit(key + "." + field, [set, q](ModelDocument& doc) { set(doc, q); });
    };
    for (int c = 0; c < 3; ++c)
        connect(axis[static_cast<size_t>(c)], &QDoubleSpinBox::valueChanged, this,
                [apply, c] { apply(QString("axis.") + axes[c]); });
    connect(angle, &QDoubleSpinBox::valueChanged, this, [apply] { apply("angle"); });
}

void PropertyEditor::addMarkerFields(const QString& label, const QString& key, std::string JointDoc::*marker)
{
    const auto i = static_cast<size_t>(item_.index);
    // Re-pointing the joint at another marker changes the signature, so the editors
    // below are made again for the marker chosen.
    addChoice(label, key, markerChoices(), [i, marker](const ModelDocument& d) { return str(d.joints[i].*marker); },
              [i, marker](ModelDocument& d, const QString& v) { d.joints[i].*marker = v.toStdString(); });
    const std::string name = document_->document().joints[i].*marker;
    if (markerIndex(document_->document(), name) < 0) {
        layout_->addRow(QString(), new QLabel(tr("'%1' is not a marker of the model").arg(str(name))));
        return;
    }
    // Found by name at each use, as the builder resolves it, so the editors follow the
    // joint's reference through undo and redo.
    auto find = [i, marker](const ModelDocument& d) { return markerIndex(d, d.joints[i].*marker); };
    auto* header = new QLabel;
    header->setWordWrap(true);
    header->setTextFormat(Qt::PlainText);
    layout_->addRow(QString(), header);
    refreshers_.push_back([this, header, find, i] {
        const ModelDocument& d = document_->document();
        const int m = find(d);
        if (m < 0)
            return;
        const MarkerDoc& mk = d.markers[static_cast<size_t>(m)];
        QString text = tr("%1 on %2, in its body frame").arg(str(mk.name), str(mk.body));
        QStringList others;
        for (const std::string& joint : jointsUsingMarker(d, mk.name))
            if (joint != d.joints[i].name)
                others << str(joint);
        // Editing a shared marker moves the other joints too; say so before it happens.
        if (!others.isEmpty())
            text += tr("; also used by %1").arg(others.join(", "));
        header->setText(text);
    });
    addVector(tr("Position"), key + ".position", "m",
              [find](const ModelDocument& d) {
                  const int m = find(d);
                  return m < 0 ? Vec3(Vec3::Zero()) : d.markers[static_cast<size_t>(m)].position;
              },
              [find](ModelDocument& d, const Vec3& v) {
                  const int m = find(d);
                  if (m >= 0)
                      d.markers[static_cast<size_t>(m)].position = v;
              });
    addOrientation(tr("Orientation"), key + ".orientation",
                   [find](const ModelDocument& d) {
                       return pointer("markers", static_cast<size_t>(std::max(find(d), 0)), "orientation");
                   },
                   [find](const ModelDocument& d) {
                       const int m = find(d);
                       return m < 0 ? Quat(Quat::Identity()) : d.markers[static_cast<size_t>(m)].orientation;
                   },
                   [find](ModelDocument& d, const Quat& q) {
                       const int m = find(d);
                       if (m >= 0)
                           d.markers[static_cast<size_t>(m)].orientation = q;
                   });
}

void PropertyEditor::addLawFields(const std::string& location, LawGetter get, LawAccess access)
{
    const TimeLaw* current = get(document_->document());
    if (!current)
        return;
    auto law = [this, get, access](const QString& label, const QString& key, const QString& unit,
                                   double TimeLaw::*field) {
        addNumber(label, key, unit,
                  [get, field](const ModelDocument& d) {
                      const TimeLaw* l = get(d);
                      return l ? l->*field : 0.0;
                  },
                  [access, field](ModelDocument& d, double v) {
                      if (TimeLaw* l = access(d))
                          l->*field = v;
                  });
    };
    switch (current->kind) {
    case TimeLaw::Kind::Constant: law(tr("Value"), "law.initial", "", &TimeLaw::initial); break;
    case TimeLaw::Kind::ConstantVelocity:
        law(tr("Initial"), "law.initial", "", &TimeLaw::initial);
        law(tr("Rate"), "law.rate", "/s", &TimeLaw::rate);
        break;
    case TimeLaw::Kind::Polynomial: addCoefficients(location + "/coefficients", get, access); break;
    case TimeLaw::Kind::Harmonic:
        law(tr("Offset"), "law.offset", "", &TimeLaw::offset);
        law(tr("Amplitude"), "law.amplitude", "", &TimeLaw::amplitude);
        law(tr("Frequency"), "law.frequency", "rad/s", &TimeLaw::frequency);
        law(tr("Phase"), "law.phase", "rad", &TimeLaw::phase);
        break;
    case TimeLaw::Kind::SmoothStep:
        law(tr("Start time"), "law.t0", "s", &TimeLaw::t0);
        law(tr("Start value"), "law.h0", "", &TimeLaw::h0);
        law(tr("End time"), "law.t1", "s", &TimeLaw::t1);
        law(tr("End value"), "law.h1", "", &TimeLaw::h1);
        break;
    }
}

void PropertyEditor::addCoefficients(const std::string& location, LawGetter get, LawAccess access)
{
    auto* edit = new QLineEdit;
    edit->setObjectName("law.coefficients");
    edit->setPlaceholderText(tr("c0, c1, c2, …"));
    edit->setToolTip(tr("s(t) = c0 + c1·t + c2·t² + …: numbers separated by commas or spaces"));
    layout_->addRow(tr("Coefficients"), edit);
    refreshers_.push_back([this, edit, get] {
        QSignalBlocker block(edit);
        const TimeLaw* law = get(document_->document());
        edit->setText(law ? str(formatNumberList(law->coefficients)) : QString());
    });
    connect(edit, &QLineEdit::editingFinished, this, [this, edit, location, access] {
        // A form being replaced loses the focus as it hides, after the document changed
        // under it: its text may be older than the document and must not be written back.
        if (!form_ || !form_->isAncestorOf(edit))
            return;
        std::vector<double> values;
        Diagnostic problem;
        if (!parseCoefficients(edit->text().toStdString(), values, problem)) {
            // The text stays as typed so that the mistake can be corrected in place.
            refuse(location + problem.location, tr("%1; the coefficients are unchanged").arg(str(problem.message)));
            return;
        }
        commit("law.coefficients", [access, values](ModelDocument& d) {
            if (TimeLaw* l = access(d))
                l->coefficients = values;
        });
    });
}

QStringList PropertyEditor::bodyChoices() const
{
    QStringList names{kGroundName};
    const ModelDocument& doc = document_->document();
    for (const BodyDoc& b : doc.bodies)
        names << str(b.name);
    // Joints and forces hold a flexible member by a node or a face, never by the mesh.
    // A long beam's inner nodes would flood the list; its ends are always offered.
    constexpr int kMostListedBeamElements = 64;
    for (const BeamDoc& b : doc.beams) {
        names << str(b.name + ".root") << str(b.name + ".tip");
        if (b.elements <= kMostListedBeamElements)
            for (int k = 0; k <= b.elements; ++k)
                names << str(b.name + ".node" + std::to_string(k));
    }
    for (const SolidDoc& b : doc.solids)
        for (const char* face : {"xmin", "xmax", "ymin", "ymax", "zmin", "zmax"})
            names << str(b.name + "." + face);
    for (const NodeSetDoc& n : doc.nodeSets)
        names << str(n.name);
    return names;
}

QStringList PropertyEditor::markerChoices() const
{
    QStringList names;
    for (const MarkerDoc& m : document_->document().markers)
        names << str(m.name);
    return names;
}

QStringList PropertyEditor::jointChoices() const
{
    QStringList names;
    for (const JointDoc& j : document_->document().joints)
        names << str(j.name);
    return names;
}

void PropertyEditor::addModelFields()
{
    auto* edit = new QLineEdit;
    edit->setObjectName("modelName");
    layout_->addRow(tr("Name"), edit);
    refreshers_.push_back([this, edit] {
        QSignalBlocker block(edit);
        edit->setText(str(document_->document().name));
    });
    connect(edit, &QLineEdit::editingFinished, this, [this, edit] {
        const std::string name = edit->text().toStdString();
        commit("name", [name](ModelDocument& doc) { doc.name = name; });
    });
    addVector(tr("Gravity"), "gravity", "m/s²", [](const ModelDocument& d) { return d.gravity; },
              [](ModelDocument& d, const Vec3& v) { d.gravity = v; });
}

void PropertyEditor::addBodyFields()
{
    const auto i = static_cast<size_t>(item_.index);
    // With a density, mass and inertia follow from the shape; typing either is the
    // user's override and drops the density.
    addNumber(tr("Density"), "density", "kg/m³", [i](const ModelDocument& d) { return d.bodies[i].density.value_or(0.0); },
              [i](ModelDocument& d, double v) {
                  if (v > 0.0)
                      d.bodies[i].density = v;
                  else
                      d.bodies[i].density.reset();
                  applyShapeMassProperties(d.bodies[i]);
              },
              0.0, 1e6, 1);
    addNumber(tr("Mass"), "mass", "kg", [i](const ModelDocument& d) { return d.bodies[i].mass; },
              [i](ModelDocument& d, double v) {
                  d.bodies[i].mass = v;
                  d.bodies[i].density.reset();
              },
              0.0, 1e9);
    addVector(tr("Inertia (diagonal)"), "inertia", "kg·m²",
              [i](const ModelDocument& d) { return Vec3(d.bodies[i].inertia.diagonal()); },
              [i](ModelDocument& d, const Vec3& v) {
                  d.bodies[i].inertia.diagonal() = v;
                  d.bodies[i].density.reset();
              });
    addVector(tr("Position"), "position", "m", [i](const ModelDocument& d) { return d.bodies[i].position; },
              [i](ModelDocument& d, const Vec3& v) { d.bodies[i].position = v; });
    addOrientation(tr("Orientation"), "orientation",
                   [i](const ModelDocument&) { return pointer("bodies", i, "orientation"); },
                   [i](const ModelDocument& d) { return d.bodies[i].orientation; },
                   [i](ModelDocument& d, const Quat& q) { d.bodies[i].orientation = q; });
    addVector(tr("Velocity"), "velocity", "m/s", [i](const ModelDocument& d) { return d.bodies[i].velocity; },
              [i](ModelDocument& d, const Vec3& v) { d.bodies[i].velocity = v; });
    addVector(tr("Angular velocity"), "angularVelocity", "rad/s",
              [i](const ModelDocument& d) { return d.bodies[i].angularVelocity; },
              [i](ModelDocument& d, const Vec3& v) { d.bodies[i].angularVelocity = v; });
    addChoice(tr("Shape"), "shape", shapeKindNames(),
              [i](const ModelDocument& d) { return QString(visualShapeKindName(d.bodies[i].shape.kind)); },
              [i](ModelDocument& d, const QString& v) {
                  visualShapeKindFromName(v.toStdString(), d.bodies[i].shape.kind);
                  applyShapeMassProperties(d.bodies[i]);
              });
    const VisualShape::Kind shape = document_->document().bodies[i].shape.kind;
    if (shape == VisualShape::Kind::Box)
        addVector(tr("Box size"), "shape.size", "m", [i](const ModelDocument& d) { return d.bodies[i].shape.size; },
                  [i](ModelDocument& d, const Vec3& v) {
                      d.bodies[i].shape.size = v;
                      applyShapeMassProperties(d.bodies[i]);
                  });
    if (shape == VisualShape::Kind::Cylinder || shape == VisualShape::Kind::Sphere)
        addNumber(tr("Radius"), "shape.radius", "m", [i](const ModelDocument& d) { return d.bodies[i].shape.radius; },
                  [i](ModelDocument& d, double v) {
                      d.bodies[i].shape.radius = v;
                      applyShapeMassProperties(d.bodies[i]);
                  },
                  0.0);
    if (shape == VisualShape::Kind::Cylinder)
        addNumber(tr("Length"), "shape.length", "m", [i](const ModelDocument& d) { return d.bodies[i].shape.length; },
                  [i](ModelDocument& d, double v) {
                      d.bodies[i].shape.length = v;
                      applyShapeMassProperties(d.bodies[i]);
                  },
                  0.0);
    if (shape == VisualShape::Kind::Mesh) {
        addText(tr("Mesh file (STL, OBJ)"), "shape.file", [i](const ModelDocument& d) { return str(d.bodies[i].shape.file); },
                [i](ModelDocument& d, const QString& v) { d.bodies[i].shape.file = v.toStdString(); });
        addVector(tr("Mesh scale"), "shape.scale", "", [i](const ModelDocument& d) { return d.bodies[i].shape.scale; },
                  [i](ModelDocument& d, const Vec3& v) { d.bodies[i].shape.scale = v; });
    }
    if (shape != VisualShape::Kind::None)
        addVector(tr("Colour (RGB)"), "shape.color", "",
                  [i](const ModelDocument& d) {
                      const auto& c = d.bodies[i].shape.color;
                      return Vec3(c[0], c[1], c[2]);
                  },
                  [i](ModelDocument& d, const Vec3& v) {
                      for (int c = 0; c < 3; ++c)
                          d.bodies[i].shape.color[static_cast<size_t>(c)] = std::clamp(v[c], 0.0, 1.0);
                  });
}

void PropertyEditor::addJointFields()
{
    const auto i = static_cast<size_t>(item_.index);
    addChoice(tr("Type"), "type", jointTypeNames(),
              [i](const ModelDocument& d) { return QString(jointTypeName(d.joints[i].type)); },
              [i](ModelDocument& d, const QString& v) {
                  JointDoc& j = d.joints[i];
                  if (!jointTypeFromName(v.toStdString(), j.type))
                      return;
                  // Only a screw has a lead (the file refuses it on other joints); a new
                  // screw starts with 10 mm a turn.
                  if (j.type != JointType::Screw)
                      j.lead.reset();
                  else if (!j.lead)
                      j.lead = 0.01;
              });
    if (document_->document().joints[i].byMarkers) {
        addMarkerFields(tr("Marker 1"), "marker1", &JointDoc::marker1);
        addMarkerFields(tr("Marker 2"), "marker2", &JointDoc::marker2);
        return;
    }
    addChoice(tr("Body 1"), "body1", bodyChoices(), [i](const ModelDocument& d) { return str(d.joints[i].body1); },
              [i](ModelDocument& d, const QString& v) { d.joints[i].body1 = v.toStdString(); });
    addChoice(tr("Body 2"), "body2", bodyChoices(), [i](const ModelDocument& d) { return str(d.joints[i].body2); },
              [i](ModelDocument& d, const QString& v) { d.joints[i].body2 = v.toStdString(); });
    addVector(tr("Point"), "point", "m", [i](const ModelDocument& d) { return d.joints[i].point; },
              [i](ModelDocument& d, const Vec3& v) { d.joints[i].point = v; });
    const JointType type = document_->document().joints[i].type;
    if (type == JointType::Distance) {
        addVector(tr("Point 2"), "point2", "m", [i](const ModelDocument& d) { return d.joints[i].point2; },
                  [i](ModelDocument& d, const Vec3& v) { d.joints[i].point2 = v; });
        // Shown as the initial distance until the user sets one.
        addNumber(tr("Length"), "length", "m",
                  [i](const ModelDocument& d) {
                      const JointDoc& j = d.joints[i];
                      return j.length.value_or((j.point2 - j.point).norm());
                  },
                  [i](ModelDocument& d, double v) { d.joints[i].length = v; }, 0.0, 1e9);
        return;
    }
    if (type != JointType::Spherical)
        addVector(tr("Axis"), "axis", "", [i](const ModelDocument& d) { return d.joints[i].axis; },
                  [i](ModelDocument& d, const Vec3& v) { d.joints[i].axis = v; });
    if (type == JointType::Universal)
        addVector(tr("Axis 2"), "axis2", "", [i](const ModelDocument& d) { return d.joints[i].axis2; },
                  [i](ModelDocument& d, const Vec3& v) { d.joints[i].axis2 = v; });
    if (type == JointType::Screw)
        addNumber(tr("Lead"), "lead", "m", [i](const ModelDocument& d) { return d.joints[i].lead.value_or(0.0); },
                  [i](ModelDocument& d, double v) { d.joints[i].lead = v; }, -1e9, 1e9, 6);
}

void PropertyEditor::addDriverFields()
{
    const auto i = static_cast<size_t>(item_.index);
    addChoice(tr("Joint"), "joint", jointChoices(), [i](const ModelDocument& d) { return str(d.drivers[i].joint); },
              [i](ModelDocument& d, const QString& v) { d.drivers[i].joint = v.toStdString(); });
    addChoice(tr("Law"), "law", lawKindNames(),
              [i](const ModelDocument& d) { return QString(timeLawKindName(d.drivers[i].law.kind)); },
              [i](ModelDocument& d, const QString& v) {
                  TimeLaw::Kind kind = TimeLaw::Kind::Constant;
                  if (timeLawKindFromName(v.toStdString(), kind))
                      setTimeLawKind(d.drivers[i].law, kind);
              });
    addLawFields(pointer("drivers", i, "law"), [i](const ModelDocument& d) { return &d.drivers[i].law; },
                 [i](ModelDocument& d) { return &d.drivers[i].law; });
}

void PropertyEditor::addForceFields()
{
    const auto i = static_cast<size_t>(item_.index);
    addChoice(tr("Type"), "type", forceTypeNames(),
              [i](const ModelDocument& d) { return QString(forceTypeName(d.forces[i].type)); },
              [i](ModelDocument& d, const QString& v) { forceTypeFromName(v.toStdString(), d.forces[i].type); });
    const ForceType type = document_->document().forces[i].type;
    auto number = [this, i](const QString& label, const QString& key, const QString& unit, double ForceDoc::*field) {
        addNumber(label, key, unit, [i, field](const ModelDocument& d) { return d.forces[i].*field; },
                  [i, field](ModelDocument& d, double v) { d.forces[i].*field = v; });
    };
    auto vector = [this, i](const QString& label, const QString& key, const QString& unit, Vec3 ForceDoc::*field) {
        addVector(label, key, unit, [i, field](const ModelDocument& d) { return d.forces[i].*field; },
                  [i, field](ModelDocument& d, const Vec3& v) { d.forces[i].*field = v; });
    };
    switch (type) {
    case ForceType::SpringDamper:
        addChoice(tr("Body 1"), "body1", bodyChoices(), [i](const ModelDocument& d) { return str(d.forces[i].body1); },
                  [i](ModelDocument& d, const QString& v) { d.forces[i].body1 = v.toStdString(); });
        addChoice(tr("Body 2"), "body2", bodyChoices(), [i](const ModelDocument& d) { return str(d.forces[i].body2); },
                  [i](ModelDocument& d, const QString& v) { d.forces[i].body2 = v.toStdString(); });
        vector(tr("Point 1"), "point1", "m", &ForceDoc::point1);
        vector(tr("Point 2"), "point2", "m", &ForceDoc::point2);
        number(tr("Stiffness"), "stiffness", "N/m", &ForceDoc::stiffness);
        number(tr("Damping"), "damping", "N·s/m", &ForceDoc::damping);
        number(tr("Preload"), "preload", "N", &ForceDoc::preload);
        break;
    case ForceType::RotationalSpringDamper:
        addChoice(tr("Joint"), "joint", jointChoices(), [i](const ModelDocument& d) { return str(d.forces[i].joint); },
                  [i](ModelDocument& d, const QString& v) { d.forces[i].joint = v.toStdString(); });
        number(tr("Stiffness"), "stiffness", "N·m/rad", &ForceDoc::stiffness);
        number(tr("Damping"), "damping", "N·m·s/rad", &ForceDoc::damping);
        number(tr("Free angle"), "freeAngle", "rad", &ForceDoc::freeAngle);
        break;
    case ForceType::BodyForce:
    case ForceType::BodyTorque:
        addChoice(tr("Body"), "body", bodyChoices(), [i](const ModelDocument& d) { return str(d.forces[i].body); },
                  [i](ModelDocument& d, const QString& v) { d.forces[i].body = v.toStdString(); });
        if (type == ForceType::BodyForce)
            vector(tr("Local point"), "localPoint", "m", &ForceDoc::localPoint);
        vector(type == ForceType::BodyForce ? tr("Force") : tr("Torque"), "vector",
               type == ForceType::BodyForce ? "N" : "N·m", &ForceDoc::vector);
        addChoice(tr("Scaled by law"), "law", QStringList{kNoLaw} + lawKindNames(),
                  [i](const ModelDocument& d) {
                      const auto& law = d.forces[i].law;
                      return QString(law ? timeLawKindName(law->kind) : kNoLaw);
                  },
                  [i](ModelDocument& d, const QString& v) {
                      auto& law = d.forces[i].law;
                      TimeLaw::Kind kind = TimeLaw::Kind::Constant;
                      if (!timeLawKindFromName(v.toStdString(), kind)) {
                          law.reset();
                          return;
                      }
                      if (!law) {
                          // The factor 1 at first, so that choosing a law does not change
                          // the force until its parameters are set.
                          law.emplace();
                          law->initial = 1.0;
                      }
                      setTimeLawKind(*law, kind);
                  });
        addLawFields(pointer("forces", i, "law"),
                     [i](const ModelDocument& d) { return d.forces[i].law ? &*d.forces[i].law : nullptr; },
                     [i](ModelDocument& d) { return d.forces[i].law ? &*d.forces[i].law : nullptr; });
        break;
    }
}

}  // namespace looplab::ui
