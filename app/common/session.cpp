#include "app/common/session.hpp"

#include <algorithm>
#include <cmath>
#include <span>
#include <nlohmann/json.hpp>

#include "app/common/assets.hpp"
#include "app/common/atomic_file.hpp"
#include "app/common/json_input.hpp"
#include "app/common/sentences.hpp"

namespace poslab::app {

namespace {

using nlohmann::json;

constexpr int kMaxDepth = 8;                    // the format needs 3
constexpr std::size_t kMaxStateBytes = 1u << 20;  // a state string is one line

[[noreturn]] void bad(std::string_view what, std::string_view source, const std::string& why) {
  throw core::InvalidParameter(std::string(what), std::string(source), why);
}

/// "invalid parameter: d = 7: must be an even integer in 2..8192", with the
/// parameter's own refusal carried whole (a UI says it in its language).
[[noreturn]] void bad_param(std::string_view what, std::string_view source, const core::InvalidParameter& e) {
  throw core::InvalidParameter(std::string(what), std::string(source), std::string("invalid parameter: ") + e.what(),
                               with_nested(core::Reason{"session_invalid_param", {{"detail", e.what()}}}, e));
}

// The fields of a session file and of its animation (docs/CONTRACT.md §6);
// any other key is refused with the nearest of these, never dropped.
constexpr std::string_view kSessionFields[] = {"format", "version", "lesson", "preset", "theme", "params", "animation"};
constexpr std::string_view kAnimationFields[] = {"key", "from", "to", "speed", "mode", "playing"};

void check_fields(const json& object, std::span<const std::string_view> fields, const char* what,
                  std::string_view source) {
  for (const auto& [key, value] : object.items()) {
    if (std::find(fields.begin(), fields.end(), key) != fields.end()) continue;
    const std::string near = nearest_name(key, fields);
    std::string list;
    for (std::string_view f : fields) list += (list.empty() ? "" : ", ") + std::string(f);
    bad("session", source,
        json(key.substr(0, 40)).dump(-1, ' ', true, json::error_handler_t::replace) + " is not a field of " + what +
            (near.empty() ? " (" + list + ")" : "; did you mean \"" + near + "\"?"));
  }
}

/// A parameter value as typed: strings as they are, numbers and booleans
/// (hand-written files) in their shortest form; anything else is refused.
std::string typed_value(const json& v, const std::string& key, std::string_view source) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_number()) {
    const double x = v.get<double>();
    if (!std::isfinite(x)) bad("session", source, "parameter \"" + key + "\" is not a finite number");
    return core::format_number(x);
  }
  bad("session", source, "parameter \"" + key + "\" must be text as typed (e.g. \"0:9\"), a number or true/false");
}

double finite_number(const json& j, const char* field, std::string_view source) {
  if (!j.contains(field)) bad("session", source, std::string("animation needs \"") + field + "\"");
  const json& v = j.at(field);
  if (!v.is_number() || !std::isfinite(v.get<double>()))
    bad("session", source, std::string("animation \"") + field + "\" must be a finite number");
  return v.get<double>();
}

std::string optional_text(const json& j, const char* field, std::string_view source) {
  if (!j.contains(field) || j.at(field).is_null()) return {};
  if (!j.at(field).is_string()) bad("session", source, std::string("\"") + field + "\" must be text");
  return j.at(field).get<std::string>();
}

/// A value as a user types it: whole numbers in plain digits ("500000", not
/// core's shortest "5e+05"), everything else in core's form.
std::string typed_text(const core::ParamSpec& spec, const core::ParamValue& value) {
  if (const double* x = std::get_if<double>(&value); x && std::floor(*x) == *x && std::abs(*x) < 1e15) {
    const auto whole = static_cast<long long>(*x);
    return std::to_string(whole);
  }
  return core::format_param_value(spec, value);
}

/// Checks one parameter (known key, valid value) and returns it normalised.
std::pair<std::string, std::string> checked_param(std::string_view what, std::string_view source,
                                                  const std::string& key, const std::string& text) {
  const core::ParamSpec* spec = core::find_param(key);
  if (!spec) {
    std::vector<std::string_view> keys;
    for (const core::ParamSpec& p : core::param_specs()) keys.push_back(p.key);
    const std::string near = nearest_name(key, keys);
    bad(what, source,
        "unknown parameter " + json(key.substr(0, 40)).dump(-1, ' ', true, json::error_handler_t::replace) +
            (near.empty() ? std::string() : "; did you mean \"" + near + "\"?"));
  }
  try {
    return {key, typed_text(*spec, core::parse_param_value(*spec, text))};
  } catch (const core::InvalidParameter& e) {
    bad_param(what, source, e);
  }
}

/// Lesson and preset ids are short words of letters, digits, '.', '_' and '-'
/// ("rope-2d", "llama3.1-8b"). Anything else (blanks, '=', control bytes,
/// invalid UTF-8) could not be written back into a session file or a state
/// string, so it is refused on the way in.
void check_id(std::string_view what, std::string_view source, std::string_view field, std::string_view id) {
  const bool ok = !id.empty() && id.size() <= 64 && std::all_of(id.begin(), id.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
  });
  if (!ok) bad(what, source, "has an invalid " + std::string(field) + " id (letters, digits, '.', '_', '-'; at most 64)");
}

