#include "app/decks/deck.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <optional>
#include <span>

#include <nlohmann/json.hpp>

#include "app/common/assets.hpp"
#include "app/common/atomic_file.hpp"
#include "app/common/json_input.hpp"
#include "app/lessons/lesson.hpp"
#include "poslab/core/errors.hpp"

namespace poslab::app {

namespace {

using nlohmann::json;

/// JSON nesting a deck needs: deck → scenes → scene → reveal → params (5).
constexpr int kMaxDeckDepth = 16;

[[noreturn]] void bad(const std::string& where, const std::string& why) {
  throw core::InvalidParameter("deck", where, why);
}

std::string scene_name(std::string_view source, std::size_t index) {
  return std::string(source) + ", scene " + std::to_string(index + 1);
}

// The fields each object of a deck may hold (docs/DECKS.md); any other key is
// refused by name with the nearest of these, never dropped.
constexpr std::string_view kDeckFields[] = {"format", "version", "title", "scenes"};
constexpr std::string_view kSceneFields[] = {"lesson", "params", "figure", "sliders",   "caption",    "question",
                                             "answer", "reveal", "notes",  "animation", "hide_figure"};
constexpr std::string_view kRevealFields[] = {"params", "figure"};
constexpr std::string_view kAnimationFields[] = {"key", "from", "to", "speed", "mode", "playing"};

/// Reading one deck text: every refusal names the file, the scene, the field
/// and, found in the text only then, its line and column:
/// "deck = course.json, scene 3, params (line 14, column 7): …".
class DeckReader {
 public:
  DeckReader(std::string_view text, std::string source) : text_(text), source_(std::move(source)) {}

  const std::string& source() const { return source_; }

  /// `field` is relative to scene `scene` (or to the deck when there is none).
  [[noreturn]] void bad(std::optional<std::size_t> scene, const JsonPath& field, const std::string& why) const {
    JsonPath full;
    if (scene) full = {std::string("scenes"), *scene};
    full.insert(full.end(), field.begin(), field.end());
    JsonPlace place = json_place_of(text_, full);
    for (JsonPath up = full; !place.known() && !up.empty();) {  // an absent field: where its object starts
      up.pop_back();
      place = json_place_of(text_, up);
    }
    std::string where = scene ? scene_name(source_, *scene) : source_;
    if (!field.empty()) where += ", " + json_path_text(field);
    if (place.known()) where += " (" + json_place_text(place) + ")";
    app::bad(where, why);
  }

  /// Refuses the first key of `object` that is not one of `fields`, naming
  /// the nearest one ("\"captoin\" is not a field of a scene; did you mean \"caption\"?").
  void check_fields(std::optional<std::size_t> scene, const JsonPath& at, const json& object,
                    std::span<const std::string_view> fields, const char* what) const {
    for (const auto& [key, value] : object.items()) {
      if (std::find(fields.begin(), fields.end(), key) != fields.end()) continue;
      JsonPath field = at;
      field.emplace_back(key);
      const std::string near = nearest_name(key, fields);
      std::string list;
      for (std::string_view f : fields) list += (list.empty() ? "" : ", ") + std::string(f);
      const std::string shown = json(key.substr(0, 40)).dump(-1, ' ', true, json::error_handler_t::replace);
      bad(scene, field,
          shown + " is not a field of " + what +
              (near.empty() ? " (" + list + ")" : "; did you mean \"" + near + "\"?"));
    }
  }

