// [SECTION] Index
// - Vectors of 32 bytes (GCC/Clang vector extensions)
// - The micro-kernel: MR rows × NV vectors of C in registers
// - The product: B in panels (packed unless its rows are contiguous), C in blocks of MR rows
// - The two compiled paths and the choice at run time
//
// The scheme is the one of BLIS and OpenBLAS (Goto & van de Geijn 2008,
// "Anatomy of high-performance matrix multiplication") cut down to what a
// 32-wide model needs: no packing of A (its rows are read once per panel of B),
// B packed only when strided or narrower than a panel, panels of B at most KC
// deep so they stay in the L1 cache.

#include "poslab/core/lab/gemm.hpp"

#include <algorithm>
#include <cstring>

namespace poslab::core::lab {

namespace {

// [SECTION] Vectors of 32 bytes

/// A vector of Bytes bytes: 32 on the AVX2 path (8 floats, 4 doubles: one
/// register), 16 on the baseline path (SSE2's registers on any x86-64; on wasm
/// one SIMD register — the web build compiles with -msimd128 — else scalar
/// code: the same sums in the same order either way). (GCC lowers a 32-byte
/// vector without AVX through memory: 25 times slower, measured.) The
/// arithmetic is the same on both. `Unaligned` is the same vector read from or
/// written to any T* (GCC's idiom for unaligned loads); vectors are never
/// passed to or returned from a function (that would change the ABI between
/// the two paths).
template <class T, int Bytes>
struct Vec;
template <int Bytes>
struct Vec<float, Bytes> {
  typedef float Type __attribute__((vector_size(Bytes)));
  typedef float Unaligned __attribute__((vector_size(Bytes), aligned(4), may_alias));
};
template <int Bytes>
struct Vec<double, Bytes> {
  typedef double Type __attribute__((vector_size(Bytes)));
  typedef double Unaligned __attribute__((vector_size(Bytes), aligned(8), may_alias));
};

constexpr int KC = 256;  // depth of a packed panel of B: 256 × 16 floats = 16 KB

// [SECTION] The micro-kernel

/// C[0..MR)[0..nc) (+)= A[0..MR)[0..kc) · Bp, row k of Bp at bp + k·ldb, NV·lanes
/// wide (zero past nc). Each C(i, j) is one accumulator, summed over k in order.
template <class T, int Bytes, int MR, int NV>
[[gnu::always_inline]] inline void kernel(int kc, const T* a, std::ptrdiff_t ar, std::ptrdiff_t ac, const T* bp,
                                          std::ptrdiff_t ldb, T* c, std::ptrdiff_t ldc, int nc, bool load_c) {
  constexpr int L = Bytes / static_cast<int>(sizeof(T)), W = NV * L;
  using V = typename Vec<T, Bytes>::Type;
  using U = typename Vec<T, Bytes>::Unaligned;
  V acc[MR][NV];
  for (int r = 0; r < MR; ++r) {
    if (!load_c) {
      for (int v = 0; v < NV; ++v) acc[r][v] = V{};
    } else if (nc == W) {
      for (int v = 0; v < NV; ++v) acc[r][v] = *reinterpret_cast<const U*>(c + r * ldc + v * L);
    } else {
      T tmp[W] = {};
      for (int j = 0; j < nc; ++j) tmp[j] = c[r * ldc + j];
      for (int v = 0; v < NV; ++v) acc[r][v] = *reinterpret_cast<const U*>(tmp + v * L);
    }
  }
  for (int k = 0; k < kc; ++k) {
    V b[NV];
    for (int v = 0; v < NV; ++v) b[v] = *reinterpret_cast<const U*>(bp + k * ldb + v * L);
    for (int r = 0; r < MR; ++r) {
      const T x = a[r * ar + k * ac];
      for (int v = 0; v < NV; ++v) acc[r][v] += b[v] * x;  // C(i, j) += A(i, k)·B(k, j)
    }
  }
  for (int r = 0; r < MR; ++r) {
    if (nc == W) {
      for (int v = 0; v < NV; ++v) *reinterpret_cast<U*>(c + r * ldc + v * L) = acc[r][v];
    } else {
      T tmp[W];
      for (int v = 0; v < NV; ++v) *reinterpret_cast<U*>(tmp + v * L) = acc[r][v];
      for (int j = 0; j < nc; ++j) c[r * ldc + j] = tmp[j];
    }
  }
}

// [SECTION] The product

template <class T, int Bytes, int NV>
[[gnu::always_inline]] inline void panel(int M, int kc, const T* a, std::ptrdiff_t ar, std::ptrdiff_t ac, const T* bp,
                                         std::ptrdiff_t ldb, T* c, std::ptrdiff_t ldc, int nc, bool load_c) {
  // 4 rows × 2 vectors: 8 accumulators, the row of B and the broadcast A(i, k)
  // fit AVX2's 16 registers (6 rows measured no faster here: 512 and 32 rows
  // are not multiples of 6).
  constexpr int MR = 4;
  int i = 0;
  for (; i + MR <= M; i += MR) kernel<T, Bytes, MR, NV>(kc, a + i * ar, ar, ac, bp, ldb, c + i * ldc, ldc, nc, load_c);
  for (; i < M; ++i) kernel<T, Bytes, 1, NV>(kc, a + i * ar, ar, ac, bp, ldb, c + i * ldc, ldc, nc, load_c);
}

template <class T, int Bytes>
[[gnu::always_inline]] inline void gemm_body(int M, int N, int K, MatRef<const T> A, MatRef<const T> B, T* C,
                                             std::ptrdiff_t ldc, bool accumulate) {
  constexpr int L = Bytes / static_cast<int>(sizeof(T));
  if (M <= 0 || N <= 0) return;
  if (K <= 0) {
    if (!accumulate)
      for (int i = 0; i < M; ++i) std::fill_n(C + i * ldc, N, T(0));
    return;
  }
  alignas(32) T bp[KC * 2 * L];
  for (int j0 = 0; j0 < N; j0 += 2 * L) {
    const int nc = std::min(2 * L, N - j0), W = nc > L ? 2 * L : L;
    for (int k0 = 0; k0 < K; k0 += KC) {
      const int kc = std::min(KC, K - k0);
      const T* b = bp;
      std::ptrdiff_t ldb = W;
      if (B.col == 1 && nc == W) {  // rows of B already contiguous and whole: read them in place
        b = B.data + k0 * B.row + j0;
        ldb = B.row;
      } else {
        for (int k = 0; k < kc; ++k) {  // Bp[k][j] = B(k0 + k, j0 + j), zero past nc
          const T* src = B.data + (k0 + k) * B.row + j0 * B.col;
          T* dst = bp + k * W;
          for (int j = 0; j < nc; ++j) dst[j] = src[j * B.col];
          for (int j = nc; j < W; ++j) dst[j] = T(0);
        }
      }
      const bool load_c = accumulate || k0 > 0;
      const T* a = A.data + k0 * A.col;
      if (W == L) panel<T, Bytes, 1>(M, kc, a, A.row, A.col, b, ldb, C + j0, ldc, nc, load_c);
      else panel<T, Bytes, 2>(M, kc, a, A.row, A.col, b, ldb, C + j0, ldc, nc, load_c);
    }
  }
}

// [SECTION] The two compiled paths

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define POSLAB_GEMM_AVX2 1
[[gnu::target("avx2,fma")]] void gemm_avx2(int M, int N, int K, MatRef<const float> A, MatRef<const float> B, float* C,
                                           std::ptrdiff_t ldc, bool accumulate) {
  gemm_body<float, 32>(M, N, K, A, B, C, ldc, accumulate);
}
[[gnu::target("avx2,fma")]] void gemm_avx2(int M, int N, int K, MatRef<const double> A, MatRef<const double> B,
                                           double* C, std::ptrdiff_t ldc, bool accumulate) {
  gemm_body<double, 32>(M, N, K, A, B, C, ldc, accumulate);
}
#endif

template <class T>
void gemm_baseline(int M, int N, int K, MatRef<const T> A, MatRef<const T> B, T* C, std::ptrdiff_t ldc,
                   bool accumulate) {
  gemm_body<T, 16>(M, N, K, A, B, C, ldc, accumulate);
}

GemmPath detect_path() {
#ifdef POSLAB_GEMM_AVX2
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return GemmPath::avx2_fma;
#endif
  return GemmPath::baseline;
}

}  // namespace

GemmPath gemm_path() {
  static const GemmPath path = detect_path();
  return path;
}

const char* gemm_path_name(GemmPath path) {
  if (path == GemmPath::avx2_fma) return "avx2+fma";
#ifdef __wasm_simd128__
  return "wasm-simd128";  // the baseline path, its 16-byte vectors in WebAssembly SIMD registers
#else
  return "baseline";
#endif
}

template <class T>
void gemm_on(GemmPath path, int M, int N, int K, MatRef<const T> A, MatRef<const T> B, T* C, std::ptrdiff_t ldc,
             bool accumulate) {
#ifdef POSLAB_GEMM_AVX2
  if (path == GemmPath::avx2_fma && gemm_path() == GemmPath::avx2_fma) {
    gemm_avx2(M, N, K, A, B, C, ldc, accumulate);
    return;
  }
#else
  (void)path;
#endif
  gemm_baseline<T>(M, N, K, A, B, C, ldc, accumulate);
}

template <class T>
void gemm(int M, int N, int K, MatRef<const T> A, MatRef<const T> B, T* C, std::ptrdiff_t ldc, bool accumulate) {
  gemm_on<T>(gemm_path(), M, N, K, A, B, C, ldc, accumulate);
}

template void gemm<float>(int, int, int, MatRef<const float>, MatRef<const float>, float*, std::ptrdiff_t, bool);
template void gemm<double>(int, int, int, MatRef<const double>, MatRef<const double>, double*, std::ptrdiff_t, bool);
template void gemm_on<float>(GemmPath, int, int, int, MatRef<const float>, MatRef<const float>, float*, std::ptrdiff_t,
                             bool);
template void gemm_on<double>(GemmPath, int, int, int, MatRef<const double>, MatRef<const double>, double*,
                              std::ptrdiff_t, bool);

}  // namespace poslab::core::lab
