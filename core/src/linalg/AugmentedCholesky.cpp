#include "looplab/linalg/AugmentedCholesky.h"

#include "looplab/linalg/AugmentedMatrix.h"

#include <cholmod.h>

#include <Eigen/Cholesky>
#include <Eigen/QR>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace looplab {

namespace {

// A view of a compressed column-major matrix for CHOLMOD (which reads, never writes it).
cholmod_sparse view(const SparseColMatrix& A, int stype) {
    cholmod_sparse v{};
    v.nrow = static_cast<size_t>(A.rows());
    v.ncol = static_cast<size_t>(A.cols());
    v.nzmax = static_cast<size_t>(A.nonZeros());
    v.p = const_cast<int*>(A.outerIndexPtr());
    v.i = const_cast<int*>(A.innerIndexPtr());
    v.x = const_cast<double*>(A.valuePtr());
    v.stype = stype;
    v.itype = CHOLMOD_INT;
    v.xtype = CHOLMOD_REAL;
    v.dtype = CHOLMOD_DOUBLE;
    v.sorted = 1;
    v.packed = 1;
    return v;
}

cholmod_dense view(VecX& x) {
    cholmod_dense v{};
    v.nrow = static_cast<size_t>(x.size());
    v.ncol = 1;
    v.nzmax = v.nrow;
    v.d = v.nrow;
    v.x = x.data();
    v.xtype = CHOLMOD_REAL;
    v.dtype = CHOLMOD_DOUBLE;
    return v;
}

bool samePattern(const SparseColMatrix& A, const std::vector<int>& outer, const std::vector<int>& inner) {
    return static_cast<size_t>(A.outerSize() + 1) == outer.size() &&
           static_cast<size_t>(A.nonZeros()) == inner.size() &&
           std::equal(outer.begin(), outer.end(), A.outerIndexPtr()) &&
           std::equal(inner.begin(), inner.end(), A.innerIndexPtr());
}

}  // namespace

struct AugmentedCholesky::Impl {
    cholmod_common common;
    cholmod_factor* factor = nullptr;
    // The patterns the symbolic analysis was made for.
    std::vector<int> aOuter, aInner, cOuter, cInner;
    // The matrices of the last factorisation (their norms for the condition estimates).
    SparseColMatrix A, C;
    // Positions in the factor's order of the coordinates the constraint rows touch
    // (ascending), and each position's index in that list (−1 elsewhere).
    std::vector<int> tail, tailIndex;
    // W = L⁻¹PCᵀ on the tail rows (|tail| × r) as QR, thin: the Schur complement
    // C A⁻¹ Cᵀ = WᵀW = RᵀR without forming it, whose condition number is W's squared.
    MatX Q, R;
    // CCᵀ, for the last step of a solve (below).
    Eigen::LLT<MatX> rowGram;
    // cholmod_solve2's reusable workspace.
    cholmod_dense *x = nullptr, *y = nullptr, *e = nullptr;

    Impl() {
        cholmod_start(&common);
        common.print = 0;  // a matrix that is not positive definite is an answer here, not an error
        common.supernodal = CHOLMOD_SUPERNODAL;
    }
    ~Impl() {
        clearFactor();
        cholmod_finish(&common);
    }
    void clearFactor() {
        if (factor) cholmod_free_factor(&factor, &common);
        if (x) cholmod_free_dense(&x, &common);
        if (y) cholmod_free_dense(&y, &common);
        if (e) cholmod_free_dense(&e, &common);
        aOuter.clear();
        aInner.clear();
        cOuter.clear();
        cInner.clear();
    }
    // v ← L⁻¹ v (sys CHOLMOD_L) or L⁻ᵀ v (CHOLMOD_Lt), in the factor's order.
    bool substitute(int sys, VecX& v) {
        cholmod_dense b = view(v);
        if (!cholmod_solve2(sys, factor, &b, nullptr, &x, nullptr, &y, &e, &common)) return false;
        v = Eigen::Map<const VecX>(static_cast<const double*>(x->x), v.size());
        return true;
    }
};

AugmentedCholesky::AugmentedCholesky() : impl_(std::make_unique<Impl>()) {}
AugmentedCholesky::~AugmentedCholesky() = default;

