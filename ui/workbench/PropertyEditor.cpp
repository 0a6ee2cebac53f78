#include "workbench/PropertyEditor.h"

#include "plotting/DisplayUnits.h"
#include "looplab/model/ShapeMassProperties.h"

#include "workbench/FlexibleMemberCheck.h"
#include "document/WorkbenchDocument.h"
#include "workbench/FieldText.h"

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

struct PropertyEditor::KindEditor {
    ItemKind kind;
    /// Adds the item's fields below its name.
    void (PropertyEditor::*addFields)();
    /// What decides which fields the item shows: when it changes, the form is made again.
    QString (*variant)(const ModelDocument& doc, size_t index);
};

const PropertyEditor::KindEditor& PropertyEditor::editorOf(ItemKind kind)
{
    static constexpr std::array<KindEditor, kItemKindCount> editors{{
        {ItemKind::Body, &PropertyEditor::addBodyFields,
         [](const ModelDocument& doc, size_t i) { return QString(visualShapeKindName(doc.bodies[i].shape.kind)); }},
        {ItemKind::Joint, &PropertyEditor::addJointFields,
         [](const ModelDocument& doc, size_t i) {
             // Which markers a joint names decides which marker editors it shows.
             const JointDoc& j = doc.joints[i];
             QString type = jointTypeName(j.type);
             if (j.byMarkers)
                 type += QString("/%1/%2").arg(str(j.marker1), str(j.marker2));
             return type;
         }},
        {ItemKind::Driver, &PropertyEditor::addDriverFields,
         [](const ModelDocument& doc, size_t i) { return QString(timeLawKindName(doc.drivers[i].law.kind)); }},
        {ItemKind::Force, &PropertyEditor::addForceFields,
         [](const ModelDocument& doc, size_t i) {
             const ForceDoc& f = doc.forces[i];
             return QString("%1/%2").arg(QString(forceTypeName(f.type)),
                                         QString(f.law ? timeLawKindName(f.law->kind) : kNoLaw));
         }},
        // Which section fields a beam shows depends on its section's shape.
        {ItemKind::Beam, &PropertyEditor::addBeamFields,
         [](const ModelDocument& doc, size_t i) {
             return QString::number(static_cast<int>(doc.beams[i].section.shape));
         }},
        {ItemKind::Solid, &PropertyEditor::addSolidFields, [](const ModelDocument&, size_t) { return QString("solid"); }},
        {ItemKind::NodeSet, &PropertyEditor::addNodeSetFields,
         [](const ModelDocument&, size_t) { return QString("node set"); }},
        {ItemKind::Coupler, &PropertyEditor::addCouplerFields,
         [](const ModelDocument& doc, size_t i) { return couplerSignature(doc.couplers[i]); }},
    }};
    static_assert(coversItemKinds(editors), "one editor per ItemKind, in the enum's order");
    return editors[static_cast<size_t>(kind)];
}

QString PropertyEditor::signature() const
{
    const ModelDocument& doc = document_->document();
    if (!item_.valid() || item_.index >= itemCount(doc, item_.kind))
        return "model";
    const QString type = editorOf(item_.kind).variant(doc, static_cast<size_t>(item_.index));
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
        title_->setText(QString("%1 %2").arg(tr(describe(item_.kind).title), str(itemName(doc, item_))));
        addName();
        (this->*editorOf(item_.kind).addFields)();
    }
    scroll_->setWidget(form_);
    refresh();
}

void PropertyEditor::refresh()
{
    if (item_.valid())
        title_->setText(
            QString("%1 %2").arg(tr(describe(item_.kind).title), str(itemName(document_->document(), item_))));
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
                const ItemKindDescriptor& kind = describe(item.kind);
                ModelDocument named = document_->document();
                kind.setName(named, static_cast<size_t>(item.index), name);
                const auto problem = nodeSetProblem(named, item);
                refuse(problem ? problem->location : pointer(kind.fileList, static_cast<size_t>(item.index), "name"),
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

}  // namespace looplab::ui
