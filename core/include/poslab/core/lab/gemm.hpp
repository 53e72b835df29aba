#pragma once
// The lab's matrix product: C = A·B (or C += A·B) for the small matrices of a
// tiny Transformer (32..128 wide, 512 rows; attention's 32 × 8 per head).
//
// Eigen's product is made for large matrices: at these sizes its packing and
// blocking cost about as much as the arithmetic, and a portable x86-64 build
// compiles it for SSE2 only. This one is a register-blocked micro-kernel (4
// rows × 2 vectors of C held in registers; B read in place when its rows are
// contiguous, else packed in panels of 2 vectors),
// compiled twice: for any x86-64 (and wasm, scalar or SIMD as the compiler
// allows) and for AVX2 + FMA, chosen at run time by the CPU's features
// (`gemm_path()`). Every C(i, j) is summed over k in order 0..K−1 on both paths,
// so a product is deterministic on one build and one kind of CPU; the AVX2
// path fuses multiply and add (one rounding instead of two), so the two paths
// may differ in the last bits.

#include <cstddef>

namespace poslab::core::lab {

/// Which compiled path gemm() takes on this CPU.
enum class GemmPath { baseline, avx2_fma };

/// The path gemm() uses here: avx2_fma on x86-64 CPUs with AVX2 and FMA, else baseline.
GemmPath gemm_path();
/// "avx2+fma", "baseline" — or "wasm-simd128": the baseline path of a wasm
/// build compiled with -msimd128 (the web build), its vectors in SIMD registers.
const char* gemm_path_name(GemmPath path);

/// A strided matrix: element (i, j) at data[i·row + j·col].
template <class T>
struct MatRef {
  T* data;
  std::ptrdiff_t row;
  std::ptrdiff_t col;
};

/// C (M×N) = A (M×K) · B (K×N), or C += A·B when accumulate. C is row-major
/// with leading dimension ldc; A and B may be strided any way (a transpose is
/// a swap of row and col).
template <class T>
void gemm(int M, int N, int K, MatRef<const T> A, MatRef<const T> B, T* C, std::ptrdiff_t ldc, bool accumulate);

/// The same on a chosen path (tests compare the two; gemm() picks gemm_path()).
/// avx2_fma on a CPU or build without it falls back to baseline.
template <class T>
void gemm_on(GemmPath path, int M, int N, int K, MatRef<const T> A, MatRef<const T> B, T* C, std::ptrdiff_t ldc,
             bool accumulate);

}  // namespace poslab::core::lab
