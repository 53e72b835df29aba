#pragma once
// The "gaussian" lesson's parameters as core reads them, and the scores of
// q = k = 1 its figures, readouts and tables compare, written once: the
// notes' absolute form, the relative form, and the notes' sample code.

#include "app/lessons/common/setting.hpp"
#include "poslab/core/gaussian.hpp"
#include "poslab/core/params.hpp"

namespace poslab::app::gaussian {

/// The kernel (lessons::gaussian_kernel), RoPE's d and base, and the
/// positions m and n of query and key.
struct Setting {
  core::GaussianKernel k;
  int d;
  double base, m, n;
};
Setting setting(const core::Params& p);

/// Scores of q = k = 1 in the notes' absolute form or the relative form.
double score(const core::GaussianKernel& k, double m, double n, int d, double base, core::KernelMode mode);

/// ⟨g(1, m), g(1, n)⟩ with g the notes' mixed-layout rotation (cos/sin
/// duplicated half-style, rotate_half pairing neighbours): core::rope_rotate_mixed.
double mixed_rope(double m, double n, int d, double base);

/// What the notes' sample code computes for q = k = 1: K(m)·K(n)·⟨g(1, m), g(1, n)⟩.
double notes_code_score(const core::GaussianKernel& k, double m, double n, int d, double base);

}  // namespace poslab::app::gaussian
