#pragma once
// [SECTION] The parameters of poslab: one name, one default, one allowed range.
//
// Every parameter a user can touch (slider, `--set KEY=VALUE`, session file,
// preset) is declared once in params.cpp, in the table `param_specs()`. The
// same table drives validation (here), the `--set` parser (here), the CLI's
// `list params`, and the GUI's sliders. Core math functions check their
// arguments against it too (`check_integer`, `check_real`), so an invalid value
// raises the same message wherever it enters. See docs/CONTRACT.md §2.

#include <cstddef>
#include <limits>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "poslab/core/errors.hpp"

namespace poslab::core {

enum class ParamType {
  integer,  ///< a whole number (stored as double; |value| <= 2^53)
  real,     ///< a finite real number
  boolean,  ///< true | false
  choice,   ///< one word out of `choices`
  list,     ///< numbers and inclusive ranges: "0:9,100,4095", "-300:300", "0:1024:8"
  vector,   ///< a list of numbers: "1,2,3,4" (no ranges)
};

/// How a slider for this parameter moves (a hint for the GUI only).
enum class SliderScale { linear, log, pow2 };

struct ParamSpec {
  std::string_view key;
  ParamType type;
  /// The default, written as a user would type it; empty = no global default
  /// (the table or view that reads the key supplies one, e.g. `pos`).
  std::string_view default_text;
  /// Bounds on the value (for lists and vectors: on every item).
  double min = -std::numeric_limits<double>::infinity();
  double max = std::numeric_limits<double>::infinity();
  bool min_exclusive = false;
  bool max_exclusive = false;
  /// Integers: the value must be even. Vectors: the length must be even.
  bool even = false;
  /// Lists: every item must be a whole number.
  bool integral_items = false;
  /// Lists and vectors: allowed number of items.
  std::size_t min_items = 0;
  std::size_t max_items = 0;
  /// Choices: the allowed words, '|'-separated ("interleaved|half").
  std::string_view choices;
  /// The slider's range and scale (typed entry may go to min..max).
  double ui_min = 0;
  double ui_max = 1;
  /// When set, the slider ends at this parameter's value if that is lower
  /// than ui_max: the relation `key <= ui_max_key` of check_param_relations
  /// (head <= heads), shown on the slider instead of refused after a drag.
  std::string_view ui_max_key;
  SliderScale scale = SliderScale::linear;
  /// Unit shown next to the value ("tokens", "rad/token"); empty if none.
  std::string_view unit;
  /// Choices: older words still accepted, "old=new|…" (a rename keeps the old
  /// name as an alias, docs/CONTRACT.md); they parse to the new word.
  std::string_view choice_aliases;
};

/// A parameter value. Integers and reals are doubles; lists and vectors are
/// vectors of doubles; choices are strings.
using ParamValue = std::variant<bool, double, std::string, std::vector<double>>;

/// Every parameter poslab knows, in the order `poslab list params` prints them.
std::span<const ParamSpec> param_specs();

/// The spec of `key`, or nullptr if no such parameter exists.
const ParamSpec* find_param(std::string_view key);

/// The spec of `key`; raises InvalidParameter ("unknown parameter") if none.
const ParamSpec& param_spec(std::string_view key);

/// The choices of a choice parameter, split at '|'.
std::vector<std::string_view> param_choices(const ParamSpec& spec);

/// One English phrase saying what `spec` allows, e.g.
/// "must be an even integer in 2..8192", "must be > 1 and <= 1e12",
/// "must be one of interleaved, half".
std::string describe_allowed(const ParamSpec& spec);

/// describe_allowed(spec) as a translatable Reason (id "spec", arg "type":
/// the type the check used, which check_integer/check_real may override).
Reason allowed_reason(const ParamSpec& spec);

/// Parses `text` as a value of `spec` (the `--set` syntax of CONTRACT.md §1)
/// and checks it. Raises InvalidParameter naming the key, the text and what is
/// allowed. Never returns NaN or ±Inf.
ParamValue parse_param_value(const ParamSpec& spec, std::string_view text);

/// Checks an already-typed value against `spec` (type, bounds, evenness, item
/// count, choices). Raises InvalidParameter.
void check_param_value(const ParamSpec& spec, const ParamValue& value);

/// Formats a value as it would be typed (round-trips through parse_param_value;
/// numbers in shortest round-trip form, long integer lists as ranges).
std::string format_param_value(const ParamSpec& spec, const ParamValue& value);

/// Formats a number in the shortest form that reads back to the same double
/// ("10000", "0.1", "1e-07").
std::string format_number(double x);
/// format_number(x) appended to `out`, without a temporary string (for
/// writers of a million numbers).
void append_number(std::string& out, double x);

/// Checks used by core math functions on their own arguments, against the
/// spec of `key`. They raise the same InvalidParameter as the parser.
void check_integer(std::string_view key, double value);
void check_real(std::string_view key, double value);
/// The same against a spec already looked up (param_spec(key) once, e.g. in a
/// function-local static): no key lookup on the way, for checks made on every
/// call of a cheap kernel.
void check_integer(const ParamSpec& spec, double value);
void check_real(const ParamSpec& spec, double value);

/// Checks that `items` hold each of 0..N−1 exactly once (N = items.size()),
/// e.g. the word order `perm` of the why-position lesson. Raises
/// InvalidParameter naming `key` (reason "permutation").
void check_permutation(std::string_view key, std::span<const double> items);

/// Checks that no key is assigned twice among `assignments` ("KEY=VALUE", as
/// --set takes them): one command line sets each key once, as a session file
/// does, so `--set d=64 --set d=32` is refused instead of silently taking the
/// last. Raises InvalidParameter naming the key and both values (reason
/// "given_twice"); assignments without '=' are left to set_assignment.
void check_each_key_once(std::span<const std::string> assignments);

/// A full set of parameter values: every key has its default until `set`.
class Params {
 public:
  Params() = default;
  // Copies carry the values only (not an attached read log, see track_reads).
  Params(const Params& other) : values_(other.values_) {}
  Params(Params&& other) noexcept : values_(std::move(other.values_)) {}
  Params& operator=(const Params& other) {
    values_ = other.values_;
    return *this;
  }
  Params& operator=(Params&& other) noexcept {
    values_ = std::move(other.values_);
    return *this;
  }
  ~Params() = default;