bool AugmentedCholesky::factorize(const SparseColMatrix& Ain, const SparseColMatrix& Cin) {
    ok_ = false;
    Impl& m = *impl_;
    if (Ain.rows() != Ain.cols() || Cin.cols() != Ain.cols() || Ain.rows() == 0) return false;
    m.A = Ain;
    m.A.makeCompressed();
    m.C = Cin;
    m.C.makeCompressed();
    n_ = static_cast<int>(m.A.rows());
    r_ = static_cast<int>(m.C.rows());
    cholmod_sparse a = view(m.A, -1);

    if (!m.factor || !samePattern(m.A, m.aOuter, m.aInner) || !samePattern(m.C, m.cOuter, m.cInner)) {
        m.clearFactor();
        // The constrained coordinates last, the others in a nested-dissection order (METIS)
        // of the matrix they span.
        std::vector<int> member(static_cast<size_t>(n_), 0), perm;
        std::vector<int> freeCoords, newIndex(static_cast<size_t>(n_), -1);
        for (int j = 0; j < n_; ++j)
            if (m.C.col(j).nonZeros() > 0) member[static_cast<size_t>(j)] = 1;
        for (int j = 0; j < n_; ++j)
            if (!member[static_cast<size_t>(j)]) {
                newIndex[static_cast<size_t>(j)] = static_cast<int>(freeCoords.size());
                freeCoords.push_back(j);
            }
        const int nf = static_cast<int>(freeCoords.size());
        if (nf > 0) {
            std::vector<Eigen::Triplet<double>> tr;
            tr.reserve(static_cast<size_t>(m.A.nonZeros()));
            for (int c = 0; c < n_; ++c) {
                if (member[static_cast<size_t>(c)]) continue;
                for (SparseColMatrix::InnerIterator it(m.A, c); it; ++it)
                    if (!member[static_cast<size_t>(it.row())])
                        tr.emplace_back(newIndex[static_cast<size_t>(it.row())], newIndex[static_cast<size_t>(c)], 1.0);
            }
            SparseColMatrix Aff(nf, nf);
            Aff.setFromTriplets(tr.begin(), tr.end());
            Aff.makeCompressed();
            cholmod_sparse af = view(Aff, -1);
            std::vector<int> fperm(static_cast<size_t>(nf));
            if (!cholmod_metis(&af, nullptr, 0, 0, fperm.data(), &m.common)) return false;
            for (const int k : fperm) perm.push_back(freeCoords[static_cast<size_t>(k)]);
        }
        for (int j = 0; j < n_; ++j)
            if (member[static_cast<size_t>(j)]) perm.push_back(j);
        m.common.nmethods = 1;
        m.common.method[0].ordering = CHOLMOD_GIVEN;
        // Every ancestor of a constrained coordinate comes after it in this order, so it is
        // constrained too; the etree postorder relabels the tree and keeps that.
        m.common.postorder = 1;
        m.factor = cholmod_analyze_p(&a, perm.data(), nullptr, 0, &m.common);
        if (!m.factor) return false;
        m.aOuter.assign(m.A.outerIndexPtr(), m.A.outerIndexPtr() + m.A.outerSize() + 1);
        m.aInner.assign(m.A.innerIndexPtr(), m.A.innerIndexPtr() + m.A.nonZeros());
        m.cOuter.assign(m.C.outerIndexPtr(), m.C.outerIndexPtr() + m.C.outerSize() + 1);
        m.cInner.assign(m.C.innerIndexPtr(), m.C.innerIndexPtr() + m.C.nonZeros());
        const int* P = static_cast<const int*>(m.factor->Perm);
        m.tail.clear();
        m.tailIndex.assign(static_cast<size_t>(n_), -1);
        for (int k = 0; k < n_; ++k)
            if (member[static_cast<size_t>(P[k])]) m.tail.push_back(k);
        for (size_t t = 0; t < m.tail.size(); ++t) m.tailIndex[static_cast<size_t>(m.tail[t])] = static_cast<int>(t);
    }
    if (!cholmod_factorize(&a, m.factor, &m.common) || m.common.status != CHOLMOD_OK ||
        static_cast<int>(m.factor->minor) < n_ || !m.factor->is_super) {
        // A partial factorisation cannot be factorised into again: analyse anew next time.
        m.clearFactor();
        return false;
    }

    // L restricted to the tail (a lower triangle: the tail is closed under ancestors, so
    // no other row of a tail column is nonzero), from the supernodes' dense column blocks.
    const int t = static_cast<int>(m.tail.size());
    MatX Ltail = MatX::Zero(t, t);
    const cholmod_factor& L = *m.factor;
    const int* super = static_cast<const int*>(L.super);
    const int* pi = static_cast<const int*>(L.pi);
    const int* px = static_cast<const int*>(L.px);
    const int* rowsOf = static_cast<const int*>(L.s);
    const double* values = static_cast<const double*>(L.x);
    for (size_t k = 0; k < L.nsuper; ++k) {
        const int first = super[k], last = super[k + 1];
        const int nrows = pi[k + 1] - pi[k];
        for (int j = first; j < last; ++j) {
            const int tj = m.tailIndex[static_cast<size_t>(j)];
            if (tj < 0) continue;
            const double* col = values + px[k] + static_cast<ptrdiff_t>(j - first) * nrows;
            for (int i = j - first; i < nrows; ++i) {
                const int ti = m.tailIndex[static_cast<size_t>(rowsOf[pi[k] + i])];
                if (ti >= 0) Ltail(ti, tj) = col[i];
            }
        }
    }
    // (PCᵀ) on the tail rows, then W = L_tail⁻¹ (PCᵀ)_tail.
    const int* P = static_cast<const int*>(m.factor->Perm);
    MatX W = MatX::Zero(t, r_);
    for (int ti = 0; ti < t; ++ti) {
        const int coord = P[m.tail[static_cast<size_t>(ti)]];
        for (SparseColMatrix::InnerIterator it(m.C, coord); it; ++it) W(ti, it.row()) = it.value();
    }
    Ltail.triangularView<Eigen::Lower>().solveInPlace(W);
    if (!W.allFinite() || t < r_) return false;
    const Eigen::HouseholderQR<MatX> qr(W);
    m.Q = qr.householderQ() * MatX::Identity(t, r_);
    m.R = qr.matrixQR().topRows(r_).triangularView<Eigen::Upper>();
    // Dependent constraint rows: a zero on R's diagonal (relative to its largest).
    const VecX diag = m.R.diagonal().cwiseAbs();
    if (r_ > 0 && !(diag.minCoeff() > 1e-13 * diag.maxCoeff())) return false;
    m.rowGram.compute(MatX(m.C * m.C.transpose()));
    if (m.rowGram.info() != Eigen::Success) return false;
    ok_ = true;
    return true;
}

