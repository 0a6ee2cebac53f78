#pragma once
// The generalised-α family of second-order implicit schemes shared by the implicit
// steppers (tlismni, hht-index3): HHT-α (Hilber, Hughes & Taylor 1977) and Newmark, their
// constants, the Newmark update of positions and velocities from the scheme's acceleration
// variable ã, the weights of the iteration matrix M + (1 + α)(γhC + βh²K), and the local
// error estimate of the positions (docs/methods.md, "Error control of the implicit
// steppers").
//
// Both steppers integrate an acceleration variable ã that lags the true acceleration by
// −αh: tlismni its â_{n+1} = (1 + α)a_{n+1} − αa_n, hht-index3 the accelerations of the
// α-weighted equations of motion M a_{n+1} = (1 + α)F_{n+1} − αF_n. Either way
// ã_n = a(t_n) + αhȧ + O(h²), and the Newmark update
//   q_{n+1} = q_n + h v_n + h²((½ − β)ã_n + β ã_{n+1}),
//   v_{n+1} = v_n + h((1 − γ)ã_n + γ ã_{n+1})
// differs from the Taylor series of the exact motion by (β + α/2 − 1/6)h³ȧ in the positions
// and (γ + α − ½)h²ȧ in the velocities, which vanishes for γ = ½ − α: the positions carry
// the leading local error, (1/12 + α²/4)h³ȧ for HHT, (β − 1/6)h³ȧ for Newmark.

#include "looplab/common/Types.h"

namespace looplab {

struct GeneralizedAlpha {
    /// HHT-α (α in [−1/3, 0], β = (1 − α)²/4, γ = ½ − α) or Newmark (α = 0 with the β, γ
    /// given).
    static GeneralizedAlpha hht(double alpha);
    static GeneralizedAlpha newmark(double beta, double gamma);

    double alpha = 0.0, beta = 0.25, gamma = 0.5;

    /// h v + h²((½ − β)ã_n + β ã_{n+1}): the position increment (in velocity space).
    VecX positionIncrement(double h, const VecX& v, const VecX& aStart, const VecX& aEnd) const;
    /// v + h((1 − γ)ã_n + γ ã_{n+1}).
    VecX velocity(double h, const VecX& v, const VecX& aStart, const VecX& aEnd) const;
    /// The weights of the iteration matrix M + wv C + wq K: wv = (1 + α)γh, wq = (1 + α)βh².
    double velocityWeight(double h) const { return (1.0 + alpha) * gamma * h; }
    double positionWeight(double h) const { return (1.0 + alpha) * beta * h * h; }
    /// The coefficient c of the positions' local error c h³ ȧ: β + α/2 − 1/6. Where it
    /// vanishes (Fox–Goodwin, β = 1/12 … 1/6 with α) the next term leads; the estimate then
    /// uses 1/12, the trapezoidal rule's, rather than claiming an error of zero.
    double errorCoefficient() const;
    /// The local error of the positions, c h² (ã_{n+1} − ã_n) (ã_{n+1} − ã_n ≈ hȧ): the
    /// corrector's positions less those of a predictor with ã held at ã_n over the step,
    /// scaled to the error of the scheme (Zienkiewicz & Xie 1991; Géradin & Cardona 2001,
    /// §11.5), per coordinate of v.
    VecX localError(double h, const VecX& aStart, const VecX& aEnd) const;
    /// The estimate the steppers hold to the tolerance: the same difference with the
    /// constant max(β, γ) in place of c (6.5 c at α = −0.05, 6 c for the trapezoidal
    /// rule). The margin covers what local error control leaves out for a second-order
    /// method: its global error sums the local errors of many more steps than a
    /// fifth-order method's at equal rtol; with c alone the conformance suite's contracts
    /// at rtol 1e-8 (energy balance within 1e-5 of the energy scale, the index-3 drift
    /// within its bound) failed by factors 2.5–7.
    VecX controlledError(double h, const VecX& aStart, const VecX& aEnd) const;
};

/// max_k |e_k| / (atol + rtol·scale_k): a weighted max norm (1 means at the tolerance).
double weightedErrorNorm(const VecX& e, const VecX& scales, double rtol, double atol);

}  // namespace looplab