 private:
  std::string_view text_;
  std::string source_;
};

/// One scene being read: the deck, the scene's index and a refusal naming both.
struct SceneReader {
  const DeckReader& deck;
  std::size_t index;
  [[noreturn]] void bad(const JsonPath& field, const std::string& why) const { deck.bad(index, field, why); }
};

LocalText local_text(const json& j, const char* field, const DeckReader& deck, std::optional<std::size_t> scene) {
  if (!j.contains(field) || j.at(field).is_null()) return {};
  const json& v = j.at(field);
  if (v.is_string()) return {v.get<std::string>(), {}};
  if (!v.is_object()) deck.bad(scene, {field}, std::string("\"") + field + "\" must be text or {\"en\": …, \"zh\": …}");
  LocalText t;
  for (const auto& [lang, text] : v.items()) {
    if (!text.is_string()) deck.bad(scene, {field, lang}, std::string("\"") + field + "\"." + lang + " must be text");
    if (lang == "en") t.en = text.get<std::string>();
    else if (lang == "zh") t.zh = text.get<std::string>();
    else
      deck.bad(scene, {field, lang},
               std::string("\"") + field + "\" has a language poslab does not know: \"" + lang.substr(0, 8) + "\" (en, zh)");
  }
  if (t.en.empty()) deck.bad(scene, {field}, std::string("\"") + field + "\" needs an English text (\"en\")");
  return t;
}

std::string optional_word(const json& j, const char* field, const SceneReader& r, const JsonPath& at = {}) {
  if (!j.contains(field) || j.at(field).is_null()) return {};
  JsonPath path = at;
  path.emplace_back(std::string(field));
  if (!j.at(field).is_string()) r.bad(path, std::string("\"") + field + "\" must be text");
  return j.at(field).get<std::string>();
}

/// The scene's lesson, params and animation read as a session would be (the
/// same checks, the same normalised values), re-raised as a deck error.
Session scene_state(const json& params, const json* animation, const std::string& lesson, const SceneReader& r,
                    const JsonPath& at) {
  json s = {{"format", "poslab-session"}, {"version", kSessionVersion}, {"lesson", lesson}, {"params", params}};
  if (animation) s["animation"] = *animation;
  try {
    return parse_session(s.dump(), r.deck.source());
  } catch (const core::InvalidParameter& e) {
    const bool in_animation = animation && e.allowed().find("animation") != std::string::npos;
    r.bad(in_animation ? JsonPath{std::string("animation")} : at, e.allowed());
  }
}

/// Every key of `params` is one of the lesson's, and the lesson's defaults
/// plus these values break none of its rules.
void check_params_for(const ViewDef& view, const std::vector<std::pair<std::string, std::string>>& params,
                      const SceneReader& r, const JsonPath& at) {
  Session s;
  s.lesson = std::string(view.id);
  s.params = params;
  for (const auto& [key, value] : params)
    if (std::find(view.keys.begin(), view.keys.end(), key) == view.keys.end()) {
      JsonPath path = at;
      path.emplace_back(key);
      r.bad(path, "\"" + key + "\" is not a parameter of " + std::string(view.id));
    }
  try {
    (void)resolve_view_params(view, s.to_params());
  } catch (const core::InvalidParameter& e) {
    r.bad(at, std::string("invalid parameter: ") + e.what());
  }
}

void check_figure(const ViewDef& view, const std::string& figure, const SceneReader& r, const JsonPath& at) {
  if (!figure.empty() && !find_figure(view, figure))
    r.bad(at, "figure \"" + figure.substr(0, 40) + "\" is not a figure of " + std::string(view.id));
}

Scene parse_scene(const json& j, const SceneReader& r) {
  if (!j.is_object()) r.bad({}, "must be an object with a \"lesson\"");
  r.deck.check_fields(r.index, {}, j, kSceneFields, "a scene");
  Scene sc;
  sc.lesson = optional_word(j, "lesson", r);
  if (sc.lesson.empty()) r.bad({}, "needs a \"lesson\"");
  const ViewDef* view = find_view(sc.lesson);
  if (!view) r.bad({"lesson"}, "\"" + sc.lesson.substr(0, 40) + "\" is not a lesson (poslab list views)");

  const json no_params = json::object();
  const json& params = j.contains("params") && !j.at("params").is_null() ? j.at("params") : no_params;
  const json* animation = j.contains("animation") && !j.at("animation").is_null() ? &j.at("animation") : nullptr;
  if (animation && animation->is_object()) r.deck.check_fields(r.index, {"animation"}, *animation, kAnimationFields, "an animation");
  Session state = scene_state(params, animation, sc.lesson, r, {"params"});
  sc.params = std::move(state.params);
  sc.animation = state.animation;
  check_params_for(*view, sc.params, r, {"params"});
  if (sc.animation && std::find(view->keys.begin(), view->keys.end(), sc.animation->key) == view->keys.end())
    r.bad({"animation", "key"}, "animation \"key\" must be a parameter of " + sc.lesson);

  sc.figure = optional_word(j, "figure", r);
  check_figure(*view, sc.figure, r, {"figure"});
  if (j.contains("sliders") && !j.at("sliders").is_null()) {
    const json& sl = j.at("sliders");
    if (!sl.is_array()) r.bad({"sliders"}, "\"sliders\" must be a list of parameter names");
    for (std::size_t k = 0; k < sl.size(); ++k) {
      if (!sl[k].is_string()) r.bad({"sliders", k}, "\"sliders\" must be a list of parameter names");
      const std::string key = sl[k].get<std::string>();
      if (std::find(view->keys.begin(), view->keys.end(), key) == view->keys.end())
        r.bad({"sliders", k}, "slider \"" + key.substr(0, 40) + "\" is not a parameter of " + sc.lesson);
      sc.sliders.push_back(key);
    }
  }
  sc.caption = local_text(j, "caption", r.deck, r.index);
  sc.question = local_text(j, "question", r.deck, r.index);
  sc.answer = local_text(j, "answer", r.deck, r.index);
  sc.notes = local_text(j, "notes", r.deck, r.index);
  if (sc.question.empty() != sc.answer.empty())
    r.bad({sc.question.empty() ? "answer" : "question"}, "a \"question\" needs an \"answer\" and the other way round");

  if (j.contains("reveal") && !j.at("reveal").is_null()) {
    const json& rv = j.at("reveal");
    if (!rv.is_object()) r.bad({"reveal"}, "\"reveal\" must be an object with \"params\" and/or \"figure\"");
    r.deck.check_fields(r.index, {"reveal"}, rv, kRevealFields, "a reveal");
    if (!sc.has_question()) r.bad({"reveal"}, "\"reveal\" needs a \"question\" to answer");
    const json& rp = rv.contains("params") && !rv.at("params").is_null() ? rv.at("params") : no_params;
    sc.reveal_params = scene_state(rp, nullptr, sc.lesson, r, {"reveal", "params"}).params;
    sc.reveal_figure = optional_word(rv, "figure", r, {"reveal"});
    check_figure(*view, sc.reveal_figure, r, {"reveal", "figure"});
    check_params_for(*view, sc.session(true).params, r, {"reveal", "params"});
  }
  if (j.contains("hide_figure") && !j.at("hide_figure").is_null()) {
    if (!j.at("hide_figure").is_boolean()) r.bad({"hide_figure"}, "\"hide_figure\" must be true or false");
    sc.hide_figure = j.at("hide_figure").get<bool>();
    if (sc.hide_figure && !sc.has_question())
      r.bad({"hide_figure"}, "\"hide_figure\" needs a \"question\": the answer shows the figure");
  }
  return sc;
}

json text_json(const LocalText& t) {
  if (t.zh.empty()) return t.en;
  return {{"en", t.en}, {"zh", t.zh}};
}

json params_json(const std::vector<std::pair<std::string, std::string>>& params) {
  json p = json::object();
  for (const auto& [key, value] : params) p[key] = value;
  return p;
}

}  // namespace

const std::string& LocalText::in(std::string_view lang) const {
  if (lang == "zh") return zh.empty() ? en : zh;
  return en.empty() ? zh : en;
}

Session Scene::session(bool revealed) const {
  Session s;
  s.lesson = lesson;
  s.params = params;
  if (revealed)
    for (const auto& reveal : reveal_params) {
      auto it = std::find_if(s.params.begin(), s.params.end(), [&](const auto& kv) { return kv.first == reveal.first; });
      if (it != s.params.end()) it->second = reveal.second;
      else s.params.push_back(reveal);
    }
  std::sort(s.params.begin(), s.params.end());
  s.animation = animation;
  return s;
}

Deck parse_deck(std::string_view text, std::string_view source) {
  const std::string src(source);
  if (text.size() > kMaxDeckBytes) bad(src, "is too large to be a poslab deck");
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) bad(src, "is empty");
  json j;
  try {
    j = parse_json_input(text, {.max_depth = kMaxDeckDepth});
  } catch (const JsonInputError& e) {
    // A number beyond a double as a scene's parameter is that parameter's
    // error (d = 1e999: must be an even integer in 2..8192), as in a session.
    const JsonPath& p = e.path();
    const bool in_params = e.problem() == JsonProblem::number_out_of_range && p.size() >= 4 &&
                           p[0] == JsonPath::value_type(std::string("scenes")) &&
                           std::holds_alternative<std::size_t>(p[1]) && std::holds_alternative<std::string>(p.back()) &&
                           (p.size() == 4 ? p[2] == JsonPath::value_type(std::string("params"))
                                          : p.size() == 5 && p[2] == JsonPath::value_type(std::string("reveal")) &&
                                                p[3] == JsonPath::value_type(std::string("params")));
    if (in_params) {
      const std::string& key = std::get<std::string>(p.back());
      std::string why = e.what();
      if (const core::ParamSpec* spec = core::find_param(key)) {
        try {
          (void)core::parse_param_value(*spec, e.detail());
        } catch (const core::InvalidParameter& pe) {
          why = std::string("invalid parameter: ") + pe.what();
        }
      }
      const DeckReader reader(text, src);
      reader.bad(std::get<std::size_t>(p[1]), JsonPath(p.begin() + 2, p.end()), why);
    }
    throw core::InvalidParameter("deck", src, e.what(), e.reason());
  }
  const DeckReader reader(text, src);
  if (!j.is_object() || !j.contains("format") || j["format"] != "poslab-deck") bad(src, "is not a poslab deck");
  if (!j.contains("version") || !j["version"].is_number_integer()) reader.bad({}, {"version"}, "has no version number");
  const auto version = j["version"].get<long long>();
  if (version > kDeckVersion)
    bad(src, "was written by a newer poslab (deck version " + std::to_string(version) + "); this one reads version " +
                 std::to_string(kDeckVersion));
  if (version < 1) reader.bad({}, {"version"}, "has an invalid version number");
  reader.check_fields({}, {}, j, kDeckFields, "a deck");
  Deck deck;
  deck.title = local_text(j, "title", reader, std::nullopt);
  if (!j.contains("scenes") || !j["scenes"].is_array()) reader.bad({}, {"scenes"}, "needs \"scenes\": a list of scenes");
  const json& scenes = j["scenes"];
  if (scenes.empty()) reader.bad({}, {"scenes"}, "has no scenes");
  if (scenes.size() > kMaxScenes) reader.bad({}, {"scenes"}, "has more than " + std::to_string(kMaxScenes) + " scenes");
  for (std::size_t i = 0; i < scenes.size(); ++i) deck.scenes.push_back(parse_scene(scenes[i], SceneReader{reader, i}));
  return deck;
}