VecX AugmentedCholesky::solve(const VecX& b) const {
    Impl& m = *impl_;
    if (!ok_ || b.size() != n_ + r_) return VecX::Constant(std::max<Eigen::Index>(b.size(), 0), std::nan(""));
    const int* P = static_cast<const int*>(m.factor->Perm);
    // [A Cᵀ; C 0] [x; μ] = [f; g] with PAPᵀ = LLᵀ and W = L⁻¹PCᵀ = QR:
    //   y = L⁻¹Pf,  WᵀW μ = Wᵀy − g,  x = PᵀL⁻ᵀ(y − Wμ),
    // that is μ = R⁻¹(Qᵀy − R⁻ᵀg) and y − Wμ = y − Q(Qᵀy − R⁻ᵀg): the projection of y off
    // the range of W, computed with Q (as stable as the QR).
    VecX y(n_);
    for (int k = 0; k < n_; ++k) y[k] = b[P[k]];
    if (!m.substitute(CHOLMOD_L, y)) return VecX::Constant(b.size(), std::nan(""));
    const int t = static_cast<int>(m.tail.size());
    VecX yt(t);
    for (int i = 0; i < t; ++i) yt[i] = y[m.tail[static_cast<size_t>(i)]];
    const VecX h = m.R.transpose().triangularView<Eigen::Lower>().solve(b.tail(r_));
    const VecX z = m.Q.transpose() * yt - h;
    const VecX mu = m.R.triangularView<Eigen::Upper>().solve(z);
    yt = m.Q * z;
    for (int i = 0; i < t; ++i) y[m.tail[static_cast<size_t>(i)]] -= yt[i];
    if (!m.substitute(CHOLMOD_Lt, y)) return VecX::Constant(b.size(), std::nan(""));
    VecX out(n_ + r_);
    for (int k = 0; k < n_; ++k) out[P[k]] = y[k];
    // y and Wμ nearly cancel where x must meet the constraint rows, and C x = g holds only
    // to about ε‖y‖ (1e-13 against an LU's 0 on a pendulum): enough to let an eigenvalue
    // iteration mix in the constraint directions, whose ν = 0. The orthogonal projection
    // on C x = g removes that part of the error and no other (it is non-expansive).
    VecX x = out.head(n_);
    x -= m.C.transpose() * m.rowGram.solve(VecX(m.C * x - b.tail(r_)));
    out.head(n_) = x;
    out.tail(r_) = mu;
    return out;
}

double AugmentedCholesky::conditionEstimate(const VecX& d) const {
    const int size = n_ + r_;
    if (!ok_ || d.size() != size) return std::numeric_limits<double>::infinity();
    const Impl& m = *impl_;
    // Column sums of |DSD|: A's columns (both triangles are stored), C's below them, and
    // C's rows as the multiplier columns.
    VecX sums = VecX::Zero(size);
    for (int c = 0; c < n_; ++c) {
        for (SparseColMatrix::InnerIterator it(m.A, c); it; ++it) sums[c] += std::abs(d[it.row()] * it.value() * d[c]);
        for (SparseColMatrix::InnerIterator it(m.C, c); it; ++it) {
            const double v = std::abs(d[n_ + it.row()] * it.value() * d[c]);
            sums[c] += v;
            sums[n_ + it.row()] += v;
        }
    }
    const VecX dInv = d.cwiseInverse();
    const auto solveScaled = [&](const VecX& x) { return VecX(dInv.cwiseProduct(solve(dInv.cwiseProduct(x)))); };
    return hagerHigham(size, sums.maxCoeff(), solveScaled, solveScaled);  // S is symmetric
}

double AugmentedCholesky::factorEntries() const {
    return impl_->factor ? static_cast<double>(impl_->common.lnz) : 0.0;
}

}  // namespace looplab
