// The three outputs of `poslab model` (docs/CONTRACT.md §5): JSON (the
// contract), text for a terminal, Markdown for notes. All three say the same.
// A config is a file strangers send: every text it gives (model_type,
// rope_type, a layer type, a warning quoting a value) is escaped for the
// terminal or for Markdown where it is written (app/common/safe_text.hpp),
// never in the reading itself (the JSON output escapes as JSON does).

#include <cmath>
#include <cstdio>
#include <sstream>

#include "app/common/safe_text.hpp"
#include "app/model/model_config.hpp"

namespace poslab::app {

namespace {

template <class T>
nlohmann::ordered_json or_null(const std::optional<T>& v) {
  return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr);
}

template <class T>
std::string or_dash(const std::optional<T>& v) {
  if (!v) return "—";
  std::ostringstream out;
  out.precision(10);
  out << *v;
  return out.str();
}

std::string set_flags(const ModelReading& r) {
  std::string out;
  for (const std::string& a : model_assignments(r)) out += (out.empty() ? "" : " ") + std::string("--set ") + a;
  return out;
}

std::string text_of(const ModelWarning& w, const Translator* tr) { return tr ? model_warning_text(*tr, w) : w.text; }

/// For the text output: one line, nothing the terminal acts on.
std::string tm(std::string_view s) { return for_terminal(s); }

/// For a Markdown cell or list item.
std::string md(std::string_view s) { return for_markdown(s); }

/// A code span when `s` is plain (letters, digits, spaces and the
/// punctuation of a --set flag or a formula), else escaped text: a backtick
/// or a control character never opens or breaks the span.
std::string md_code(std::string_view s) {
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7F || c == '`' || c == '|' || c == '<' || c == '>' || c == '&' || c == '\\') return md(s);
  }
  return "`" + std::string(s) + "`";
}

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

nlohmann::ordered_json group_json(const LayerGroup& g) {
  nlohmann::ordered_json j;
  j["kind"] = g.kind;
  if (!g.layer_type.empty()) j["layer_type"] = g.layer_type;
  j["indices"] = g.indices.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(g.indices);
  j["count"] = g.indices.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(g.indices.size());
  if (g.base) j["base"] = *g.base;
  if (g.rotary_dim) j["rotary_dim"] = *g.rotary_dim;
  if (g.head_dim) j["head_dim"] = *g.head_dim;
  if (!g.layout.empty()) j["layout"] = g.layout;
  if (!g.method.empty()) j["method"] = g.method;
  if (g.factor) j["factor"] = *g.factor;
  if (!g.attention.empty()) j["attention"] = g.attention;
  if (g.window) j["window"] = *g.window;
  if (!g.mrope_section.empty()) j["mrope_section"] = g.mrope_section;
  if (g.mrope_interleaved) j["mrope_interleaved"] = *g.mrope_interleaved;
  return j;
}

/// A number with thousands separators: 500,000; 0.1; 1e+12.
std::string grouped(double x) {
  if (x == std::floor(x) && std::fabs(x) < 1e15) {
    std::string digits = std::to_string(static_cast<long long>(std::fabs(x)));
    for (int at = static_cast<int>(digits.size()) - 3; at > 0; at -= 3) digits.insert(static_cast<std::size_t>(at), ",");
    return (x < 0 ? "-" : "") + digits;
  }
  std::ostringstream out;
  out.precision(6);
  out << x;
  return out.str();
}

/// The cells of one group's row: layers, count, kind, encoding, attention.
std::vector<std::string> group_cells(const LayerGroup& g) {
  std::string encoding;
  if (g.kind == "rope") {
    const int r = g.rotary_dim.value_or(0), h = g.head_dim.value_or(r);
    encoding = "b = " + grouped(g.base.value_or(0)) + ", " +
               (r == h ? std::to_string(h) : std::to_string(r) + " of " + std::to_string(h)) + " dims, " + g.layout;
    if (g.method != "none") encoding += ", " + g.method + (g.factor ? " ×" + grouped(*g.factor) : std::string());
    if (!g.mrope_section.empty())
      encoding += ", mrope " + std::to_string(g.mrope_section[0]) + "/" + std::to_string(g.mrope_section[1]) + "/" +
                  std::to_string(g.mrope_section[2]) + (g.mrope_interleaved.value_or(false) ? " interleaved" : "");
  } else if (g.kind == "nope") {
    encoding = "no position encoding";
  } else if (g.kind == "none") {
    encoding = "not attention";
  } else {
    encoding = g.kind;
  }
  std::string attention = g.attention;
  if (g.window) attention += " " + grouped(static_cast<double>(*g.window));
  return {g.indices.empty() ? "every layer" : layer_list_text(g.indices),
          g.indices.empty() ? "—" : std::to_string(g.indices.size()), g.kind, encoding, attention.empty() ? "—" : attention};
}