Deck load_deck_file(const std::filesystem::path& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw IoError("cannot read " + path.string() + ": it is a folder");
  const auto size = std::filesystem::file_size(path, ec);
  std::error_code missing;
  if (ec && !std::filesystem::exists(path, missing)) throw IoError("cannot read " + path.string() + ": " + ec.message());
  if (!ec && size > kMaxDeckBytes) bad(path.filename().string(), "is too large to be a poslab deck");
  // Read with a cap whatever file_size says: a device (/dev/zero) says 0.
  std::string text;
  try {
    text = read_text_file(path, kMaxDeckBytes, "a poslab deck");
  } catch (const TooLargeError&) {
    bad(path.filename().string(), "is too large to be a poslab deck");
  }
  return parse_deck(text, path.filename().string());
}

std::string write_deck(const Deck& deck) {
  json scenes = json::array();
  for (const Scene& s : deck.scenes) {
    json j = {{"lesson", s.lesson}};
    if (!s.params.empty()) j["params"] = params_json(s.params);
    if (!s.figure.empty()) j["figure"] = s.figure;
    if (!s.sliders.empty()) j["sliders"] = s.sliders;
    if (!s.caption.empty()) j["caption"] = text_json(s.caption);
    if (!s.notes.empty()) j["notes"] = text_json(s.notes);
    if (s.has_question()) {
      j["question"] = text_json(s.question);
      j["answer"] = text_json(s.answer);
    }
    if (!s.reveal_params.empty() || !s.reveal_figure.empty()) {
      json r = json::object();
      if (!s.reveal_params.empty()) r["params"] = params_json(s.reveal_params);
      if (!s.reveal_figure.empty()) r["figure"] = s.reveal_figure;
      j["reveal"] = r;
    }
    if (s.hide_figure) j["hide_figure"] = true;
    if (s.animation) {
      const SessionAnimation& a = *s.animation;
      j["animation"] = {{"key", a.key},   {"from", a.from},   {"to", a.to},
                        {"speed", a.speed}, {"mode", play_mode_name(a.mode)}, {"playing", a.playing}};
    }
    scenes.push_back(std::move(j));
  }
  json out = {{"format", "poslab-deck"}, {"version", kDeckVersion}};
  if (!deck.title.empty()) out["title"] = text_json(deck.title);
  out["scenes"] = std::move(scenes);
  return out.dump(2) + "\n";
}

