// A finished lab run as bytes and back (LabRun::save / restore), so that a
// model trained once — while a lecturer prepares a deck — is shown at once in
// the lecture instead of trained again. Training is a pure function of the
// config on one build (lab.hpp), so the bytes are keyed by both: a file of
// another config or build is refused, never read as this one.
//
// Layout (all numbers little-endian; every poslab target is):
//   "poslab-lab-model 1\n"
//   "build " lab_build_tag() "\n"
//   lab_config_text(config)                    "name value\n" per field
//   "end\n"
//   u32 step, u32 n_losses, u32 n_params
//   float32 losses[n_losses], float32 params[n_params]
//   u64 FNV-1a 64 of every byte before it

#include <bit>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "poslab/core/lab/gemm.hpp"
#include "poslab/core/lab/lab.hpp"
#include "poslab/core/rope.hpp"

#ifndef POSLAB_LAB_VERSION
#define POSLAB_LAB_VERSION "?"
#endif
#ifndef POSLAB_CORE_SOURCE_HASH
#define POSLAB_CORE_SOURCE_HASH "?"
#endif
#ifndef POSLAB_CORE_FLAGS_HASH
#define POSLAB_CORE_FLAGS_HASH "?"
#endif

namespace poslab::core::lab {

static_assert(std::endian::native == std::endian::little, "saved lab models are little-endian");

namespace {

constexpr std::string_view kMagic = "poslab-lab-model 1\n";

/// FNV-1a, 64 bits: catches a truncated or altered file (not an attacker).
std::uint64_t fnv1a(std::string_view bytes) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : bytes) h = (h ^ c) * 0x100000001b3ULL;
  return h;
}

template <class T>
void put(std::string& out, T value) {
  char b[sizeof(T)];
  std::memcpy(b, &value, sizeof(T));
  out.append(b, sizeof(T));
}

template <class T>
bool get(std::string_view& in, T& value) {
  if (in.size() < sizeof(T)) return false;
  std::memcpy(&value, in.data(), sizeof(T));
  in.remove_prefix(sizeof(T));
  return true;
}

bool refuse(std::string* why, std::string text) {
  if (why) *why = std::move(text);
  return false;
}

}  // namespace

std::string lab_config_text(const LabConfig& c) {
  std::string out;
  auto line = [&](const char* name, const std::string& value) { out += std::string(name) + " " + value + "\n"; };
  auto num = [](double x) {
    char b[40];
    std::snprintf(b, sizeof b, "%.17g", x);
    return std::string(b);
  };
  auto whole = [](long long x) { return std::to_string(x); };
  line("task", task_name(c.task));
  line("encoding", encoding_name(c.encoding));
  line("rope_layout", pair_layout_name(c.rope_layout));
  line("rope_base", num(c.rope_base));
  line("layers", whole(c.layers));
  line("width", whole(c.width));
  line("heads", whole(c.heads));
  line("train_length", whole(c.train_length));
  line("eval_length", whole(c.eval_length));
  line("batch", whole(c.batch));
  line("steps", whole(c.steps));
  line("learning_rate", num(c.learning_rate));
  line("warmup_steps", whole(c.warmup_steps));
  line("min_lr_fraction", num(c.min_lr_fraction));
  line("grad_clip", num(c.grad_clip));
  line("seed", std::to_string(c.seed));
  line("task_seed", std::to_string(c.task_seed));
  line("eval_samples", whole(c.eval_samples));
  line("lm_vocab", whole(c.lm_vocab));
  line("lm_order", whole(c.lm_order));
  line("lm_sharpness", num(c.lm_sharpness));
  line("copy_alphabet", whole(c.copy_alphabet));
  line("copy_distinct", c.copy_distinct ? "1" : "0");
  line("t5_buckets", whole(c.t5_buckets));
  line("t5_max_distance", whole(c.t5_max_distance));
  return out;
}

std::string lab_build_tag() {
  std::string tag = "poslab " POSLAB_LAB_VERSION " core " POSLAB_CORE_SOURCE_HASH " flags " POSLAB_CORE_FLAGS_HASH;
#if defined(__VERSION__)
  tag += " compiler " __VERSION__;
#endif
#if defined(__EMSCRIPTEN__)
  tag += " wasm";
#endif
  tag += " gemm ";
  tag += gemm_path_name(gemm_path());
  for (char& ch : tag)
    if (ch == '\n') ch = ' ';
  return tag;
}

std::string lab_saved_header(const LabConfig& config) {
  return std::string(kMagic) + "build " + lab_build_tag() + "\n" + lab_config_text(config) + "end\n";
}

std::uint64_t lab_config_hash(const LabConfig& config) { return fnv1a(lab_config_text(config)); }
std::uint64_t lab_checksum(std::string_view bytes) { return fnv1a(bytes); }

std::string LabRun::save() const {
  if (!finished()) throw std::logic_error("LabRun::save: the run has not finished training");
  std::string out = lab_saved_header(config_);
  const std::span<const float> params = model_.parameters();
  put<std::uint32_t>(out, static_cast<std::uint32_t>(step_));
  put<std::uint32_t>(out, static_cast<std::uint32_t>(losses_.size()));
  put<std::uint32_t>(out, static_cast<std::uint32_t>(params.size()));
  out.append(reinterpret_cast<const char*>(losses_.data()), losses_.size() * sizeof(float));
  out.append(reinterpret_cast<const char*>(params.data()), params.size() * sizeof(float));
  put<std::uint64_t>(out, fnv1a(out));
  return out;
}

bool LabRun::restore(std::string_view bytes, std::string* why) {
  if (step_ != 0) return refuse(why, "this run has trained already");
  if (bytes.size() < kMagic.size() + 8 || bytes.substr(0, kMagic.size()) != kMagic)
    return refuse(why, "not a saved poslab lab model");
  std::uint64_t sum = 0;
  std::memcpy(&sum, bytes.data() + bytes.size() - 8, 8);
  if (sum != fnv1a(bytes.substr(0, bytes.size() - 8))) return refuse(why, "truncated or corrupt (checksum)");
  std::string_view in = bytes.substr(kMagic.size(), bytes.size() - 8 - kMagic.size());

  const std::string header = lab_saved_header(config_);  // magic, build, config
  const std::string build = "build " + lab_build_tag() + "\n";
  if (in.substr(0, build.size()) != build) return refuse(why, "trained by another build of poslab");
  if (bytes.substr(0, header.size()) != header) return refuse(why, "trained with another config");
  in.remove_prefix(header.size() - kMagic.size());

  std::uint32_t step = 0, n_losses = 0, n_params = 0;
  if (!get(in, step) || !get(in, n_losses) || !get(in, n_params)) return refuse(why, "truncated");
  const std::span<float> params = model_.parameters();
  if (step != static_cast<std::uint32_t>(config_.steps) || n_losses != step || n_params != params.size())
    return refuse(why, "sizes do not match the config");
  if (in.size() != (static_cast<std::size_t>(n_losses) + n_params) * sizeof(float))
    return refuse(why, "sizes do not match the file");
  std::vector<float> losses(n_losses);
  std::memcpy(losses.data(), in.data(), n_losses * sizeof(float));
  std::memcpy(params.data(), in.data() + n_losses * sizeof(float), n_params * sizeof(float));
  losses_ = std::move(losses);
  step_ = static_cast<int>(step);
  return true;
}

}  // namespace poslab::core::lab
