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
#include "app/common/sentences.hpp"
#include "app/decks/deck_messages.hpp"
#include "app/lessons/lesson.hpp"
#include "app/plot/formula.hpp"
#include "poslab/core/errors.hpp"

namespace poslab::app {

namespace {

using nlohmann::json;

/// JSON nesting a deck needs: deck → scenes → scene → reveal → params (5).
constexpr int kMaxDeckDepth = 16;

using Args = std::vector<std::pair<std::string, std::string>>;

// [SECTION] The refusals' sentences (assets/i18n/en/deck.json holds the same
// under "error.<id>"; tests/app/test_i18n.cpp checks). The command line prints
// the English; the app formats the same reason in its language (error_text).

constexpr Sentence kDeckSentences[] = {
    {"deck_unknown_field_near", "{shown} is not a field of {what}; did you mean \"{near}\"?"},
    {"deck_unknown_field", "{shown} is not a field of {what} ({list})"},
    {"deck_formula", "{name} has a formula that does not parse, ${formula}$: {detail} (a dollar sign itself is written \\$)"},
    {"deck_text_type", "\"{field}\" must be text or {\"en\": …, \"zh\": …}"},
    {"deck_text_lang_type", "\"{field}\".{lang} must be text"},
    {"deck_text_lang", "\"{field}\" has a language poslab does not know: \"{lang}\" (en, zh)"},
    {"deck_text_needs_en", "\"{field}\" needs an English text (\"en\")"},
    {"deck_word_type", "\"{field}\" must be text"},
    {"deck_session", "{detail}"},
    {"deck_not_a_param", "\"{key}\" is not a parameter of {lesson}"},
    {"deck_invalid_param", "invalid parameter: {detail}"},
    {"deck_not_a_figure", "figure \"{figure}\" is not a figure of {lesson}"},
    {"deck_scene_object", "must be an object with a \"lesson\""},
    {"deck_needs_lesson", "needs a \"lesson\""},
    {"deck_not_a_lesson", "\"{lesson}\" is not a lesson (poslab list views)"},
    {"deck_animation_key", "animation \"key\" must be a parameter of {lesson}"},
    {"deck_sliders_list", "\"sliders\" must be a list of parameter names"},
    {"deck_slider_not_param", "slider \"{key}\" is not a parameter of {lesson}"},
    {"deck_question_answer", "a \"question\" needs an \"answer\" and the other way round"},
    {"deck_reveal_object", "\"reveal\" must be an object with \"params\" and/or \"figure\""},
    {"deck_reveal_question", "\"reveal\" needs a \"question\" to answer"},
    {"deck_hide_bool", "\"hide_figure\" must be true or false"},
    {"deck_hide_question", "\"hide_figure\" needs a \"question\": the answer shows the figure"},
    {"deck_too_large", "is too large to be a poslab deck"},
    {"deck_empty", "is empty"},
    {"deck_not_deck", "is not a poslab deck"},
    {"deck_no_version", "has no version number"},
    {"deck_newer", "was written by a newer poslab (deck version {version}); this one reads version {reads}"},
    {"deck_bad_version", "has an invalid version number"},
    {"deck_needs_scenes", "needs \"scenes\": a list of scenes"},
    {"deck_no_scenes", "has no scenes"},
    {"deck_too_many_scenes", "has more than {max} scenes"},
    {"deck_step_lesson", "a step of {lesson} opens another lesson ({other})"},
};
/// Where a refusal is: "course.json, scene 3, params (line 14, column 7)".
constexpr Sentence kDeckValues[] = {
    {"deck_where", "{where_source}{scene_part}{field_part}{place_part}"},
};
constexpr Sentence kDeckPhrases[] = {
    {"deck_scene", ", scene {where_scene}"},
    {"deck_field", ", {where_field}"},
    {"deck_place", " (line {where_line}, column {where_column})"},
    {"deck_what_scene", "a scene"},
    {"deck_what_animation", "an animation"},
    {"deck_what_reveal", "a reveal"},
    {"deck_what_deck", "a deck"},
};

/// A refusal's sentence: its id in kDeckSentences, its arguments and its
/// phrases ({name, phrase id}).
struct Why {
  std::string id;
  Args args = {};
  Args phrases = {};
};

/// Where: the source, then optionally the scene (1-based), the field and the place.
struct Where {
  std::string source;
  std::optional<std::size_t> scene = {};
  std::string field = {};
  JsonPlace place = {};
};

[[noreturn]] void bad(const Where& where, const Why& why, const core::InvalidParameter* nested = nullptr) {
  core::Reason r{why.id, why.args, "deck_where"};
  for (const auto& [name, phrase] : why.phrases) r.args.emplace_back("@" + name, phrase);
  // The place's parts: a phrase when there is one, else an empty argument.
  auto part = [&](const char* name, bool present, const char* phrase) {
    if (present) r.args.emplace_back(std::string("@") + name, phrase);
    else r.args.emplace_back(name, "");
  };
  r.args.emplace_back("where_source", where.source);
  part("scene_part", where.scene.has_value(), "deck_scene");
  if (where.scene) r.args.emplace_back("where_scene", std::to_string(*where.scene + 1));
  part("field_part", !where.field.empty(), "deck_field");
  r.args.emplace_back("where_field", where.field);
  part("place_part", where.place.known(), "deck_place");
  r.args.emplace_back("where_line", std::to_string(where.place.line));
  r.args.emplace_back("where_column", std::to_string(where.place.column));
  // A parameter's own refusal inside ("d = 7: must be an even integer …"):
  // carried whole, so that the app says it in its language too.
  if (nested) r = with_nested(std::move(r), *nested);
  std::string value = english_value(r, kDeckValues, kDeckPhrases);
  std::string allowed = english_sentence(r, kDeckSentences, kDeckPhrases);
  throw core::InvalidParameter("deck", std::move(value), std::move(allowed), std::move(r));
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
  [[noreturn]] void bad(std::optional<std::size_t> scene, const JsonPath& field, const Why& why,
                        const core::InvalidParameter* nested = nullptr) const {
    JsonPath full;
    if (scene) full = {std::string("scenes"), *scene};
    full.insert(full.end(), field.begin(), field.end());
    JsonPlace place = json_place_of(text_, full);
    for (JsonPath up = full; !place.known() && !up.empty();) {  // an absent field: where its object starts
      up.pop_back();
      place = json_place_of(text_, up);
    }
    app::bad({source_, scene, field.empty() ? std::string() : json_path_text(field), place}, why, nested);
  }

  /// Refuses the first key of `object` that is not one of `fields`, naming
  /// the nearest one ("\"captoin\" is not a field of a scene; did you mean \"caption\"?").
  /// `what`: the phrase naming the object ("deck_what_scene": "a scene").
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
          {near.empty() ? "deck_unknown_field" : "deck_unknown_field_near",
           {{"shown", shown}, {"near", near}, {"list", list}},
           {{"what", what}}});
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
  [[noreturn]] void bad(const JsonPath& field, const Why& why, const core::InvalidParameter* nested = nullptr) const {
    deck.bad(index, field, why, nested);
  }
};

/// Refuses a text whose formula ("$…$", plot/formula.hpp) does not parse,
/// saying which and why: shown, it would be its source, dollars and all.
void check_formulas(const std::string& text, const JsonPath& at, const std::string& name, const DeckReader& deck,
                    std::optional<std::size_t> scene) {
  for (const fig::RichPiece& p : fig::rich_pieces(text)) {
    if (!p.math) continue;
    const fig::ParsedFormula f = fig::parse_formula(p.text);
    if (f.error)
      deck.bad(scene, at, {"deck_formula", {{"name", name}, {"formula", p.text.substr(0, 60)}, {"detail", f.error->message}}});
  }
}

LocalText local_text(const json& j, const char* field, const DeckReader& deck, std::optional<std::size_t> scene) {
  if (!j.contains(field) || j.at(field).is_null()) return {};
  const json& v = j.at(field);
  const std::string name = std::string("\"") + field + "\"";
  if (v.is_string()) {
    LocalText t{v.get<std::string>(), {}};
    check_formulas(t.en, {field}, name, deck, scene);
    return t;
  }
  if (!v.is_object()) deck.bad(scene, {field}, {"deck_text_type", {{"field", field}}});
  LocalText t;
  for (const auto& [lang, text] : v.items()) {
    if (!text.is_string()) deck.bad(scene, {field, lang}, {"deck_text_lang_type", {{"field", field}, {"lang", lang.substr(0, 8)}}});
    if (lang == "en") t.en = text.get<std::string>();
    else if (lang == "zh") t.zh = text.get<std::string>();
    else
      deck.bad(scene, {field, lang}, {"deck_text_lang", {{"field", field}, {"lang", lang.substr(0, 8)}}});
  }
  if (t.en.empty()) deck.bad(scene, {field}, {"deck_text_needs_en", {{"field", field}}});
  check_formulas(t.en, {field, "en"}, name + ".\"en\"", deck, scene);
  check_formulas(t.zh, {field, "zh"}, name + ".\"zh\"", deck, scene);
  return t;
}

std::string optional_word(const json& j, const char* field, const SceneReader& r, const JsonPath& at = {}) {
  if (!j.contains(field) || j.at(field).is_null()) return {};
  JsonPath path = at;
  path.emplace_back(std::string(field));
  if (!j.at(field).is_string()) r.bad(path, {"deck_word_type", {{"field", field}}});
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
    const std::optional<core::InvalidParameter> inner = nested_in(e.reason());
    if (inner && !in_animation) r.bad(at, {"deck_invalid_param", {{"detail", inner->what()}}}, &*inner);
    r.bad(in_animation ? JsonPath{std::string("animation")} : at, {"deck_session", {{"detail", e.allowed()}}});
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
    if (std::find(view.keys.begin(), view.keys.end(), key) == view.keys.end() &&
        std::find(view.run_keys.begin(), view.run_keys.end(), key) == view.run_keys.end()) {
      JsonPath path = at;
      path.emplace_back(key);
      r.bad(path, {"deck_not_a_param", {{"key", key}, {"lesson", std::string(view.id)}}});
    }
  try {
    (void)resolve_view_params(view, s.to_params());
  } catch (const core::InvalidParameter& e) {
    r.bad(at, {"deck_invalid_param", {{"detail", e.what()}}}, &e);
  }
}

void check_figure(const ViewDef& view, const std::string& figure, const SceneReader& r, const JsonPath& at) {
  if (!figure.empty() && !find_figure(view, figure))
    r.bad(at, {"deck_not_a_figure", {{"figure", figure.substr(0, 40)}, {"lesson", std::string(view.id)}}});
}

Scene parse_scene(const json& j, const SceneReader& r) {
  if (!j.is_object()) r.bad({}, {"deck_scene_object"});
  r.deck.check_fields(r.index, {}, j, kSceneFields, "deck_what_scene");
  Scene sc;
  sc.lesson = optional_word(j, "lesson", r);
  if (sc.lesson.empty()) r.bad({}, {"deck_needs_lesson"});
  const ViewDef* view = find_view(sc.lesson);
  if (!view) r.bad({"lesson"}, {"deck_not_a_lesson", {{"lesson", sc.lesson.substr(0, 40)}}});

  const json no_params = json::object();
  const json& params = j.contains("params") && !j.at("params").is_null() ? j.at("params") : no_params;
  const json* animation = j.contains("animation") && !j.at("animation").is_null() ? &j.at("animation") : nullptr;
  if (animation && animation->is_object()) r.deck.check_fields(r.index, {"animation"}, *animation, kAnimationFields, "deck_what_animation");
  Session state = scene_state(params, animation, sc.lesson, r, {"params"});
  sc.params = std::move(state.params);
  sc.animation = state.animation;
  check_params_for(*view, sc.params, r, {"params"});
  if (sc.animation && std::find(view->keys.begin(), view->keys.end(), sc.animation->key) == view->keys.end())
    r.bad({"animation", "key"}, {"deck_animation_key", {{"lesson", sc.lesson}}});

  sc.figure = optional_word(j, "figure", r);
  check_figure(*view, sc.figure, r, {"figure"});
  if (j.contains("sliders") && !j.at("sliders").is_null()) {
    const json& sl = j.at("sliders");
    if (!sl.is_array()) r.bad({"sliders"}, {"deck_sliders_list"});
    for (std::size_t k = 0; k < sl.size(); ++k) {
      if (!sl[k].is_string()) r.bad({"sliders", k}, {"deck_sliders_list"});
      const std::string key = sl[k].get<std::string>();
      if (std::find(view->keys.begin(), view->keys.end(), key) == view->keys.end())
        r.bad({"sliders", k}, {"deck_slider_not_param", {{"key", key.substr(0, 40)}, {"lesson", sc.lesson}}});
      sc.sliders.push_back(key);
    }
  }
  sc.caption = local_text(j, "caption", r.deck, r.index);
  sc.question = local_text(j, "question", r.deck, r.index);
  sc.answer = local_text(j, "answer", r.deck, r.index);
  sc.notes = local_text(j, "notes", r.deck, r.index);
  if (sc.question.empty() != sc.answer.empty())
    r.bad({sc.question.empty() ? "answer" : "question"}, {"deck_question_answer"});

  if (j.contains("reveal") && !j.at("reveal").is_null()) {
    const json& rv = j.at("reveal");
    if (!rv.is_object()) r.bad({"reveal"}, {"deck_reveal_object"});
    r.deck.check_fields(r.index, {"reveal"}, rv, kRevealFields, "deck_what_reveal");
    if (!sc.has_question()) r.bad({"reveal"}, {"deck_reveal_question"});
    const json& rp = rv.contains("params") && !rv.at("params").is_null() ? rv.at("params") : no_params;
    sc.reveal_params = scene_state(rp, nullptr, sc.lesson, r, {"reveal", "params"}).params;
    sc.reveal_figure = optional_word(rv, "figure", r, {"reveal"});
    check_figure(*view, sc.reveal_figure, r, {"reveal", "figure"});
    check_params_for(*view, sc.session(true).params, r, {"reveal", "params"});
  }
  if (j.contains("hide_figure") && !j.at("hide_figure").is_null()) {
    if (!j.at("hide_figure").is_boolean()) r.bad({"hide_figure"}, {"deck_hide_bool"});
    sc.hide_figure = j.at("hide_figure").get<bool>();
    if (sc.hide_figure && !sc.has_question())
      r.bad({"hide_figure"}, {"deck_hide_question"});
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
  if (text.size() > kMaxDeckBytes) bad({src}, {"deck_too_large"});
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) bad({src}, {"deck_empty"});
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
      const DeckReader reader(text, src);
      if (const core::ParamSpec* spec = core::find_param(key)) {
        try {
          (void)core::parse_param_value(*spec, e.detail());
        } catch (const core::InvalidParameter& pe) {
          reader.bad(std::get<std::size_t>(p[1]), JsonPath(p.begin() + 2, p.end()),
                     {"deck_invalid_param", {{"detail", pe.what()}}}, &pe);
        }
      }
      reader.bad(std::get<std::size_t>(p[1]), JsonPath(p.begin() + 2, p.end()), {"deck_session", {{"detail", e.what()}}});
    }
    throw core::InvalidParameter("deck", src, e.what(), e.reason());
  }
  const DeckReader reader(text, src);
  if (!j.is_object() || !j.contains("format") || j["format"] != "poslab-deck") bad({src}, {"deck_not_deck"});
  if (!j.contains("version") || !j["version"].is_number_integer()) reader.bad({}, {"version"}, {"deck_no_version"});
  const auto version = j["version"].get<long long>();
  if (version > kDeckVersion)
    bad({src}, {"deck_newer", {{"version", std::to_string(version)}, {"reads", std::to_string(kDeckVersion)}}});
  if (version < 1) reader.bad({}, {"version"}, {"deck_bad_version"});
  reader.check_fields({}, {}, j, kDeckFields, "deck_what_deck");
  Deck deck;
  deck.title = local_text(j, "title", reader, std::nullopt);
  if (!j.contains("scenes") || !j["scenes"].is_array()) reader.bad({}, {"scenes"}, {"deck_needs_scenes"});
  const json& scenes = j["scenes"];
  if (scenes.empty()) reader.bad({}, {"scenes"}, {"deck_no_scenes"});
  if (scenes.size() > kMaxScenes) reader.bad({}, {"scenes"}, {"deck_too_many_scenes", {{"max", std::to_string(kMaxScenes)}}});
  for (std::size_t i = 0; i < scenes.size(); ++i) deck.scenes.push_back(parse_scene(scenes[i], SceneReader{reader, i}));
  return deck;
}