void save_deck_file(const std::filesystem::path& path, const Deck& deck) {
  write_file_atomically(path, write_deck(deck));
}

const Deck* lesson_steps(std::string_view view_id) {
  static std::mutex mutex;
  static std::map<std::string, std::optional<Deck>, std::less<>> loaded;
  const std::lock_guard lock(mutex);
  auto it = loaded.find(view_id);
  if (it == loaded.end()) {
    std::optional<Deck> deck;
    const std::filesystem::path path = assets_dir() / "steps" / (std::string(view_id) + ".json");
    std::error_code ec;
    if (std::filesystem::exists(path, ec)) {
      deck = load_deck_file(path);
      for (const Scene& s : deck->scenes)
        if (s.lesson != view_id)
          bad(path.filename().string(), "a step of " + std::string(view_id) + " opens another lesson (" + s.lesson + ")");
    }
    it = loaded.emplace(std::string(view_id), std::move(deck)).first;
  }
  return it->second ? &*it->second : nullptr;
}

void check_step_number(std::string_view view_id, int step) {
  const Deck* steps = lesson_steps(view_id);
  const int count = steps ? static_cast<int>(steps->scenes.size()) : 0;
  const std::string lesson(view_id);
  if (count == 0)
    throw core::InvalidParameter("step", std::to_string(step), lesson + " has no guided steps",
                                 core::Reason{"no_steps", {{"lesson", lesson}}, {}});
  if (step < 1 || step > count)
    throw core::InvalidParameter("step", std::to_string(step),
                                 "must be in 1.." + std::to_string(count) + " (the steps of " + lesson + ")",
                                 core::Reason{"step_range", {{"count", std::to_string(count)}, {"lesson", lesson}}, {}});
}