void check_theme(std::string_view what, std::string_view source, const std::string& theme) {
  if (!theme.empty() && theme != "light" && theme != "dark" && theme != "projector")
    bad(what, source, "theme must be light, dark or projector");
}

/// A number no double holds, where the parser found it: in "params" it is
/// that parameter's value, refused with the parameter's own range (as
/// `--set d=1e999` is); elsewhere the reader's message names the field.
[[noreturn]] void number_out_of_range(std::string_view source, const JsonInputError& e) {
  const JsonPath& p = e.path();
  if (p.size() == 2 && p[0] == JsonPath::value_type(std::string("params")) && std::holds_alternative<std::string>(p[1]))
    (void)checked_param("session", source, std::get<std::string>(p[1]), e.detail());
  throw core::InvalidParameter("session", std::string(source), e.what(), e.reason());
}

void sort_params(Session& s) {
  std::sort(s.params.begin(), s.params.end());
  for (std::size_t i = 1; i < s.params.size(); ++i)
    if (s.params[i].first == s.params[i - 1].first)
      throw core::InvalidParameter("session", s.params[i].first, "parameter given twice");
}

}  // namespace

PlayMode parse_play_mode(std::string_view word) {
  if (word == "loop") return PlayMode::loop;
  if (word == "bounce") return PlayMode::bounce;
  if (word == "once") return PlayMode::once;
  throw core::InvalidParameter("mode", std::string(word), "must be one of loop, bounce, once",
                               core::Reason{"one_of", {{"choices", "loop, bounce, once"}}, {}});
}

const char* play_mode_name(PlayMode mode) {
  switch (mode) {
    case PlayMode::loop: return "loop";
    case PlayMode::bounce: return "bounce";
    case PlayMode::once: return "once";
  }
  return "loop";
}

core::Params Session::to_params() const {
  core::Params p;
  for (const auto& [key, text] : params) p.set_text(key, text);
  return p;
}

void Session::set_params(const core::Params& p) {
  params.clear();
  for (const std::string& key : p.set_keys()) {
    const core::ParamSpec& spec = core::param_spec(key);
    params.emplace_back(key, typed_text(spec, p.value(key)));
  }
}

std::string write_session(const Session& s) {
  json j = json::object();
  j["format"] = "poslab-session";
  j["version"] = kSessionVersion;
  j["lesson"] = s.lesson;
  if (!s.preset.empty()) j["preset"] = s.preset;
  if (!s.theme.empty()) j["theme"] = s.theme;
  json params = json::object();
  for (const auto& [key, text] : s.params) params[key] = text;
  j["params"] = std::move(params);
  if (s.animation) {
    const SessionAnimation& a = *s.animation;
    j["animation"] = {{"key", a.key}, {"from", a.from}, {"to", a.to}, {"speed", a.speed},
                      {"mode", play_mode_name(a.mode)}, {"playing", a.playing}};
  }
  return j.dump(2) + "\n";
}

Session parse_session(std::string_view text, std::string_view source) {
  if (text.size() > kMaxSessionBytes) bad("session", source, "is too large to be a poslab session");
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) bad("session", source, "is empty");
  json j;
  try {
    j = parse_json_input(text, {.max_depth = kMaxDepth});
  } catch (const JsonInputError& e) {
    if (e.problem() == JsonProblem::number_out_of_range) number_out_of_range(source, e);
    throw core::InvalidParameter("session", std::string(source), e.what(), e.reason());
  }
  if (!j.is_object() || !j.contains("format") || j["format"] != "poslab-session")
    bad("session", source, "is not a poslab session file");
  if (!j.contains("version") || !j["version"].is_number_integer())
    bad("session", source, "has no version number");
  const auto version = j["version"].get<long long>();
  if (version > kSessionVersion)
    bad("session", source, "was written by a newer poslab (session version " + std::to_string(version) +
                               "); this one reads version " + std::to_string(kSessionVersion));
  if (version < 1) bad("session", source, "has an invalid version number");
  check_fields(j, kSessionFields, "a session", source);

  Session s;
  if (!j.contains("lesson") || !j["lesson"].is_string() || j["lesson"].get<std::string>().empty())
    bad("session", source, "needs a \"lesson\"");
  s.lesson = j["lesson"].get<std::string>();
  check_id("session", source, "lesson", s.lesson);
  s.preset = optional_text(j, "preset", source);
  if (!s.preset.empty()) check_id("session", source, "preset", s.preset);
  s.theme = optional_text(j, "theme", source);
  check_theme("session", source, s.theme);

  if (j.contains("params")) {
    const json& params = j["params"];
    if (!params.is_object()) bad("session", source, "\"params\" must be an object of key: value");
    if (params.size() > core::param_specs().size())
      bad("session", source, "has more parameters than poslab knows");
    for (const auto& [key, value] : params.items())
      s.params.push_back(checked_param("session", source, key, typed_value(value, key, source)));
  }
  sort_params(s);

  if (j.contains("animation") && !j["animation"].is_null()) {
    const json& a = j["animation"];
    if (!a.is_object()) bad("session", source, "\"animation\" must be an object");
    check_fields(a, kAnimationFields, "an animation", source);
    SessionAnimation anim;
    anim.key = optional_text(a, "key", source);
    const core::ParamSpec* spec = core::find_param(anim.key);
    if (!spec || (spec->type != core::ParamType::integer && spec->type != core::ParamType::real))
      bad("session", source, "animation \"key\" must name a numeric parameter");
    anim.from = finite_number(a, "from", source);
    anim.to = finite_number(a, "to", source);
    anim.speed = a.contains("speed") ? finite_number(a, "speed", source) : 1.0;
    if (!(anim.speed >= 0.05 && anim.speed <= 20)) bad("session", source, "animation \"speed\" must be in 0.05..20");
    try {
      anim.mode = parse_play_mode(optional_text(a, "mode", source).empty() ? "loop" : optional_text(a, "mode", source));
    } catch (const core::InvalidParameter& e) {
      bad("session", source, std::string("animation ") + e.what());
    }
    if (a.contains("playing")) {
      if (!a["playing"].is_boolean()) bad("session", source, "animation \"playing\" must be true or false");
      anim.playing = a["playing"].get<bool>();
    }
    s.animation = anim;
  }
  // Every parameter valid on its own; together they must be a valid Params too.
  try {
    (void)s.to_params();
  } catch (const core::InvalidParameter& e) {
    bad_param("session", source, e);
  }
  return s;
}

