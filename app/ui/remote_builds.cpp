#include "app/ui/remote_builds.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <chrono>
#include <mutex>
#include <stdexcept>
#include <type_traits>

#include "app/common/messages.hpp"
#include "app/plot/figure_wire.hpp"

namespace poslab::app::ui {

namespace {

using fig::wire::Reader;
using fig::wire::Writer;

constexpr char kRequestMagic[4] = {'P', 'L', 'Q', '1'};
constexpr char kReplyMagic[4] = {'P', 'L', 'R', '1'};

void sort_unique(std::vector<std::string>& keys) {
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
}

void magic(Writer& w, const char (&m)[4]) {
  for (char c : m) w.u8(static_cast<std::uint8_t>(c));
}

void expect_magic(Reader& r, const char (&m)[4]) {
  for (char c : m)
    if (r.u8() != static_cast<std::uint8_t>(c)) Reader::fail("not a build request or reply of this version");
}

// A parameter value: its variant index, then the value itself (exact: a
// double as its bits), read back through Params::set (checked again).
// A list of numbers may cross as runs instead (kind kRuns): each run a
// start, a step and a count, its values start + k·step for k < count, used
// only where every value is exactly that. The decay lesson's distances
// (0:65,536 by default) went with every one of its requests to the page's
// worker as 65,537 doubles: 512 kB copied and posted six times a move, three
// quarters of the page's own time while log_x was toggled (Chromium's
// profiler). As one run it is 24 bytes.
constexpr std::uint8_t kRuns = 4;
constexpr std::uint64_t kMaxRunValues = 1u << 20;  // core's longest list (kMaxListItems)

struct Run {
  double start, step;
  std::uint32_t count;
};

/// The run's k-th value; the first is `start` itself (start + 0·step would
/// turn −0 into +0).
double run_value(const Run& run, std::uint32_t k) {
  return k == 0 ? run.start : run.start + static_cast<double>(k) * run.step;
}

/// (No std::bit_cast: emscripten 3.1.6's libc++ lacks it.)
bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

std::vector<Run> as_runs(const std::vector<double>& v) {
  std::vector<Run> runs;
  for (std::size_t i = 0; i < v.size();) {
    Run run{v[i], i + 1 < v.size() ? v[i + 1] - v[i] : 0.0, 1};
    while (i + run.count < v.size() && same_bits(run_value(run, run.count), v[i + run.count])) ++run.count;
    runs.push_back(run);
    i += run.count;
  }
  return runs;
}

void put_value(Writer& w, const core::ParamValue& v) {
  if (const auto* list = std::get_if<std::vector<double>>(&v)) {
    const std::vector<Run> runs = as_runs(*list);
    if (runs.size() * (2 * sizeof(double) + sizeof(std::uint32_t)) < list->size() * sizeof(double)) {
      w.u8(kRuns);
      w.u32(static_cast<std::uint32_t>(runs.size()));
      for (const Run& run : runs) w.f64(run.start), w.f64(run.step), w.u32(run.count);
      return;
    }
  }
  w.u8(static_cast<std::uint8_t>(v.index()));
  std::visit(
      [&](const auto& x) {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, bool>) w.boolean(x);
        else if constexpr (std::is_same_v<T, double>) w.f64(x);
        else if constexpr (std::is_same_v<T, std::string>) w.text(x);
        else w.doubles(x);
      },
      v);
}

core::ParamValue get_value(Reader& r) {
  switch (r.u8()) {
    case 0: return r.boolean();
    case 1: return r.f64();
    case 2: return r.text();
    case 3: return r.doubles();
    case kRuns: {
      std::vector<double> out;
      const std::uint32_t runs = r.u32();
      std::uint64_t total = 0;
      for (std::uint32_t i = 0; i < runs; ++i) {
        Run run{};
        run.start = r.f64(), run.step = r.f64(), run.count = r.u32();
        total += run.count;
        if (run.count == 0 || total > kMaxRunValues) Reader::fail("a list of numbers longer than any parameter takes");
        for (std::uint32_t k = 0; k < run.count; ++k) out.push_back(run_value(run, k));
      }
      return out;
    }
    default: Reader::fail("an unknown kind of parameter value");
  }
}

void put_texts(Writer& w, const std::vector<std::string>& v) {
  w.u32(static_cast<std::uint32_t>(v.size()));
  for (const std::string& s : v) w.text(s);
}

std::vector<std::string> read_texts(Reader& r) {
  const std::uint32_t n = r.u32();
  std::vector<std::string> v;
  for (std::uint32_t i = 0; i < n; ++i) v.push_back(r.text());
  return v;
}

std::string figure_reply_bytes(const FigureResult& res, bool build_here, double ms) {
  Writer w;
  magic(w, kReplyMagic);
  w.u8(static_cast<std::uint8_t>(BuildRequest::Kind::figure));
  w.text(res.error);
  w.text(res.error_key);
  put_texts(w, res.reads);
  w.boolean(res.reads_known);
  w.boolean(build_here);
  w.f64(ms);
  const bool figure = res.error.empty() && !build_here;
  w.boolean(figure);
  if (figure) fig::wire::encode_figure(w, res.figure, /*for_screen=*/true);  // long lines as their screen points
  return w.take();
}

std::string readouts_reply_bytes(const ReadoutsResult& res, double ms) {
  Writer w;
  magic(w, kReplyMagic);
  w.u8(static_cast<std::uint8_t>(BuildRequest::Kind::readouts));
  w.text(res.error);
  put_texts(w, res.reads);
  w.boolean(res.reads_known);
  w.f64(ms);
  w.u32(static_cast<std::uint32_t>(res.rows.size()));
  for (const Readout& row : res.rows) {
    w.text(row.label);
    w.text(row.value);
    w.f64(row.number);
    w.u8(row.holds ? (*row.holds ? 2 : 1) : 0);
    w.boolean(row.notes);
  }
  return w.take();
}

/// True when every heatmap crosses as bytes: a matrix, or a sampler sampled ahead.
bool crosses(const fig::Figure& f) {
  return std::all_of(f.heatmaps.begin(), f.heatmaps.end(),
                     [](const fig::Heatmap& h) { return h.is_matrix() || !h.sampler || h.screen != nullptr; });
}

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

void build_figure_into(FigureResult& out, const ViewDef& view, const FigureDef& def, const core::Params& params,
                       bool resolved, const Translator& tr, int width, int height, double density) {
  try {
    out.figure = resolved ? build_figure_resolved(view, def, params, tr, width, height, &out.reads)
                          : build_figure(view, def, params, tr, width, height, &out.reads);
    if (density > 0) fig::prepare_for_screen(out.figure, width, height, density);
    sort_unique(out.reads);
    out.reads_known = true;
  } catch (const core::InvalidParameter& ex) {
    out.figure = {};
    out.error = error_text(tr, ex);
    out.error_key = ex.key();
  } catch (const std::exception& ex) {
    out.figure = {};
    out.error = error_text(tr, ex);
  }
}

void readouts_into(ReadoutsResult& out, const ViewDef& view, const core::Params& params, bool resolved,
                   const Translator& tr) {
  try {
    out.rows = resolved ? view_readouts_resolved(view, params, tr, &out.reads) : view_readouts(view, params, tr, &out.reads);
    sort_unique(out.reads);
    out.reads_known = true;
  } catch (const std::exception& ex) {
    out.rows.clear();
    out.error = error_text(tr, ex);
  }
}

// [SECTION] Requests

std::string encode_request(const BuildRequest& q) {
  Writer w;
  magic(w, kRequestMagic);
  w.u8(static_cast<std::uint8_t>(q.kind));
  w.text(q.view);
  w.text(q.figure);
  const std::vector<std::string> keys = q.params.set_keys();
  w.u32(static_cast<std::uint32_t>(keys.size()));
  for (const std::string& k : keys) {
    w.text(k);
    put_value(w, q.params.value(k));
  }
  w.boolean(q.resolved);
  w.text(q.lang);
  w.i32(q.width);
  w.i32(q.height);
  w.f64(q.density);
  return w.take();
}

BuildRequest decode_request(std::string_view bytes) {
  Reader r(bytes);
  expect_magic(r, kRequestMagic);
  BuildRequest q;
  q.kind = r.enumeration(BuildRequest::Kind::readouts);
  q.view = r.text();
  q.figure = r.text();
  for (std::uint32_t i = 0, n = r.u32(); i < n; ++i) {
    const std::string key = r.text();
    q.params.set(key, get_value(r));
  }
  q.resolved = r.boolean();
  q.lang = r.text();
  q.width = r.i32();
  q.height = r.i32();
  q.density = r.f64();
  if (!r.at_end()) Reader::fail("bytes left over after the request");
  return q;
}

// [SECTION] Replies

FigureReply decode_figure_reply(std::string_view bytes) {
  Reader r(bytes);
  expect_magic(r, kReplyMagic);
  if (r.enumeration(BuildRequest::Kind::readouts) != BuildRequest::Kind::figure) Reader::fail("a readouts reply, not a figure's");
  FigureReply reply;
  FigureResult& res = reply.result;
  res.error = r.text();
  res.error_key = r.text();
  res.reads = read_texts(r);
  res.reads_known = r.boolean();
  reply.build_here = r.boolean();
  reply.ms = r.f64();
  if (r.boolean()) res.figure = fig::wire::decode_figure(r);
  if (!r.at_end()) Reader::fail("bytes left over after the reply");
  return reply;
}

ReadoutsReply decode_readouts_reply(std::string_view bytes) {
  Reader r(bytes);
  expect_magic(r, kReplyMagic);
  if (r.enumeration(BuildRequest::Kind::readouts) != BuildRequest::Kind::readouts) Reader::fail("a figure reply, not readouts'");
  ReadoutsReply reply;
  ReadoutsResult& res = reply.result;
  res.error = r.text();
  res.reads = read_texts(r);
  res.reads_known = r.boolean();
  reply.ms = r.f64();
  for (std::uint32_t i = 0, n = r.u32(); i < n; ++i) {
    Readout row;
    row.label = r.text();
    row.value = r.text();
    row.number = r.f64();
    const std::uint8_t holds = r.u8();
    if (holds > 2) Reader::fail("a readout's check is neither unset, false nor true");
    if (holds) row.holds = holds == 2;
    row.notes = r.boolean();
    res.rows.push_back(std::move(row));
  }
  if (!r.at_end()) Reader::fail("bytes left over after the reply");
  return reply;
}

// [SECTION] The worker's side

std::string serve_build_request(std::string_view bytes, const std::filesystem::path& assets) {
  static std::mutex texts_mutex;  // (one worker thread in practice; tests may call from several)
  static std::map<std::string, Translator, std::less<>> texts;
  const auto t0 = std::chrono::steady_clock::now();
  BuildRequest::Kind kind = BuildRequest::Kind::figure;
  {
    Reader head(bytes);
    expect_magic(head, kRequestMagic);
    kind = head.enumeration(BuildRequest::Kind::readouts);
  }
  const Translator* tr = &english_translator();
  FigureResult figure;
  ReadoutsResult readouts;
  bool build_here = false;
  try {
    const BuildRequest q = decode_request(bytes);
    {
      const std::lock_guard lock(texts_mutex);
      const std::string key = assets.string() + "|" + q.lang;
      auto it = texts.find(key);
      if (it == texts.end()) it = texts.emplace(key, Translator::load(assets, q.lang)).first;
      tr = &it->second;
    }
    const ViewDef* view = find_view(q.view);
    if (!view) throw std::runtime_error("no lesson \"" + q.view + "\" in this build");
    if (q.kind == BuildRequest::Kind::readouts) {
      readouts_into(readouts, *view, q.params, q.resolved, *tr);
    } else {
      const FigureDef* def = find_figure(*view, q.figure);
      if (!def) throw std::runtime_error("no figure \"" + q.figure + "\" in lesson " + q.view);
      build_figure_into(figure, *view, *def, q.params, q.resolved, *tr, q.width, q.height, q.density);
      build_here = figure.error.empty() && !crosses(figure.figure);
    }
  } catch (const std::exception& e) {
    figure.error = readouts.error = error_text(*tr, e);
  }
  const double ms = ms_since(t0);
  return kind == BuildRequest::Kind::readouts ? readouts_reply_bytes(readouts, ms)
                                              : figure_reply_bytes(figure, build_here, ms);
}

}  // namespace poslab::app::ui