  /// Sets `key` after checking the value against its spec. Raises
  /// InvalidParameter and leaves the set unchanged when invalid.
  void set(std::string_view key, ParamValue value);
  /// Parses and sets ("base", "1e4"). Raises InvalidParameter.
  void set_text(std::string_view key, std::string_view text);
  /// Parses "KEY=VALUE" and sets it. Raises InvalidParameter.
  void set_assignment(std::string_view assignment);
  /// Returns `key` to its default.
  void reset(std::string_view key);

  /// True if `key` was set explicitly (not at its default).
  bool is_set(std::string_view key) const;
  /// The keys set explicitly, sorted.
  std::vector<std::string> set_keys() const;

  /// The value of `key` (explicit or default). Raises InvalidParameter if the
  /// key is unknown, has another type, or has no default and was not set.
  double real(std::string_view key) const;
  long long integer(std::string_view key) const;
  bool boolean(std::string_view key) const;
  std::string choice(std::string_view key) const;
  std::vector<double> list(std::string_view key) const;
  /// A list or vector, or `fallback` (parsed) when the key is unset and has
  /// no global default, e.g. `list_or("pos", "0:9")`.
  std::vector<double> list_or(std::string_view key, std::string_view fallback) const;
  /// The value as stored (explicit or default).
  ParamValue value(std::string_view key) const;

  /// Equal when every key has the same value (set explicitly or not).
  bool operator==(const Params& other) const { return values_ == other.values_; }

  /// Read tracking, for caches that rebuild only what a changed key reaches
  /// (the GUI's figures and readouts): while `log` is attached (nullptr
  /// detaches), the key of every read through this object — value() and so
  /// every typed getter, list_or(), is_set() — is appended to it. The log
  /// belongs to this object only: a copy starts without one, so a reader that
  /// must be tracked reads the tracked object (or a reference to it).
  void track_reads(std::vector<std::string>* log) const { reads_ = log; }

 private:
  void note_read(std::string_view key) const {
    if (reads_) reads_->emplace_back(key);
  }

  std::map<std::string, ParamValue, std::less<>> values_;
  mutable std::vector<std::string>* reads_ = nullptr;
};

/// Checks the rules that tie parameters together (CONTRACT.md §2): buckets
/// even and >= 4 when bidirectional; bucket_max_distance above the exact
/// range; beta_fast > beta_slow; high_freq_factor > low_freq_factor; every
/// `dims` item below d (when dims is set); head <= heads; vector length even;
/// `perm` a permutation (check_permutation); mrope_section 1..4096 pairs
/// together; d a multiple of 4 where d, row and col are read (axial 2-D
/// RoPE). Only the keys in
/// `keys` are considered (the keys a table or view reads); an empty span means
/// all. Raises InvalidParameter naming the first offending key.
void check_param_relations(const Params& params, std::span<const std::string_view> keys = {});

}  // namespace poslab::core
