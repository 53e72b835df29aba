// The layer-stack figure (layer_stack.hpp).

#include "app/model/layer_stack.hpp"

#include "app/plot/figure_text.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace poslab::app {

namespace {

/// 500,000; 0.1; 8 — as the hover readout and every caption write numbers.
std::string readable(double x) { return fig::num(x, 6); }

double height_of(const LayerGroup& g) {
  if (g.kind == "none") return 0.2;
  if (g.attention == "sliding") return 0.45;
  if (g.attention == "chunked") return 0.7;
  return 1.0;
}

/// One colour per kind of layer, the same in every model (Okabe–Ito hues):
/// plain RoPE blue (sky blue in a sliding window), scaled RoPE vermillion
/// (orange in a sliding window), p-RoPE purple; ALiBi green, T5 orange,
/// learned and sinusoidal purple; NoPE dark grey, layers that are not
/// attention light grey. The legend says the base and the factor.
fig::Color color_of(const LayerGroup& g) {
  if (g.kind == "nope") return fig::Color::rgb(0x7f7f7f);
  if (g.kind == "none") return fig::Color::rgb(0xc8c8c8);
  if (g.kind == "alibi") return fig::Color::rgb(0x009E73);
  if (g.kind == "t5") return fig::Color::rgb(0xE69F00);
  if (g.kind != "rope") return fig::Color::rgb(0xCC79A7);
  const bool sliding = g.attention == "sliding";
  if (g.method == "proportional") return fig::Color::rgb(0xCC79A7);
  if (!g.method.empty() && g.method != "none") return fig::Color::rgb(sliding ? 0xE69F00 : 0xD55E00);
  return fig::Color::rgb(sliding ? 0x56B4E9 : 0x0072B2);
}

}  // namespace

std::string layer_group_label(const LayerGroup& g, const Translator& tr) {
  std::string encoding;
  if (g.kind == "rope") {
    encoding = tr.format("model.layers.rope", {{"base", readable(g.base.value_or(0))}});
    if (g.rotary_dim && g.head_dim && *g.rotary_dim != *g.head_dim)
      encoding += tr.format("model.layers.partial", {{"d", std::to_string(*g.rotary_dim)}, {"head", std::to_string(*g.head_dim)}});
    if (g.method == "proportional") encoding += tr("model.layers.proportional");
    if (g.factor && g.method != "none" && g.method != "proportional")
      encoding += tr.format("model.layers.scaled", {{"method", g.method}, {"factor", readable(*g.factor)}});
    if (!g.mrope_section.empty()) encoding += tr("model.layers.mrope");
  } else {
    encoding = tr("model.layers.kind." + g.kind);
  }
  std::string attention;
  if (g.attention == "sliding")
    attention = g.window ? tr.format("model.layers.sliding", {{"w", readable(static_cast<double>(*g.window))}}) : tr("model.layers.sliding_any");
  else if (g.attention == "chunked")
    attention = g.window ? tr.format("model.layers.chunked", {{"w", readable(static_cast<double>(*g.window))}}) : tr("model.layers.chunked_any");
  else if (g.attention == "full")
    attention = tr("model.layers.full");
  std::string count = g.indices.empty()
                          ? tr("model.layers.every")
                          : tr.format(g.indices.size() == 1 ? "model.layers.count_one" : "model.layers.count",
                                      {{"n", std::to_string(g.indices.size())}});
  // join_dot: "无位置编码（NoPE）· 全局注意力", no ASCII space after a full-width mark.
  return fig::join_dot({encoding, attention}) + " — " + count;
}

fig::Figure layer_stack_figure(const ModelReading& r, const Translator& tr) {
  fig::Figure f;
  f.id = "layers";
  f.title = tr("model.layers.title");
  const std::string count =
      r.num_layers ? tr.format(*r.num_layers == 1 ? "model.layers.subtitle_count_one" : "model.layers.subtitle_count",
                               {{"n", std::to_string(*r.num_layers)}})
                   : tr("model.layers.subtitle_unknown");
  f.subtitle = model_subtitle(r.model, count);
  f.x.label = tr("model.layers.x");
  f.x.format = fig::TickFormat::integer;
  f.x.tight = true;
  f.y.label = tr("model.layers.y");
  f.y.min = 0;
  f.y.ticks = {{0.2, tr("model.layers.tick.none")},
               {0.45, tr("model.layers.tick.sliding")},
               {0.7, tr("model.layers.tick.chunked")},
               {1.0, tr("model.layers.tick.full")}};
  f.legend = fig::LegendPlace::top_left;
  // Room above the cells for the legend, one row per group: enough for the
  // banner's short plot (about 120 px of plot for 2 rows of legend).
  f.y.max = 1.12 + 0.3 * static_cast<double>(std::max<std::size_t>(r.layers.size(), 1));

  if (r.layers.empty()) {  // poslab cannot tell how this model encodes position
    f.x.min = -0.5, f.x.max = 0.5;
    f.x.ticks = {{0, " "}};
    f.notes.push_back(fig::TextNote{0, 0.5, tr("model.layers.unknown"), fig::Anchor::center, {}});
    return f;
  }
  const int n = r.num_layers.value_or(1);
  f.x.min = -0.5;
  f.x.max = static_cast<double>(n) - 0.5;
  if (!r.num_layers) f.x.ticks = {{0, tr("model.layers.every")}};
  for (const LayerGroup& g : r.layers) {
    fig::Series s;
    s.name = layer_group_label(g, tr);
    s.kind = fig::SeriesKind::bars;
    s.bar_width = 0.86;
    s.color = color_of(g);
    s.x_name = tr("model.layers.x");
    s.y_name = tr("model.layers.y");
    const double h = height_of(g);
    if (g.indices.empty()) {
      s.x = {0};
      s.y = {h};
      s.bar_width = 0.96;
    } else {
      for (int i : g.indices) {
        s.x.push_back(i);
        s.y.push_back(h);
      }
    }
    f.series.push_back(std::move(s));
  }
  return f;
}

}  // namespace poslab::app