std::string scale_values(const QueryScale& q) {
  std::string out;
  for (const auto& v : q.values) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.5f", v.second);
    out += (out.empty() ? "" : ", ") + grouped(static_cast<double>(v.first)) + " → " + buf;
  }
  return out;
}

}  // namespace

std::string model_subtitle(std::string_view model, std::string_view subtitle) {
  if (model.empty()) return std::string(subtitle);
  return std::string(model) + (subtitle.empty() ? "" : " · ") + std::string(subtitle);
}

nlohmann::ordered_json model_reading_json(const ModelReading& r, const Translator* tr) {
  nlohmann::ordered_json j;
  j["model"] = r.model;
  j["family"] = r.family;
  j["view"] = r.view.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(r.view);
  j["head_dim"] = or_null(r.head_dim);
  j["rotary_dim"] = or_null(r.rotary_dim);
  j["trained_context"] = or_null(r.trained_context);
  j["target_context"] = or_null(r.target_context);
  j["attention_factor"] = or_null(r.attention_factor);
  j["params"] = r.params;
  j["defaulted"] = r.defaulted;
  nlohmann::ordered_json warnings = nlohmann::ordered_json::array();
  for (const ModelWarning& w : r.warnings) warnings.push_back({{"id", w.id}, {"text", text_of(w, tr)}});
  j["warnings"] = warnings;
  if (!r.short_factor.empty()) j["longrope"] = {{"short_factor", r.short_factor}, {"long_factor", r.long_factor}};
  j["config_part"] = r.config_part.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(r.config_part);
  j["num_layers"] = or_null(r.num_layers);
  nlohmann::ordered_json layers = nlohmann::ordered_json::array();
  for (const LayerGroup& g : r.layers) layers.push_back(group_json(g));
  j["layers"] = layers;
  if (!r.query_scales.empty()) {
    nlohmann::ordered_json scales = nlohmann::ordered_json::array();
    for (const QueryScale& q : r.query_scales) {
      nlohmann::ordered_json s;
      s["kind"] = q.kind;
      s["formula"] = q.formula;
      s["layers"] = q.layers.empty() ? nlohmann::ordered_json("all") : nlohmann::ordered_json(q.layers);
      nlohmann::ordered_json parameters = nlohmann::ordered_json::object();
      for (const auto& p : q.parameters) parameters[p.first] = p.second;
      s["parameters"] = parameters;
      nlohmann::ordered_json values = nlohmann::ordered_json::array();
      for (const auto& v : q.values) values.push_back({{"position", v.first}, {"scale", v.second}});
      s["values"] = values;
      scales.push_back(s);
    }
    j["query_scales"] = scales;
  }
  if (!r.states.empty()) {
    nlohmann::ordered_json states = nlohmann::ordered_json::array();
    for (const FrequencyState& st : r.states) states.push_back({{"name", st.name}, {"seq_len", st.seq_len}});
    j["states"] = states;
  }
  return j;
}