Deck load_deck_file(const std::filesystem::path& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw IoError("cannot read " + path.string() + ": it is a folder");
  const auto size = std::filesystem::file_size(path, ec);
  std::error_code missing;
  if (ec && !std::filesystem::exists(path, missing)) throw IoError("cannot read " + path.string() + ": " + ec.message());
  if (!ec && size > kMaxDeckBytes) bad({path.filename().string()}, {"deck_too_large"});
  // Read with a cap whatever file_size says: a device (/dev/zero) says 0.
  std::string text;
  try {
    text = read_text_file(path, kMaxDeckBytes, "a poslab deck");
  } catch (const TooLargeError&) {
    bad({path.filename().string()}, {"deck_too_large"});
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
          bad({path.filename().string()}, {"deck_step_lesson", {{"lesson", std::string(view_id)}, {"other", s.lesson}}});
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

std::vector<std::pair<std::string, std::string>> deck_sentences() {
  std::vector<std::pair<std::string, std::string>> out;
  for (const Sentence& s : kDeckSentences) out.emplace_back(std::string("error.") + s.id, s.text);
  for (const Sentence& s : kDeckValues) out.emplace_back(std::string("error.value.") + s.id, s.text);
  for (const Sentence& s : kDeckPhrases) out.emplace_back(std::string("error.phrase.") + s.id, s.text);
  return out;
}

}  // namespace poslab::app