Session load_session_file(const std::filesystem::path& path) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  std::error_code missing;
  if (ec && !std::filesystem::exists(path, missing)) throw IoError("cannot read " + path.string() + ": " + ec.message());
  if (!ec && size > kMaxSessionBytes) bad("session", path.filename().string(), "is too large to be a poslab session");
  // Read with a cap whatever file_size says: a device (/dev/zero) says 0.
  std::string text;
  try {
    text = read_text_file(path, kMaxSessionBytes, "a poslab session");
  } catch (const TooLargeError&) {
    bad("session", path.filename().string(), "is too large to be a poslab session");
  }
  return parse_session(text, path.filename().string());
}

void save_session_file(const std::filesystem::path& path, const Session& session) {
  write_file_atomically(path, write_session(session));
}

std::string session_state_string(const Session& s) {
  std::string out = "poslab:" + std::to_string(kSessionVersion) + " lesson=" + s.lesson;
  if (!s.preset.empty()) out += " preset=" + s.preset;
  for (const auto& [key, text] : s.params) out += " " + key + "=" + text;
  return out;
}

Session parse_state_string(std::string_view text) {
  constexpr std::string_view kWhat = "state";
  if (text.size() > kMaxStateBytes) bad(kWhat, "(clipboard)", "is too long to be a poslab state");
  std::vector<std::string_view> tokens;
  std::size_t i = 0;
  auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  while (i < text.size()) {
    while (i < text.size() && blank(text[i])) ++i;
    const std::size_t start = i;
    while (i < text.size() && !blank(text[i])) ++i;
    if (i > start) tokens.push_back(text.substr(start, i - start));
  }
  const std::string shown = tokens.empty() ? std::string("\"\"") : std::string(tokens[0].substr(0, 24));
  if (tokens.empty() || tokens[0].substr(0, 7) != "poslab:")
    bad(kWhat, shown, "is not a poslab state (it starts with poslab:1)");
  const std::string_view ver = tokens[0].substr(7);
  if (ver != std::to_string(kSessionVersion)) {
    if (!ver.empty() && std::all_of(ver.begin(), ver.end(), [](char c) { return c >= '0' && c <= '9'; }) &&
        ver.size() < 6 && std::stoi(std::string(ver)) > kSessionVersion)
      bad(kWhat, shown, "comes from a newer poslab; this one reads poslab:" + std::to_string(kSessionVersion));
    bad(kWhat, shown, "has an unknown version");
  }
  Session s;
  for (std::size_t t = 1; t < tokens.size(); ++t) {
    const std::string_view tok = tokens[t];
    const std::size_t eq = tok.find('=');
    if (eq == std::string_view::npos || eq == 0)
      bad(kWhat, std::string(tok.substr(0, 40)), "expected KEY=VALUE");
    const std::string key(tok.substr(0, eq));
    const std::string value(tok.substr(eq + 1));
    if (key == "lesson" || key == "preset") {
      std::string& id = key == "lesson" ? s.lesson : s.preset;
      if (!id.empty()) bad(kWhat, "(clipboard)", key + " given twice");
      check_id(kWhat, "(clipboard)", key, value);
      id = value;
    } else {
      s.params.push_back(checked_param(kWhat, "(clipboard)", key, value));
    }
  }
  if (s.lesson.empty()) bad(kWhat, shown, "names no lesson (lesson=ID)");
  try {
    sort_params(s);
    (void)s.to_params();
  } catch (const core::InvalidParameter& e) {
    bad(kWhat, "(clipboard)", e.what());
  }
  return s;
}

}  // namespace poslab::app
