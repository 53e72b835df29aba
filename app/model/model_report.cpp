// The three outputs of `poslab model` (docs/CONTRACT.md §5): JSON (the
// contract), text for a terminal, Markdown for notes. All three say the same.

#include <sstream>

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

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : ", ") + s;
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
  return j;
}

std::string model_reading_text(const ModelReading& r, const Translator* tr) {
  std::ostringstream out;
  out << "model            " << r.model << "\n"
      << "family           " << r.family << (r.view.empty() ? "" : "  (poslab view: " + r.view + ")") << "\n"
      << "head_dim         " << or_dash(r.head_dim) << "\n";
  if (r.family == "rope") {
    out << "rotary_dim       " << or_dash(r.rotary_dim) << "\n";
    out << "attention_factor " << or_dash(r.attention_factor) << "\n";
  }
  out << "trained_context  " << or_dash(r.trained_context) << "\n"
      << "target_context   " << or_dash(r.target_context) << "\n";
  if (!r.params.empty()) out << "poslab           " << set_flags(r) << "\n";
  if (!r.defaulted.empty()) out << "defaulted        " << joined(r.defaulted) << " (transformers' defaults)\n";
  for (const ModelWarning& w : r.warnings) out << "\nwarning " << w.id << ": " << text_of(w, tr) << "\n";
  return out.str();
}

std::string model_reading_md(const ModelReading& r, const Translator* tr) {
  std::ostringstream out;
  out << "## " << r.model << ": " << r.family << "\n\n"
      << "| field | value |\n|---|---|\n"
      << "| family | " << r.family << " |\n"
      << "| view | " << (r.view.empty() ? "—" : "`" + r.view + "`") << " |\n"
      << "| head_dim | " << or_dash(r.head_dim) << " |\n"
      << "| rotary_dim | " << or_dash(r.rotary_dim) << " |\n"
      << "| trained_context | " << or_dash(r.trained_context) << " |\n"
      << "| target_context | " << or_dash(r.target_context) << " |\n"
      << "| attention_factor | " << or_dash(r.attention_factor) << " |\n";
  if (!r.params.empty()) out << "| poslab | `" << set_flags(r) << "` |\n";
  if (!r.defaulted.empty()) out << "| defaulted | " << joined(r.defaulted) << " |\n";
  if (!r.warnings.empty()) {
    out << "\n### Warnings\n\n";
    for (const ModelWarning& w : r.warnings) out << "- **" << w.id << "**: " << text_of(w, tr) << "\n";
  }
  return out.str();
}

}  // namespace poslab::app
