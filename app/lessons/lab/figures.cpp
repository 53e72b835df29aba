// Lesson "lab": train short, test long (issue 26). Tiny Transformers, one per
// position encoding and seed, are trained on sequences of length L (core's
// lab engine, core/lab/lab.hpp; docs/LAB.md) and evaluated at every length up
// to M = 3–4 L, which they never saw. Then the trained RoPE model is read
// with PI, NTK-aware and YaRN (core/scaling.hpp, the functions of the scaling
// lesson) without fine-tuning.
//
// Every figure is a function of the parameters: with lab_train = false it is
// the empty frame a student predicts on (axes, floor, the trained length);
// with lab_train = true it draws the trained models, training the missing
// ones first (setting.hpp: exports and tests). The window trains them on its
// workers and asks for these figures only once they are trained (screen.cpp).
//
// [SECTION] Index
// - Colours and names
// - Frames: axes, the trained length, the floor
// - Figures: by_length, extension, theta_ratio, training, attention_trained, attention_long
// - The view

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "app/lessons/common/figures.hpp"
#include "app/lessons/lab/setting.hpp"
#include "app/lessons/lesson.hpp"
#include "app/plot/figure_text.hpp"

namespace poslab::app {

namespace {

using fig::Figure;
using lab_lesson::Plan;
using lab_lesson::Trained;
using lab_lesson::TrainedPtr;
namespace cl = core::lab;

// [SECTION] Colours and names

using lab_lesson::encoding_colour;

/// The scaling lesson's colours: the model as trained grey, PI orange, NTK-aware sky blue, YaRN blue.
fig::Color extension_colour(cl::Extension e) {
  switch (e) {
    case cl::Extension::none: return fig::Color::rgb(0x7F7F7F);
    case cl::Extension::pi: return fig::Color::rgb(0xE69F00);
    case cl::Extension::ntk: return fig::Color::rgb(0x56B4E9);
    case cl::Extension::yarn: return fig::Color::rgb(0x0072B2);
    case cl::Extension::dynamic: return fig::Color::rgb(0x009E73);
  }
  return fig::Color::rgb(0x7F7F7F);
}

std::string encoding_label(const Translator& tr, cl::Encoding e) {
  return tr(std::string("lab.encoding.") + cl::encoding_name(e));
}

std::string extension_label(const Translator& tr, cl::Extension e) {
  return tr(std::string("lab.method.") + cl::extension_name(e));
}

bool is_lm(const Plan& p) { return p.task == cl::Task::lm; }

/// The task's floor (lm: the entropy rate of its language), from an untrained
/// run of the plan (building one costs milliseconds: no training).
double task_floor(const Plan& plan) {
  static std::mutex mutex;
  static std::vector<std::pair<cl::Task, double>> known;
  const std::lock_guard lock(mutex);
  for (const auto& [task, floor] : known)
    if (task == plan.task) return floor;
  cl::LabConfig c = plan.base();
  c.eval_samples = 1;
  const double floor = cl::LabRun(c).floor();
  known.emplace_back(plan.task, floor);
  return floor;
}

// [SECTION] Frames

/// The axes of a metric against length, the trained length L, the lengths
/// never trained (shaded) and the floor: what every result figure shares,
/// drawn before any model exists.
Figure metric_frame(const Plan& plan, const Translator& tr) {
  const cl::LabConfig c = plan.base();
  const int L = c.train_length, M = c.eval_length;
  Figure f;
  const bool lm = is_lm(plan);
  f.x = {.label = tr(lm ? "lab.axis.position" : "lab.axis.input_length"), .format = fig::TickFormat::integer};
  f.x.min = 0, f.x.max = M + 1;
  if (lm) {
    f.y = {.label = tr("lab.axis.loss"), .unit = tr("lab.unit.nats")};
    f.y.min = 0.9, f.y.max = std::max(3.2, std::log(c.lm_vocab) + 0.4);
  } else {
    f.y = {.label = tr("lab.axis.exact_match")};
    f.y.min = 0, f.y.max = 1.05;
  }
  f.ref_lines.push_back({.orientation = fig::Orientation::vertical,
                         .value = L + 0.5,
                         .label = tr.format("lab.trained_length", {{"L", fig::num(L)}}),
                         .color = fig::Color::rgb(0x444444)});
  f.bands.push_back({.orientation = fig::Orientation::vertical,
                     .from = L + 0.5,
                     .to = M + 0.5,
                     .label = tr("lab.never_seen"),
                     .color = fig::Color::rgb(0x999999, 0.12f),
                     .label_top = true});
  if (lm) {
    const double floor = task_floor(plan);
    f.ref_lines.push_back({.orientation = fig::Orientation::horizontal,
                           .value = floor,
                           .label = tr.format("lab.floor", {{"H", fig::num(floor, 4)}}),
                           .color = fig::Color::rgb(0x222222),
                           .style = fig::LineStyle::dotted});
    const double guess = std::log(static_cast<double>(c.lm_vocab));
    f.ref_lines.push_back({.orientation = fig::Orientation::horizontal,
                           .value = guess,
                           .label = tr.format("lab.no_context", {{"V", fig::num(c.lm_vocab)}, {"H", fig::num(guess, 3)}}),
                           .color = fig::Color::rgb(0x888888),
                           .style = fig::LineStyle::dotted});
  } else {
    f.ref_lines.push_back({.orientation = fig::Orientation::horizontal,
                           .value = 0.95,
                           .label = tr("lab.pass_line"),
                           .color = fig::Color::rgb(0x888888),
                           .style = fig::LineStyle::dotted});
  }
  f.legend = lm ? fig::LegendPlace::top_left : fig::LegendPlace::bottom_left;
  return f;
}

/// The frame's note while nothing is trained.
void untrained_note(Figure& f, const Plan& plan, const Translator& tr) {
  f.subtitle = tr(plan.train ? "lab.training" : "lab.untrained");
}

/// One group of models (an encoding, or RoPE read one way): each seed a thin
/// line, their mean a bold one named in the legend.
void add_group(Figure& f, const std::string& name, fig::Color colour, const std::vector<cl::LabEvaluation>& seeds,
               const Translator& tr) {
  if (seeds.empty()) return;
  const std::size_t n = seeds.front().lengths.size();
  std::vector<double> x(n), mean(n, 0.0);
  for (std::size_t i = 0; i < n; ++i) x[i] = seeds.front().lengths[i];
  for (std::size_t k = 0; k < seeds.size(); ++k) {  // seeds 1, 2, … in order
    const cl::LabEvaluation& e = seeds[k];
    for (std::size_t i = 0; i < n; ++i) mean[i] += e.values[i] / static_cast<double>(seeds.size());
    if (seeds.size() < 2) continue;
    fig::Series s;
    s.x = x, s.y = e.values;
    s.color = colour.with_alpha(0.45f);
    s.width = 0.9f;
    s.x_name = f.x.label, s.y_name = tr.format("lab.seed_value", {{"name", name}, {"seed", std::to_string(k + 1)}});
    f.series.push_back(std::move(s));
  }
  fig::Series m;
  m.name = name;
  m.x = std::move(x), m.y = std::move(mean);
  m.color = colour;
  m.width = 2.2f;
  m.x_name = f.x.label;
  f.series.push_back(std::move(m));
}

/// lm: the true language's own loss on the same evaluation tokens, position
/// by position (its wiggles are the sample's, and every model's curve shares
/// them: the same 256 sequences). Nothing for copy (its floor is 1).
void add_sample_floor(Figure& f, const cl::LabEvaluation& e, const Translator& tr) {
  if (e.task != cl::Task::lm) return;
  fig::Series s;
  s.name = tr("lab.sample_floor");
  s.x.assign(e.lengths.begin(), e.lengths.end());
  s.y = e.sample_floor;
  s.color = fig::Color::rgb(0xD55E00);  // vermillion: no encoding's hue
  s.width = 1.2f;
  s.style = fig::LineStyle::dotted;
  s.x_name = f.x.label;
  f.series.push_back(std::move(s));
}

std::string size_text(const Plan& plan, const Translator& tr, long long params) {
  const cl::LabConfig c = plan.base();
  // one seed: no thin lines and no mean to speak of ("1 seeds")
  return tr.format(plan.seeds == 1 ? "lab.size_one_seed" : "lab.size", {{"seeds", fig::num(plan.seeds)},
                                {"steps", fig::num(plan.steps)},
                                {"layers", fig::num(c.layers)},
                                {"width", fig::num(c.width)},
                                {"heads", fig::num(c.heads)},
                                {"params", fig::num(static_cast<double>(params))}});
}

/// The models of `encoding` among `all` (plan order: encoding, then seed).
std::vector<TrainedPtr> of_encoding(const Plan& plan, const std::vector<TrainedPtr>& all, cl::Encoding encoding) {
  std::vector<TrainedPtr> out;
  for (std::size_t e = 0; e < plan.encodings.size(); ++e)
    if (plan.encodings[e] == encoding)
      for (int s = 0; s < plan.seeds; ++s) out.push_back(all[e * static_cast<std::size_t>(plan.seeds) + static_cast<std::size_t>(s)]);
  return out;
}

// [SECTION] Figures

/// Loss (lm) or exact match (copy, reverse) against length, one colour per encoding.
Figure by_length(const FigureContext& ctx) {
  const auto& tr = ctx.tr;
  const Plan plan = lab_lesson::plan(ctx.params);
  Figure f = metric_frame(plan, tr);
  f.title = tr(is_lm(plan) ? "lab.by_length.title" : "lab.by_length.title_copy");
  if (!plan.train) {
    untrained_note(f, plan, tr);
    return f;
  }
  const std::vector<TrainedPtr> all = lab_lesson::trained_all(plan, ctx.params.real("factor"));
  add_sample_floor(f, all.front()->evaluation(), tr);
  for (cl::Encoding e : plan.encodings) {
    std::vector<cl::LabEvaluation> seeds;
    for (const TrainedPtr& m : of_encoding(plan, all, e)) seeds.push_back(m->evaluation());
    add_group(f, encoding_label(tr, e), encoding_colour(e), seeds, tr);
  }
  f.subtitle = size_text(plan, tr, all.front()->parameter_count());
  return f;
}

/// The trained RoPE model read with each extension at s = factor.
Figure extension(const FigureContext& ctx) {
  const auto& tr = ctx.tr;
  const Plan plan = lab_lesson::plan(ctx.params);
  const double s = ctx.params.real("factor");
  Figure f = metric_frame(plan, tr);
  f.title = tr.format("lab.extension.title", {{"s", fig::num(s)}});
  if (!plan.train) {
    untrained_note(f, plan, tr);
    return f;
  }
  const std::vector<TrainedPtr> all = lab_lesson::trained_all(plan, ctx.params.real("factor"));
  const std::vector<TrainedPtr> rope = of_encoding(plan, all, cl::Encoding::rope);
  add_sample_floor(f, rope.front()->evaluation(), tr);
  for (cl::Extension x : lab_lesson::kExtensions) {
    std::vector<cl::LabEvaluation> seeds;
    for (const TrainedPtr& m : rope) seeds.push_back(m->evaluation(x, s));
    add_group(f, extension_label(tr, x), extension_colour(x), seeds, tr);
  }
  f.subtitle = tr.format(plan.seeds == 1 ? "lab.extension.subtitle_one_seed" : "lab.extension.subtitle",
                         {{"s", fig::num(s)}, {"seeds", fig::num(plan.seeds)}});
  return f;
}

/// The scaling lesson's θ′/θ per pair for the lab's RoPE head (d = its head
/// size, L = the trained length, the same s): the figure the extension
/// figure's curves come from, built by the scaling lesson itself.
Figure theta_ratio(const FigureContext& ctx) {
  const Plan plan = lab_lesson::plan(ctx.params);
  const cl::LabConfig c = plan.base();
  core::Params p;
  p.set("method", std::string("yarn"));
  p.set("compare", std::string("pi-ntk-yarn"));
  p.set("d", static_cast<double>(c.width / c.heads));
  p.set("base", c.rope_base);
  p.set("original_context", static_cast<double>(c.train_tokens()));
  p.set("factor", ctx.params.real("factor"));
  p.set("seq_len", static_cast<double>(c.eval_tokens()));
  const ViewDef* scaling = find_view("scaling");
  const FigureDef* ratio = scaling ? find_figure(*scaling, "ratio") : nullptr;
  if (!scaling || !ratio) return {};
  Figure f = build_figure(*scaling, *ratio, p, ctx.tr, ctx.width, ctx.height);
  f.subtitle = ctx.tr("lab.theta_ratio.subtitle") + (f.subtitle.empty() ? "" : " · " + f.subtitle);
  return f;
}

/// The training loss against the step, one colour per encoding (mean over
/// seeds, averaged over windows of steps).
Figure training(const FigureContext& ctx) {
  const auto& tr = ctx.tr;
  const Plan plan = lab_lesson::plan(ctx.params);
  Figure f;
  f.title = tr("lab.training.title");
  f.x = {.label = tr("lab.axis.step"), .format = fig::TickFormat::integer};
  f.x.min = 0, f.x.max = plan.steps;
  f.y = {.label = tr("lab.axis.train_loss"), .unit = tr("lab.unit.nats")};
  f.y.min = 0;
  if (is_lm(plan)) {
    const double floor = task_floor(plan);
    f.ref_lines.push_back({.orientation = fig::Orientation::horizontal,
                           .value = floor,
                           .label = tr.format("lab.floor", {{"H", fig::num(floor, 4)}}),
                           .color = fig::Color::rgb(0x222222),
                           .style = fig::LineStyle::dotted});
  }
  f.legend = fig::LegendPlace::top_right;
  if (!plan.train) {
    f.y.max = 4;
    untrained_note(f, plan, tr);
    return f;
  }
  const std::vector<TrainedPtr> all = lab_lesson::trained_all(plan, ctx.params.real("factor"));
  const int window = std::max(1, plan.steps / 150);
  for (cl::Encoding e : plan.encodings) {
    const std::vector<TrainedPtr> models = of_encoding(plan, all, e);
    fig::Series s;
    s.name = encoding_label(tr, e);
    s.color = encoding_colour(e);
    s.width = 1.6f;
    for (int start = 0; start < plan.steps; start += window) {
      const int end = std::min(plan.steps, start + window);
      double sum = 0;
      for (const TrainedPtr& m : models)
        for (int k = start; k < end; ++k) sum += m->losses()[static_cast<std::size_t>(k)];
      s.x.push_back(0.5 * (start + end - 1));
      s.y.push_back(sum / (static_cast<double>(end - start) * static_cast<double>(models.size())));
    }
    f.series.push_back(std::move(s));
  }
  f.subtitle = tr.format(plan.seeds == 1 ? "lab.training.subtitle_one_seed" : "lab.training.subtitle",
                         {{"w", fig::num(window)}, {"seeds", fig::num(plan.seeds)}});
  return f;
}

/// One head's attention weights of the lab_encoding model (seed 1) on the
/// first evaluation input of `multiple`·L.
Figure attention_at(const FigureContext& ctx, int multiple) {
  const auto& tr = ctx.tr;
  const Plan plan = lab_lesson::plan(ctx.params);
  const cl::Encoding encoding = cl::parse_encoding(ctx.params.choice("lab_encoding"));
  const int layer = static_cast<int>(ctx.params.integer("lab_layer"));
  const int head = static_cast<int>(ctx.params.integer("lab_head"));
  const cl::LabConfig c = plan.config(encoding, 1);
  const int length = std::min(multiple * c.train_length, c.eval_length);
  const int tokens = is_lm(plan) ? length : 2 * length;
  const int trained_tokens = c.train_tokens();
  Figure f;
  f.title = tr.format(multiple == 1 ? "lab.attention.title_trained" : "lab.attention.title_long",
                      {{"encoding", encoding_label(tr, encoding)}, {"n", fig::num(length)}});
  lessons::matrix_axes(f, tr("lab.axis.key"), tr("lab.axis.query"));
  f.x.min = 0, f.x.max = tokens, f.y.min = 0, f.y.max = tokens;
  if (tokens > trained_tokens) {
    f.ref_lines.push_back({.orientation = fig::Orientation::vertical,
                           .value = static_cast<double>(trained_tokens),
                           .label = tr.format("lab.trained_tokens", {{"T", fig::num(trained_tokens)}}),
                           .color = fig::Color::rgb(0xFFFFFF)});
    f.ref_lines.push_back({.orientation = fig::Orientation::horizontal,
                           .value = static_cast<double>(trained_tokens),
                           .color = fig::Color::rgb(0xFFFFFF)});
  }
  if (!plan.train) {
    untrained_note(f, plan, tr);
    return f;
  }
  const TrainedPtr model = lab_lesson::find(c) ? lab_lesson::find(c) : [&] {
    Plan one = plan;
    one.encodings = {encoding};
    one.seeds = 1;
    return lab_lesson::trained_all(one, ctx.params.real("factor")).front();
  }();
  const cl::AttentionMap map = model->attention(layer - 1, head - 1, length);
  const int n = static_cast<int>(map.weights.rows());
  fig::Heatmap h;
  h.x0 = 0, h.x1 = n, h.y0 = 0, h.y1 = n;
  h.cols = h.rows = n;
  h.values.resize(static_cast<std::size_t>(n) * static_cast<std::size_t>(n));
  h.mask.resize(h.values.size());
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      const std::size_t k = static_cast<std::size_t>(i) * static_cast<std::size_t>(n) + static_cast<std::size_t>(j);
      h.values[k] = j <= i ? map.weights(i, j) : 0.0f;
      h.mask[k] = j > i;  // a future key: the causal mask, drawn hatched
    }
  h.colormap = fig::Colormap::magnitude;
  h.vmin = 0, h.vmax = 1;
  h.value_name = tr("lab.readout.weight");
  h.x_name = tr("lab.axis.key");
  h.y_name = tr("lab.axis.query");
  f.heatmaps.push_back(std::move(h));
  f.subtitle = tr.format("lab.attention.subtitle", {{"layer", fig::num(layer)}, {"head", fig::num(head)}});
  return f;
}

Figure attention_trained(const FigureContext& ctx) { return attention_at(ctx, 1); }
Figure attention_long(const FigureContext& ctx) { return attention_at(ctx, 3); }

}  // namespace

// [SECTION] The view

ViewDef lab_view() {
  return {.id = "lab",
          .group = "extension",
          .keys = {"lab_task", "lab_seeds", "lab_steps", "factor", "lab_encoding", "lab_layer", "lab_head"},
          .defaults = {{"factor", "4"}},
          .figures = {{"by_length", by_length},
                      {"extension", extension},
                      {"theta_ratio", theta_ratio},
                      {"training", training},
                      {"attention_trained", attention_trained},
                      {"attention_long", attention_long}},
          .tables = {},
          .run_keys = {"lab_train"}};
}

}  // namespace poslab::app
