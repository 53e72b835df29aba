#include "app/common/messages.hpp"

#include <cmath>

#include "app/common/assets.hpp"
#include "app/common/sentences.hpp"

namespace poslab::app {

namespace {

using Args = std::vector<std::pair<std::string, std::string>>;

/// core's bound_phrase: "in 2..8192", "> 1 and <= 1e12", ">= 0", "" (no bound).
/// The comparison operators are symbols and stay as they are in every language.
std::string bound_text(const Translator& tr, const core::ParamSpec& s) {
  const bool has_min = std::isfinite(s.min), has_max = std::isfinite(s.max);
  const std::string lo = core::format_number(s.min), hi = core::format_number(s.max);
  if (has_min && has_max && !s.min_exclusive && !s.max_exclusive)
    return tr.format("error.bound.in", {{"min", lo}, {"max", hi}});
  const std::string lower = has_min ? (s.min_exclusive ? "> " : ">= ") + lo : std::string();
  const std::string upper = has_max ? (s.max_exclusive ? "< " : "<= ") + hi : std::string();
  if (has_min && has_max) return tr.format("error.bound.both", {{"lower", lower}, {"upper", upper}});
  return has_min ? lower : upper;
}

core::ParamType type_named(std::string_view name, core::ParamType fallback) {
  using T = core::ParamType;
  for (const auto& [word, type] : {std::pair{"integer", T::integer}, std::pair{"real", T::real},
                                   std::pair{"boolean", T::boolean}, std::pair{"choice", T::choice},
                                   std::pair{"list", T::list}, std::pair{"vector", T::vector}})
    if (name == word) return type;
  return fallback;
}

const std::string* arg(const Args& args, std::string_view name) {
  for (const auto& [n, v] : args)
    if (n == name) return &v;
  return nullptr;
}

}  // namespace

std::string allowed_text(const Translator& tr, const core::ParamSpec& s) {
  using T = core::ParamType;
  const std::string bound = bound_text(tr, s);
  switch (s.type) {
    case T::integer: return tr.format(s.even ? "error.spec.even_integer" : "error.spec.integer", {{"bound", bound}});
    case T::real: return tr.format("error.spec.real", {{"bound", bound}});
    case T::boolean: return tr("error.spec.boolean");
    case T::choice: {
      std::string choices;
      for (std::string_view c : core::param_choices(s)) choices += (choices.empty() ? "" : ", ") + std::string(c);
      return tr.format("error.spec.choice", {{"choices", choices}});
    }
    case T::list:
      return tr.format(s.integral_items ? "error.spec.list_integers" : "error.spec.list",
                       {{"bound", bound}, {"min_items", std::to_string(s.min_items)},
                        {"max_items", std::to_string(s.max_items)}});
    case T::vector: {
      std::string items = std::to_string(s.min_items);
      if (s.max_items != s.min_items) items += ".." + std::to_string(s.max_items);
      return tr.format(s.even ? "error.spec.vector_even" : "error.spec.vector", {{"items", items}, {"bound", bound}});
    }
  }
  return {};
}

const Translator& english_translator() {
  static const Translator tr = [] {
    try {
      return Translator::load(assets_dir(), "en");
    } catch (const std::exception&) {
      return Translator();
    }
  }();
  return tr;
}

Translator translator_for(std::string_view lang) {
  const std::string l = lang.empty() ? system_language() : std::string(lang);
  if (l != "zh") return english_translator();
  try {
    return Translator::load(assets_dir(), l);
  } catch (const std::exception&) {
    return english_translator();
  }
}

std::string error_text(const Translator& tr, const std::exception& e) {
  const auto* ip = dynamic_cast<const core::InvalidParameter*>(&e);
  if (!ip) return e.what();
  // what() is a C string: a NUL a file put in the value would cut it short.
  if (ip->reason().id.empty()) return ip->key() + " = " + ip->value() + ": " + ip->allowed();
  const core::Reason& r = ip->reason();
  const core::ParamSpec* spec = core::find_param(ip->key());

  std::string allowed;
  if (r.id == "spec") {
    if (!spec) return e.what();
    core::ParamSpec as_checked = *spec;
    if (const std::string* type = arg(r.args, "type")) as_checked.type = type_named(*type, spec->type);
    allowed = allowed_text(tr, as_checked);
  } else {
    const std::string* text = tr.find("error." + r.id);
    if (!text) return e.what();
    Args args;
    for (const auto& [name, value] : r.args) {
      if (name.empty() || name[0] != '@') continue;  // a phrase: {name} ← error.phrase.<value>
      if (!tr.find("error.phrase." + value)) return e.what();
      args.emplace_back(name.substr(1), tr.format("error.phrase." + value, r.args));
    }
    // A parameter's own refusal inside this one (a deck's "invalid
    // parameter: d = 7: must be an even integer …"): in this language too.
    if (const std::optional<core::InvalidParameter> inner = nested_in(r)) args.emplace_back("detail", error_text(tr, *inner));
    args.insert(args.end(), r.args.begin(), r.args.end());
    if (spec) args.emplace_back("spec", allowed_text(tr, *spec));
    args.emplace_back("key", ip->key());
    allowed = tr.format("error." + r.id, args);
    if (!r.value_id.empty()) {  // the value's phrases filled as the sentence's
      if (!tr.find("error.value." + r.value_id)) return e.what();
      return tr.format("error.line", {{"allowed", allowed}, {"key", ip->key()},
                                      {"value", tr.format("error.value." + r.value_id, args)}});
    }
  }
  std::string value = ip->value();
  if (!r.value_id.empty()) {
    if (!tr.find("error.value." + r.value_id)) return e.what();
    value = tr.format("error.value." + r.value_id, r.args);
  }
  // The user's own text (key, value) goes in last, so braces in it are never filled.
  return tr.format("error.line", {{"allowed", allowed}, {"key", ip->key()}, {"value", value}});
}

}  // namespace poslab::app