void check_scene_number(const Deck& deck, std::string_view name, int step) {
  const int count = static_cast<int>(deck.scenes.size());
  const std::string deck_name(name);
  if (step < 1 || step > count)
    throw core::InvalidParameter("step", std::to_string(step),
                                 "must be in 1.." + std::to_string(count) + " (the scenes of the deck " + deck_name + ")",
                                 core::Reason{"scene_range", {{"count", std::to_string(count)}, {"deck", deck_name}}, {}});
}

std::vector<std::pair<std::string, Deck>> builtin_decks() {
  std::vector<std::pair<std::string, Deck>> out;
  const std::filesystem::path dir = assets_dir() / "decks";
  std::error_code ec;
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  for (const auto& f : files) out.emplace_back(f.stem().string(), load_deck_file(f));
  return out;
}

Deck load_deck_named(const std::string& name, std::filesystem::path* source) {
  std::error_code ec;
  const std::filesystem::path path(name);
  if (!std::filesystem::exists(path, ec) && path.extension() != ".json" && path.parent_path().empty()) {
    const std::filesystem::path builtin = assets_dir() / "decks" / (name + ".json");
    if (std::filesystem::exists(builtin, ec)) {
      if (source) source->clear();
      return load_deck_file(builtin);
    }
  }
  if (!std::filesystem::exists(path, ec) && !std::filesystem::is_symlink(path, ec)) {
    std::string ids;
    for (const auto& [id, deck] : builtin_decks()) ids += (ids.empty() ? "" : ", ") + id;
    throw IoError("cannot read " + name + ": no such file" + (ids.empty() ? "" : " or built-in deck (" + ids + ")"));
  }
  if (source) *source = std::filesystem::absolute(path, ec);
  return load_deck_file(path);
}

}  // namespace poslab::app