std::string model_reading_text(const ModelReading& r, const Translator* tr) {
  std::ostringstream out;
  out << "model            " << tm(r.model) << "\n"
      << "family           " << tm(r.family) << (r.view.empty() ? "" : "  (poslab view: " + tm(r.view) + ")") << "\n"
      << "head_dim         " << or_dash(r.head_dim) << "\n";
  if (r.family == "rope") {
    out << "rotary_dim       " << or_dash(r.rotary_dim) << "\n";
    out << "attention_factor " << or_dash(r.attention_factor) << "\n";
  }
  out << "trained_context  " << or_dash(r.trained_context) << "\n"
      << "target_context   " << or_dash(r.target_context) << "\n";
  if (!r.params.empty()) out << "poslab           " << tm(set_flags(r)) << "\n";
  if (!r.defaulted.empty())
    out << "defaulted        " << tm(joined(r.defaulted)) << " (not in the file: the defaults of transformers' config class or of the model's own code)\n";
  if (!r.config_part.empty()) out << "config part      " << tm(r.config_part) << "\n";
  if (!r.states.empty()) {
    out << "states          ";
    for (const FrequencyState& st : r.states)
      out << " " << tm(st.name) << ": seq_len=" << st.seq_len << (&st == &r.states.front() ? " (params);" : "");
    out << "\n";
  }
  if (!r.layers.empty()) {
    out << "layers           " << (r.num_layers ? std::to_string(*r.num_layers) : std::string("—")) << "\n";
    std::vector<std::vector<std::string>> rows = {{"layers", "count", "kind", "encoding", "attention"}};
    for (const LayerGroup& g : r.layers) {
      std::vector<std::string> cells = group_cells(g);
      for (std::string& c : cells) c = tm(c);
      rows.push_back(std::move(cells));
    }
    std::vector<std::size_t> width(5, 0);
    auto columns = [](const std::string& s) {  // UTF-8 code points, for alignment
      std::size_t n = 0;
      for (unsigned char c : s) n += (c & 0xC0) != 0x80;
      return n;
    };
    for (const auto& row : rows)
      for (std::size_t i = 0; i < 5; ++i) width[i] = std::max(width[i], columns(row[i]));
    for (const auto& row : rows) {
      out << "  ";
      for (std::size_t i = 0; i < 5; ++i)
        out << row[i] << (i + 1 < 5 ? std::string(width[i] - columns(row[i]) + 2, ' ') : std::string());
      out << "\n";
    }
  }
  for (const QueryScale& q : r.query_scales)
    out << "query scale      " << tm(q.kind) << " on "
        << (q.layers.empty() ? std::string("every layer") : "layers " + layer_list_text(q.layers)) << ": " << tm(q.formula)
        << "; " << scale_values(q) << "\n";
  for (const ModelWarning& w : r.warnings) out << "\nwarning " << tm(w.id) << ": " << tm(text_of(w, tr)) << "\n";
  return out.str();
}

std::string model_reading_md(const ModelReading& r, const Translator* tr) {
  std::ostringstream out;
  out << "## " << md(r.model) << ": " << md(r.family) << "\n\n"
      << "| field | value |\n|---|---|\n"
      << "| family | " << md(r.family) << " |\n"
      << "| view | " << (r.view.empty() ? "—" : md_code(r.view)) << " |\n"
      << "| head_dim | " << or_dash(r.head_dim) << " |\n"
      << "| rotary_dim | " << or_dash(r.rotary_dim) << " |\n"
      << "| trained_context | " << or_dash(r.trained_context) << " |\n"
      << "| target_context | " << or_dash(r.target_context) << " |\n"
      << "| attention_factor | " << or_dash(r.attention_factor) << " |\n";
  if (!r.params.empty()) out << "| poslab | " << md_code(set_flags(r)) << " |\n";
  if (!r.defaulted.empty()) out << "| defaulted | " << md(joined(r.defaulted)) << " |\n";
  if (!r.config_part.empty()) out << "| config part | " << md_code(r.config_part) << " |\n";
  if (!r.states.empty()) {
    out << "| states |";
    for (const FrequencyState& st : r.states)
      out << " " << md(st.name) << ": seq_len = " << st.seq_len << (&st == &r.states.front() ? " (params);" : "");
    out << " |\n";
  }
  if (!r.layers.empty()) {
    out << "\n### Layers (" << (r.num_layers ? std::to_string(*r.num_layers) : std::string("count not given")) << ")\n\n"
        << "| layers | count | kind | encoding | attention |\n|---|---|---|---|---|\n";
    for (const LayerGroup& g : r.layers) {
      const std::vector<std::string> cells = group_cells(g);
      out << "|";
      for (const std::string& c : cells) out << " " << md(c) << " |";
      out << "\n";
    }
  }
  for (const QueryScale& q : r.query_scales)
    out << "\nQuery scale " << md_code(q.kind) << " on "
        << (q.layers.empty() ? std::string("every layer") : "layers " + layer_list_text(q.layers)) << ": "
        << md_code(q.formula) << "; " << scale_values(q) << "\n";
  if (!r.warnings.empty()) {
    out << "\n### Warnings\n\n";
    for (const ModelWarning& w : r.warnings) out << "- **" << w.id << "**: " << md(text_of(w, tr)) << "\n";
  }
  return out.str();
}

}  // namespace poslab::app
