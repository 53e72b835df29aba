// The translations (assets/i18n/<lang>/*.json) against each other and against
// the code that uses them:
// - every key exists in English and in Chinese, with the same {placeholders};
// - every key the sources under app/ name (string literals shaped like keys)
//   exists, and every key built from ids ("<view>.title", "param.<key>.name",
//   "error.<reason id>", …) exists for every id the program has;
// - no key in the files is used nowhere;
// - error_text says every core::Reason in English exactly as what() does and
//   in Chinese with every placeholder filled;
// - every Chinese text (translations, guided steps, the notation card) keeps
//   docs/GLOSSARY.md: punctuation, spacing, unbreakable numbers, one word per term.
// The sources are read from POSLAB_SOURCE_DIR (tests/CMakeLists.txt).
//
// [SECTION] Index
// - Reading the translations and the sources
// - The families of keys the code builds
// - Both languages
// - Keys in code, keys in files
// - Error messages: one exception per reason id
// - Figures and readouts ask for no missing key
// - Chinese as written

#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "app/cli/cli.hpp"
#include "app/cli/commands.hpp"
#include "app/common/messages.hpp"
#include "app/common/notation.hpp"
#include "app/common/presets.hpp"
#include "app/common/session.hpp"
#include "app/common/json_input.hpp"
#include "app/common/sentences.hpp"
#include "app/decks/deck_messages.hpp"
#include "app/export/figure_export.hpp"
#include "app/export/sweep.hpp"
#include "app/export/table_writer.hpp"
#include "app/decks/deck.hpp"
#include "app/lessons/lesson.hpp"
#include "app/lessons/table.hpp"
#include "app/model/model_config.hpp"
#include "app/plot/formula.hpp"
#include "app/plot/figure_text.hpp"
#include "app_test_support.hpp"
#include "core/core_test_support.hpp"
#include "poslab/core/alibi.hpp"
#include "poslab/core/gaussian.hpp"
#include "poslab/core/lab/lab.hpp"
#include "poslab/core/learned.hpp"
#include "poslab/core/relative.hpp"
#include "poslab/core/scaling.hpp"
#include "poslab/core/sinusoidal.hpp"
#include "poslab/core/t5.hpp"

namespace {

namespace fs = std::filesystem;
using namespace poslab;
using Texts = std::map<std::string, std::string, std::less<>>;

// [SECTION] Reading the translations and the sources

const Texts& texts(std::string_view lang) {
  static const Texts en = app::Translator::read_language(app::assets_dir(), "en");
  static const Texts zh = app::Translator::read_language(app::assets_dir(), "zh");
  return lang == "zh" ? zh : en;
}

const app::Translator& chinese() {
  static const app::Translator tr = app::Translator::load(app::assets_dir(), "zh");
  return tr;
}

/// True when text[at] lies inside a $…$ formula.
bool in_formula(std::string_view text, std::size_t at) {
  for (std::size_t i = 0; i < text.size() && i <= at; ++i) {
    const std::size_t end = app::fig::math_span_end(text, i);
    if (end == std::string_view::npos) continue;
    if (at < end) return true;
    i = end - 1;
  }
  return false;
}

/// The {name} placeholders of a text (names of letters, digits and _ only:
/// "R_{i−j}" in a formula is not one). Inside a $…$ formula a group after
/// ^, _, } or a command is markup, not a placeholder: "$β_{fast}$",
/// "$\sqrt{d}$", "$w_{32}$"; "$b^{−2i/{d}}$" still holds the placeholder d.
std::set<std::string> placeholders(const std::string& text) {
  static const std::regex re(R"(\{([A-Za-z0-9_]+)\})");
  std::set<std::string> out;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator(); ++it) {
    const auto at = static_cast<std::size_t>(it->position(0));
    if (at > 0 && in_formula(text, at)) {
      std::size_t b = at;
      while (b > 0 && std::isalpha(static_cast<unsigned char>(text[b - 1]))) --b;
      const char before = b > 0 ? text[b - 1] : ' ';
      if (before == '\\' || (b == at && (before == '^' || before == '_' || before == '}'))) continue;
    }
    out.insert((*it)[1]);
  }
  return out;
}

struct SourceFile {
  fs::path path;
  std::string text;
};

std::vector<SourceFile> source_files(const fs::path& dir) {
  std::vector<SourceFile> out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    const auto ext = e.path().extension();
    if (!e.is_regular_file() || (ext != ".cpp" && ext != ".hpp")) continue;
    std::ifstream in(e.path(), std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    out.push_back({e.path(), s.str()});
  }
  return out;
}

const fs::path& source_dir() {
  static const fs::path dir = POSLAB_SOURCE_DIR;
  return dir;
}

/// The string literals of C++ source, comments skipped (a key named in a
/// comment is not a use), escapes kept as written (keys have none), raw
/// strings skipped.
std::vector<std::string> string_literals(const std::string& src) {
  std::vector<std::string> out;
  std::size_t i = 0;
  const std::size_t n = src.size();
  while (i < n) {
    const char c = src[i];
    if (c == '/' && i + 1 < n && src[i + 1] == '/') {
      i = src.find('\n', i);
      if (i == std::string::npos) break;
    } else if (c == '/' && i + 1 < n && src[i + 1] == '*') {
      i = src.find("*/", i + 2);
      if (i == std::string::npos) break;
      i += 2;
    } else if (c == 'R' && i + 1 < n && src[i + 1] == '"') {
      const std::size_t paren = src.find('(', i + 2);
      const std::string end = ")" + src.substr(i + 2, paren - i - 2) + "\"";
      i = src.find(end, paren);
      if (i == std::string::npos) break;
      i += end.size();
    } else if (c == '\'') {
      ++i;
      while (i < n && src[i] != '\'') i += src[i] == '\\' ? 2 : 1;
      ++i;
    } else if (c == '"') {
      std::string lit;
      ++i;
      while (i < n && src[i] != '"') {
        if (src[i] == '\\' && i + 1 < n) lit += src[i++];
        lit += src[i++];
      }
      ++i;
      out.push_back(std::move(lit));
    } else {
      ++i;
    }
  }
  return out;
}

/// Every literal of every source under app/ (the program's own texts).
const std::vector<std::string>& app_literals() {
  static const std::vector<std::string> lits = [] {
    std::vector<std::string> out;
    for (const SourceFile& f : source_files(source_dir() / "app"))
      for (std::string& l : string_literals(f.text)) out.push_back(std::move(l));
    return out;
  }();
  return lits;
}

/// The first segments of the keys in the files ("ui", "param", "rope-2d", …):
/// a literal is a key (or a key's start) only in one of these namespaces.
std::set<std::string> key_namespaces() {
  std::set<std::string> out;
  for (const auto& [key, text] : texts("en")) out.insert(key.substr(0, key.find('.')));
  return out;
}

bool in_namespace(const std::string& lit) {
  static const std::set<std::string> ns = key_namespaces();
  return ns.count(lit.substr(0, lit.find('.'))) > 0;
}

/// "ui.params.title": a whole key. "scaling.method.": the start of keys built
/// from an id. ".title": the end of keys built from an id.
bool is_whole_key(const std::string& lit) {
  static const std::regex re(R"([a-z0-9][a-z0-9_-]*(\.[a-z0-9_-]+)+)");
  return std::regex_match(lit, re) && in_namespace(lit);
}
bool is_key_start(const std::string& lit) {
  static const std::regex re(R"([a-z0-9][a-z0-9_-]*(\.[a-z0-9_-]+)*\.)");
  return std::regex_match(lit, re) && in_namespace(lit);
}
bool is_key_end(const std::string& lit) {
  static const std::regex re(R"(\.[a-z0-9_-]+)");
  static const std::set<std::string> file_types = {".csv", ".gif", ".json", ".pdf", ".png", ".svg", ".tex"};
  if (!std::regex_match(lit, re) || file_types.count(lit)) return false;
  for (const auto& [key, text] : texts("en"))
    if (key.size() > lit.size() && key.compare(key.size() - lit.size(), lit.size(), lit) == 0) return true;
  return false;
}

/// Reason ids and value ids written in `dir`'s sources: Reason{"id", …, "value_id"}.
struct ReasonIds {
  std::set<std::string> ids, value_ids;
};
ReasonIds reason_ids_in(const fs::path& dir) {
  static const std::regex id_re(R"re(Reason\s*(?:[a-z_]+\s*)?\{\s*"([a-z0-9_]+)")re");
  static const std::regex value_re(R"re(Reason\s*\{[^;]*?,\s*"([a-z0-9_]+)"\s*\}\s*\))re");
  ReasonIds out;
  for (const SourceFile& f : source_files(dir)) {
    for (auto it = std::sregex_iterator(f.text.begin(), f.text.end(), id_re); it != std::sregex_iterator(); ++it)
      out.ids.insert((*it)[1]);
    for (auto it = std::sregex_iterator(f.text.begin(), f.text.end(), value_re); it != std::sregex_iterator(); ++it)
      out.value_ids.insert((*it)[1]);
  }
  return out;
}

// [SECTION] The families of keys the code builds
//
// Each family names the literal pieces the code builds its keys from and the
// keys that come out for the ids the program has. `required` keys must
// exist; `optional` keys may (the code falls back when they do not). A key
// start or end in the code that no family explains fails the test: a new
// pattern needs a family here, so its keys are checked too.

struct Family {
  std::string name;
  std::vector<std::string> pieces;  ///< the literals the code builds with
  std::set<std::string> required, optional;
};

std::vector<Family> families() {
  std::vector<Family> out;
  // lesson_title (ui_context.cpp), the lesson text and its notes check (lesson_view.cpp)
  Family views{"views", {".title", ".text", ".notes_check"}, {}, {}};
  Family groups{"lesson groups (shell.cpp)", {"ui.group."}, {}, {}};
  for (const app::ViewDef& v : app::view_defs()) {
    views.required.insert(std::string(v.id) + ".title");
    views.required.insert(std::string(v.id) + ".text");
    views.optional.insert(std::string(v.id) + ".notes_check");
    groups.required.insert("ui.group." + std::string(v.group));
  }
  out.push_back(views);
  out.push_back(groups);
  // figure_tab (lecture.cpp): a figure's short lecture-tab label, every
  // figure has one (a title cut to fit 5–7 tabs on one 1280 px line is unreadable)
  Family tabs{"figure tabs", {".tab"}, {}, {}};
  for (const app::ViewDef& v : app::view_defs())
    for (const app::FigureDef& f : v.figures) tabs.required.insert(std::string(v.id) + "." + std::string(f.id) + ".tab");
  out.push_back(tabs);
  // param_name, help_text, unit_text (params_panel.cpp)
  Family params{"parameters", {"param.", ".name", ".help", ".choice.", ".unit"}, {}, {}};
  Family units{"units", {"ui.unit."}, {}, {}};
  for (const core::ParamSpec& s : core::param_specs()) {
    params.required.insert("param." + std::string(s.key) + ".name");
    params.optional.insert("param." + std::string(s.key) + ".help");
    if (!s.unit.empty()) params.optional.insert("param." + std::string(s.key) + ".unit");  // param_unit: "" when the name says it
    for (const app::ViewDef& v : app::view_defs()) {  // a lesson group's own name (params_panel.cpp)
      params.optional.insert("param." + std::string(s.key) + ".name_" + std::string(v.group));
      params.optional.insert("param." + std::string(s.key) + ".help_" + std::string(v.group));
    }
    if (s.type == core::ParamType::choice)  // choice_text: the combo's words
      for (std::string_view c : core::param_choices(s))
        params.required.insert("param." + std::string(s.key) + ".choice." + std::string(c));
    if (s.unit.empty()) continue;
    std::string key = "ui.unit.";
    for (char c : s.unit) key += c == '/' ? std::string("_per_") : std::string(1, c);
    units.required.insert(key);
  }
  out.push_back(params);
  out.push_back(units);
  // menus (menu_bar.cpp, export_ui.cpp): the themes fig::Theme::by_name knows, the languages
  Family themes{"themes", {"ui.theme."}, {}, {}};
  for (const char* t : {"light", "dark", "projector"}) {
    (void)app::fig::Theme::by_name(t);
    themes.required.insert(std::string("ui.theme.") + t);
  }
  out.push_back(themes);
  out.push_back({"languages", {"ui.lang."}, {"ui.lang.en", "ui.lang.zh"}, {}});
  // the shortcut overlay's extra rows (shortcuts.cpp): "<key>.keys" next to "<key>"
  Family extra_keys{"shortcut keys", {".keys"}, {}, {}};
  for (const std::string& lit : app_literals())
    if (lit.rfind("ui.keys.", 0) == 0) extra_keys.optional.insert(lit + ".keys");
  out.push_back(extra_keys);
  // scaling_view.cpp: method_label
  Family methods{"scaling methods", {"scaling.method."}, {}, {}};
  for (std::string_view m : core::param_choices(core::param_spec("method")))
    methods.required.insert("scaling.method." + std::string(m));
  out.push_back(methods);
  // relative_view.cpp: "relative.<term>.<variant>", "relative.value.<term>",
  // "relative.dropped.<variant>"; the terms are the lesson's figures but "index".
  Family relative{"relative terms", {"relative.", "relative.value.", "relative.dropped."}, {}, {}};
  for (const app::FigureDef& f : app::find_view("relative")->figures) {
    if (f.id == "index") continue;
    relative.required.insert("relative.value." + std::string(f.id));
    for (std::string_view variant : core::param_choices(core::param_spec("terms")))
      relative.required.insert("relative." + std::string(f.id) + "." + std::string(variant));
  }
  for (std::string_view variant : core::param_choices(core::param_spec("terms")))
    relative.required.insert("relative.dropped." + std::string(variant));
  out.push_back(relative);
  // table_view.cpp: a lesson's caption of each of its tables, its words for word cells
  Family tables{"table captions and cells", {".tables.", ".cell."}, {}, {}};
  for (const app::ViewDef& v : app::view_defs())
    for (std::string_view id : v.tables) {
      tables.optional.insert(std::string(v.id) + ".tables." + std::string(id));
      const app::Table t = app::build_table(*app::find_table(id), core::Params());
      for (const auto& row : t.rows)
        for (const app::Cell& c : row)
          if (const auto* word = std::get_if<std::string>(&c)) tables.optional.insert(std::string(v.id) + ".cell." + *word);
    }
  out.push_back(tables);
  // json_input.cpp: its sentences and the phrases messages.cpp fills in ("error.phrase.<id>")
  Family json{"the JSON reader's sentences", {"error.phrase."}, {}, {}};
  for (const auto& [key, english] : app::json_input_sentences()) json.required.insert(key);
  out.push_back(json);
  // decks/deck.cpp: a deck's refusals, their place ("error.value.deck_where") and phrases
  Family deck{"a deck's refusals", {}, {}, {}};
  for (const auto& [key, english] : app::deck_sentences()) deck.required.insert(key);
  out.push_back(deck);
  // layer_stack.cpp: a layer group's encoding by its kind (LayerGroup::kind, model_config.hpp; "rope" is drawn with its numbers)
  out.push_back({"layer kinds", {"model.layers.kind."},
                 {"model.layers.kind.nope", "model.layers.kind.none", "model.layers.kind.alibi", "model.layers.kind.t5",
                  "model.layers.kind.learned", "model.layers.kind.sinusoidal"},
                 {}});
  // lab/figures.cpp and lab/screen.cpp: an encoding's and an extension's name in the legends
  Family lab_names{"lab encodings and extensions", {"lab.encoding.", "lab.method."}, {}, {}};
  for (core::lab::Encoding e : core::lab::all_encodings())
    lab_names.required.insert(std::string("lab.encoding.") + core::lab::encoding_name(e));
  for (const char* x : {"none", "pi", "ntk", "yarn"}) lab_names.required.insert(std::string("lab.method.") + x);
  out.push_back(lab_names);
  // messages.cpp: "error.<reason id>", "error.value.<value id>" for every reason written in the sources
  Family errors{"error reasons", {"error.", "error.value."}, {}, {}};
  for (const fs::path& dir : {source_dir() / "core", source_dir() / "app"}) {
    const ReasonIds r = reason_ids_in(dir);
    for (const std::string& id : r.ids)
      if (id != "spec") errors.required.insert("error." + id);
    for (const std::string& id : r.value_ids) errors.required.insert("error.value." + id);
  }
  out.push_back(errors);
  return out;
}

// [SECTION] Both languages

TEST_CASE("i18n: every key is in English and in Chinese, with the same placeholders") {
  const Texts& en = texts("en");
  const Texts& zh = texts("zh");
  REQUIRE(en.size() > 500);
  // Not structured bindings: clang < 16 (the sanitizer build) cannot capture one in CAPTURE's lambda.
  for (const auto& entry : en) {
    const std::string& key = entry.first;
    const std::string& text = entry.second;
    CAPTURE(key);
    const auto it = zh.find(key);
    CHECK_MESSAGE(it != zh.end(), "missing in zh: " << key);
    if (it == zh.end()) continue;
    CHECK_MESSAGE(placeholders(text) == placeholders(it->second), "placeholders differ: " << key);
    // (a parameter's unit left out where its name says it: param_unit)
    const bool unit = key.rfind("param.", 0) == 0 && key.ends_with(".unit");
    if (!unit) CHECK_FALSE(it->second.empty());
  }
  for (const auto& entry : zh) CHECK_MESSAGE(en.count(entry.first) == 1, "missing in en: " << entry.first);
}

TEST_CASE("i18n: a text a lesson's screen hands to ImGui itself holds no formula markup") {
  // Buttons, tooltips, coloured lines and canvas labels are ImGui's own text:
  // a "$λ_i$" there would show its dollars. Only ui.paragraph typesets.
  static const std::regex key_re(R"re(tr(?:\.format)?\("([a-z0-9_.\-]+)")re");
  std::size_t keys = 0;
  for (const SourceFile& f : source_files(source_dir() / "app" / "lessons")) {
    if (f.path.filename() != "screen.cpp") continue;
    std::istringstream lines(f.text);
    for (std::string line; std::getline(lines, line);) {
      if (line.find("paragraph") != std::string::npos) continue;
      for (auto it = std::sregex_iterator(line.begin(), line.end(), key_re); it != std::sregex_iterator(); ++it) {
        const std::string key = (*it)[1];
        CAPTURE(f.path.string());
        CAPTURE(key);
        for (const char* lang : {"en", "zh"}) {
          const auto t = texts(lang).find(key);
          if (t == texts(lang).end()) continue;
          ++keys;
          CHECK_FALSE(app::fig::has_markup(t->second));
        }
      }
    }
  }
  CHECK(keys > 20);
}

TEST_CASE("i18n: the placeholder check sees a difference") {
  CHECK(placeholders("{n} 个位置，d = {d}") == std::set<std::string>{"d", "n"});
  CHECK(placeholders("R_{i−j} at {n}") == std::set<std::string>{"n"});
  // in a formula: groups of the markup are not placeholders, a {name} in a group is
  CHECK(placeholders("$β_{fast} = {beta}$, $\\sqrt{d}$, $w_{32}$, $\\frac{a}{b}$ at {n}") ==
        std::set<std::string>{"beta", "n"});
  CHECK(placeholders("$b^{−2i/{d}}$") == std::set<std::string>{"d"});
  CHECK(placeholders("{n} positions") != placeholders("{count} positions"));
}

// [SECTION] Keys in code, keys in files

TEST_CASE("i18n: the source scan finds literals, not comments") {
  const auto lits = string_literals("// \"ui.a.b\"\nx = tr(\"ui.params.title\"); /* \"ui.c\" */ c = '\"'; s = R\"(ui.x.y)\";");
  CHECK(lits == std::vector<std::string>{"ui.params.title"});
  CHECK(is_whole_key("ui.params.title"));
  CHECK_FALSE(is_whole_key("settings.json"));  // no "settings" namespace
  CHECK(is_key_start("ui.theme."));
  CHECK(is_key_end(".title"));
  CHECK_FALSE(is_key_end(".json"));
}

TEST_CASE("i18n: every key the code names exists, every key built from ids exists") {
  const Texts& en = texts("en");
  const auto fams = families();
  std::set<std::string> pieces;
  for (const Family& f : fams) pieces.insert(f.pieces.begin(), f.pieces.end());
  std::size_t whole = 0;
  for (const std::string& lit : app_literals()) {
    CAPTURE(lit);
    if (is_whole_key(lit)) {
      ++whole;
      // A whole key that is also a family's piece ("relative." is not whole) never happens.
      CHECK_MESSAGE(en.count(lit) == 1, "the code uses a key no translation has: " << lit);
    } else if (is_key_start(lit) || is_key_end(lit)) {
      CHECK_MESSAGE(pieces.count(lit) == 1,
                    "the code builds keys from '" << lit << "': add its family to tests/app/test_i18n.cpp");
    }
  }
  CHECK(whole > 300);  // the scan found the program's keys
  for (const Family& f : fams) {
    CAPTURE(f.name);
    CHECK((f.required.size() + f.optional.size()) > 0);
    for (const std::string& key : f.required) CHECK_MESSAGE(en.count(key) == 1, "missing key: " << key);
  }
}

TEST_CASE("i18n: the English sentences kept beside the code (the JSON reader's, a deck's refusals) are the English file's") {
  const Texts& en = texts("en");
  for (const auto& list : {app::json_input_sentences(), app::deck_sentences()})
    for (const auto& sentence : list) {
      const auto& key = sentence.first;  // not a structured binding: CAPTURE's lambda captures it (clang 14)
      const auto& english = sentence.second;
      CAPTURE(key);
      REQUIRE(en.count(key) == 1);
      CHECK(en.at(key) == english);
    }
}

TEST_CASE("i18n: every key in the files is used") {
  std::set<std::string> used(app_literals().begin(), app_literals().end());
  for (const Family& f : families()) {
    used.insert(f.required.begin(), f.required.end());
    used.insert(f.optional.begin(), f.optional.end());
  }
  for (const auto& entry : texts("en")) CHECK_MESSAGE(used.count(entry.first) == 1, "unused key: " << entry.first);
}

// [SECTION] Error messages: one exception per reason id

/// A set of `assignments` checked against the relations of `view`.
void resolve(std::string_view view, std::initializer_list<const char*> assignments) {
  core::Params p;
  for (const char* a : assignments) p.set_assignment(a);
  (void)app::resolve_view_params(*app::find_view(view), p);
}

void table(std::string_view id, std::initializer_list<const char*> assignments) {
  core::Params p;
  for (const char* a : assignments) p.set_assignment(a);
  (void)app::build_table(*app::find_table(id), p);
}

/// One or more exceptions for every reason id: bad input through the same
/// functions a user's input reaches (parsers, core, tables, the CLI).
std::vector<core::InvalidParameter> exceptions_for_every_reason() {
  std::vector<core::InvalidParameter> out;
  auto add = [&](const std::function<void()>& f) { out.push_back(test::raised_by(f)); };
  // "spec": every parameter with values of every kind it refuses
  for (const core::ParamSpec& s : core::param_specs())
    for (const char* text : {"abc", "", "-1e300", "1e300", "0.5", "3", "1,2,3", "1:2:3:4:5"}) {
      try {
        (void)core::parse_param_value(s, text);
      } catch (const core::InvalidParameter& e) {
        out.push_back(e);
      }
    }
  add([] { core::check_integer("m", 0.5); });  // an integer check on a real parameter
  add([] { core::check_real("pos", -1); });     // a number check on a list parameter
  add([] { (void)core::parse_scaling_method("rope"); });
  add([] { app::check_step_number("rope-2d", 99); });
  add([] { app::check_step_number("no-such-lesson", 1); });
  add([] {
    app::Deck d;
    d.scenes.resize(2);
    app::check_scene_number(d, "course", 5);
  });
  // the --set syntax
  add([] { core::Params().set_text("pos", "0:x"); });
  add([] { core::Params().set_text("pos", "9:0:1"); });
  add([] { core::Params().set_text("pos", "0:2000000"); });
  add([] { core::Params().set_text("nope", "1"); });
  add([] { core::Params().set_assignment("d"); });
  add([] { core::check_each_key_once(std::vector<std::string>{"d=64", "base=10", " d = 32"}); });
  add([] { (void)core::Params().value("pos"); });
  // relations between keys
  add([] { resolve("t5", {"buckets=6", "bidirectional=true", "bucket_max_distance=1"}); });
  add([] { resolve("t5", {"buckets=5", "bidirectional=true"}); });
  add([] { resolve("scaling", {"beta_fast=1", "beta_slow=2"}); });
  add([] { resolve("scaling", {"method=llama3", "low_freq_factor=4", "high_freq_factor=2"}); });
  add([] { resolve("alibi", {"heads=4", "head=5"}); });
  add([] { resolve("why-position", {"perm=0,0,1,2,3,4"}); });
  add([] { resolve("scaling", {"method=longrope", "d=8", "short_factor=1,2,3"}); });
  add([] { resolve("rope", {"d=64", "head_dim=32"}); });
  add([] { resolve("scaling", {"original_context=8192", "target_context=4096"}); });
  add([] { resolve("sinusoidal", {"d=64", "dims=100"}); });
  add([] { resolve("multimodal", {"mrope_section=0,0,0"}); });
  add([] { resolve("multimodal", {"d=66"}); });
  add([] { resolve("multimodal", {"d=8192", "grid_h=1024", "grid_w=1024"}); });
  add([] { resolve("layer-mix", {"positions=4000"}); });
  // core's own limits
  add([] { (void)core::learned_value(0, 200, 512, 128, 0); });
  add([] { (void)core::sinusoidal_value(0, 200, 128, 10000); });
  add([] { (void)core::alibi_bias_matrix(0.5, 5000, true); });
  add([] { (void)core::shaw_index_matrix(5000, 4); });
  add([] { (void)core::t5_bucket_matrix(5000, 5000, true, 32, 128); });
  add([] {
    const Eigen::VectorXd q = Eigen::VectorXd::Ones(4);
    (void)core::gaussian_score_matrix(q, q, 5000, 10000, core::PairLayout::interleaved, core::GaussianKernel{},
                                      core::KernelMode::absolute);
  });
  add([] { (void)core::sinusoidal_shift_matrix(1, 8192, 10000); });
  add([] {
    const std::vector<double> pos(300000, 1.0);
    (void)core::sinusoidal_matrix<double>(pos, 128, 10000);
  });
  add([] { core::ScalingConfig{.method = core::ScalingMethod::ntk, .d = 2}.check(); });
  add([] { core::ScalingConfig{.method = core::ScalingMethod::longrope, .factor = 2, .original_context = 1}.check(); });
  add([] {
    (void)core::rope_scaling_table(
        core::ScalingConfig{.method = core::ScalingMethod::seed, .d = 2, .factor = 1024, .temperature = 1000});
  });
  // the app's checks: export options, formats, presets, sessions, tables, the CLI
  // the length-generalisation lab (core/lab, poslab lab run)
  add([] { app::cli::check_lab_request({.width = 30}); });
  add([] { app::cli::check_lab_request({.encodings = "alibi", .extensions = "pi"}); });
  add([] {
    core::lab::LabConfig c = core::lab::default_lab_config(core::lab::Task::lm);
    c.encoding = core::lab::Encoding::alibi;
    c.width = 8;
    c.heads = 2;
    c.layers = 1;
    c.eval_samples = 1;
    core::lab::LabRun run(c);
    (void)run.evaluate(core::lab::Extension::yarn);
  });
  add([] { (void)app::parse_export_format("gif"); });
  add([] { (void)app::parse_table_format("xls"); });
  add([] { (void)app::fig::Theme::by_name("pink"); });
  add([] { (void)app::parse_play_mode("sometimes"); });
  add([] { (void)app::find_preset(app::load_presets(app::assets_dir()), "gpt-9"); });
  add([] { app::ExportOptions{.width = 100}.check(); });
  add([] { app::ExportOptions{.scale = 9}.check(); });
  add([] { app::ExportOptions{.width = 8192, .height = 8192, .scale = 2}.check(); });
  add([] { app::cli::check_export_pixels(6, app::ExportOptions{.width = 2000, .height = 1000, .scale = 2}); });
  add([] {
    app::WindowRequest r;
    app::parse_window_size("8192x8192", r);
  });
  add([] { (void)app::cli::params_from_request("", {"heads=4"}, app::find_view("rope")->keys, "rope"); });
  add([] {
    app::WindowRequest r;
    app::parse_window_size("10x10", r);
  });
  add([] { table("decay-bases", {"distance=0:999999", "bases=2,3"}); });
  add([] { table("sinusoidal", {"pos=0:99999", "d=128"}); });  // cells, a list
  add([] { table("rope-decay", {"distance=0:999999", "d=8192"}); });  // work, a list
  add([] { table("gaussian-shift", {"window=100000", "d=8192"}); });  // work, a number
  add([] { table("four-terms", {"positions=2000", "d=2"}); });         // cells, a number (work binds at d >= 8)
  add([] { table("learned-rows", {"pos=0:99999", "d=128"}); });
  add([] { table("learned-rows", {"pos=1.5"}); });
  add([] { table("four-terms", {"positions=2000"}); });
  add([] { table("rope-2d-shift", {"pos=1e12", "m=5"}); });
  add([] { table("rope-mixed-layouts", {"pos=1e12", "m=5"}); });
  add([] { table("gaussian-shift", {"window=1000000", "d=128"}); });
  add([] { table("gaussian-shift", {"window=10", "m=1e12", "d=2"}); });
  add([] { table("sinusoidal-dot", {"distance=0:999999", "d=128"}); });
  add([] { table("sinusoidal-dot", {"distance=2e9"}); });
  // poslab model: every way a config.json is refused (app/model)
  for (const char* config :
       {"not json", "[1]", R"({"vocab_size": 1})", R"({"model_type": "foo"})", R"({"model_type":"llama","rope_theta":"x"})",
        R"({"model_type":"llama","rope_theta":-1})", R"({"model_type":"llama","max_position_embeddings":0})",
        R"({"model_type":"llama","max_position_embeddings":10.5})", R"({"alibi":3})",
        R"({"model_type":"llama","rope_scaling":{"rope_type":5}})", R"({"alibi":true})",
        R"({"model_type":"bloom","n_head":1000})", R"({"model_type":"t5","relative_attention_num_buckets":33})",
        R"({"model_type":"t5","relative_attention_num_buckets":32,"relative_attention_max_distance":4})",
        R"({"position_embedding_type":"absolute"})", R"({"rope_theta":10000})",
        R"({"rope_theta":10000,"hidden_size":64})", R"({"rope_theta":10000,"hidden_size":100,"num_attention_heads":3})",
        R"({"model_type":"gpt_neox","hidden_size":1024,"num_attention_heads":16,"rotary_pct":0.25,"partial_rotary_factor":0.5})",
        R"({"rope_theta":1e4,"hidden_size":64,"num_attention_heads":1,"partial_rotary_factor":0.01})",
        R"({"rope_theta":1e4,"hidden_size":6,"num_attention_heads":2})",
        R"({"model_type":"llama","rope_scaling":{"type":"yarn","rope_type":"linear","factor":2}})",
        R"({"model_type":"llama","rope_scaling":{"factor":2}})", R"({"model_type":"llama","rope_scaling":{"rope_type":"yarn"}})",
        R"({"model_type":"llama","rope_scaling":{"rope_type":"linear","factor":0}})", R"({"model_type":"llama","rope_scaling":5})",
        R"({"rope_theta":1e4,"hidden_size":64,"num_attention_heads":1,"rope_scaling":{"rope_type":"linear","factor":2}})",
        R"({"rope_theta":1e4,"hidden_size":64,"num_attention_heads":1,"rope_scaling":{"rope_type":"yarn","factor":2}})",
        R"({"model_type":"llama","rope_scaling":{"rope_type":"llama3","factor":8}})",
        R"({"model_type":"llama","rope_scaling":{"rope_type":"llama3","factor":8,"original_max_position_embeddings":8192}})",
        R"({"model_type":"llama","rope_scaling":{"rope_type":"llama3","factor":8,"original_max_position_embeddings":8192,"low_freq_factor":4,"high_freq_factor":2}})",
        R"({"rope_theta":1e4,"hidden_size":4,"num_attention_heads":1,"rope_scaling":{"rope_type":"longrope","short_factor":[1,1],"long_factor":[1,1]}})",
        R"({"rope_theta":1e4,"hidden_size":4,"num_attention_heads":1,"max_position_embeddings":1,"rope_scaling":{"rope_type":"longrope","short_factor":[1,1],"long_factor":[1,1]}})",
        R"({"rope_theta":1e4,"hidden_size":4,"num_attention_heads":1,"original_max_position_embeddings":4096,"rope_scaling":{"rope_type":"longrope","short_factor":[1,1],"long_factor":[1,1]}})",
        R"({"model_type":"phi3","max_position_embeddings":8192,"original_max_position_embeddings":4096,"rope_scaling":{"rope_type":"longrope","long_factor":[1]}})",
        R"({"model_type":"phi3","max_position_embeddings":8192,"original_max_position_embeddings":4096,"rope_scaling":{"rope_type":"longrope","short_factor":[1],"long_factor":[1]}})",
        // the layers of 2025–26 configs (model_layers.cpp, model_rope.cpp)
        R"({"model_type":"qwen2_vl","hidden_size":64,"num_attention_heads":1,"rope_scaling":{"type":"mrope"}})",
        R"({"model_type":"qwen2_vl","hidden_size":64,"num_attention_heads":1,"rope_scaling":{"type":"mrope","mrope_section":[16,16]}})",
        R"({"model_type":"qwen2_vl","hidden_size":64,"num_attention_heads":1,"rope_scaling":{"type":"mrope","mrope_section":[8,8,8]}})",
        R"({"model_type":"chatglm","hidden_size":64,"num_attention_heads":1,"rope_ratio":1e-5})",
        R"({"model_type":"smollm3","hidden_size":64,"num_attention_heads":1,"num_hidden_layers":4,"no_rope_layers":7})",
        R"({"model_type":"smollm3","hidden_size":64,"num_attention_heads":1,"num_hidden_layers":4,"no_rope_layers":[1,1]})",
        R"({"model_type":"llama","hidden_size":64,"num_attention_heads":1,"num_hidden_layers":2,"layer_types":"full"})",
        R"({"model_type":"llama","hidden_size":64,"num_attention_heads":1,"num_hidden_layers":2,"layer_types":["full_attention"]})",
        R"({"model_type":"llama","hidden_size":64,"num_attention_heads":1,"num_hidden_layers":1,"layer_types":["global"]})",
        R"({"model_type":"gemma3_text","num_hidden_layers":2,"layer_types":["sliding_attention","full_attention"],"rope_parameters":{"full_attention":{"rope_type":"default"}}})",
        R"({"model_type":"ministral3","rope_parameters":{"rope_type":"default","llama_4_scaling_beta":0.1}})",
        R"({"model_type":"jamba","num_hidden_layers":8,"attn_layer_period":4,"attn_layer_offset":4})",
        R"({"model_type":"llama","rope_scaling":{"rope_type":"linear","factor":2000}})",
        R"({"model_type":"llama","rope_theta":1e999})"})
    add([config] { (void)app::read_model_config_text(config); });
  // a session's parameter refused, its own refusal carried for the UI's language
  add([] { (void)app::parse_session(R"({"format": "poslab-session", "version": 1, "lesson": "rope", "params": {"d": 7}})", "s.json"); });
  add([] {  // a sweep over its pixel budget
    app::SweepSpec spec;
    spec.key = "m";
    spec.frames = 600;
    (void)app::SweepWriter(*app::find_view("rope-2d"), app::find_view("rope-2d")->figures.front(), core::Params(), spec,
                           app::SweepFormat::gif, app::ExportOptions{}, test::english(), "unused.gif");
  });

  return out;
}

TEST_CASE("i18n: error_text says every reason in English as what() does, and in Chinese in full") {
  const app::Translator& en = test::english();
  const app::Translator& zh = chinese();
  std::set<std::string> ids, value_ids;
  for (const core::InvalidParameter& e : exceptions_for_every_reason()) {
    const core::Reason& r = e.reason();
    CAPTURE(e.what());
    CAPTURE(r.id);
    CHECK_FALSE(r.id.empty());  // every user-reachable check says which sentence it is
    ids.insert(r.id);
    if (!r.value_id.empty()) value_ids.insert(r.value_id);
    CHECK(app::error_text(en, e) == e.what());
    const std::string chinese_text = app::error_text(zh, e);
    CAPTURE(chinese_text);
    CHECK(chinese_text.find('{') == std::string::npos);
    CHECK(chinese_text != e.what());  // translated, not fallen back to what()
  }
  // Every reason written in the sources was raised above (a new one needs its case here).
  for (const fs::path& dir : {source_dir() / "core", source_dir() / "app"}) {
    const ReasonIds written = reason_ids_in(dir);
    for (const std::string& id : written.ids) {
      if (dir.filename() == "app" && (id == "not_numeric" || id == "no_format" || id == "unknown_preset")) continue;  // tests/gui
      CHECK_MESSAGE(ids.count(id) == 1, "no test raises reason '" << id << "'");
    }
    for (const std::string& id : written.value_ids)
      if (id != "none") CHECK_MESSAGE(value_ids.count(id) == 1, "no test raises value id '" << id << "'");
  }
  // spec's allowed phrase through every type and bound shape
  for (const core::ParamSpec& s : core::param_specs()) {
    CAPTURE(s.key);
    CHECK(app::allowed_text(en, s) == core::describe_allowed(s));
    CHECK(app::allowed_text(zh, s).find('{') == std::string::npos);
  }
}

TEST_CASE("i18n: error_text falls back to what() and never fills braces the user typed") {
  const app::Translator& zh = chinese();
  const std::runtime_error plain("disk full");
  CHECK(app::error_text(zh, plain) == "disk full");
  const core::InvalidParameter no_reason("x", "1", "something");
  CHECK(app::error_text(zh, no_reason) == "x = 1: something");
  const core::InvalidParameter unknown_id("x", "1", "something", core::Reason{"no_such_reason", {}, {}});
  CHECK(app::error_text(zh, unknown_id) == "x = 1: something");
  const auto typed = test::raised_by([] { core::Params().set_assignment("{value}{allowed}"); });
  CHECK(app::error_text(test::english(), typed) == typed.what());
  CHECK(app::error_text(zh, typed).rfind("{value}{allowed} = ?：", 0) == 0);
}

// [SECTION] Figures and readouts ask for no missing key

TEST_CASE("i18n: every figure and readout, at every choice, in Chinese, finds its texts") {
  const app::Translator zh = app::Translator::load(app::assets_dir(), "zh");
  for (const app::ViewDef& v : app::view_defs()) {
    // the defaults, then each choice of each choice parameter the view reads
    std::vector<core::Params> variants(1);
    for (std::string_view key : v.keys) {
      const core::ParamSpec& s = core::param_spec(key);
      if (s.type == core::ParamType::choice)
        for (std::string_view c : core::param_choices(s)) variants.emplace_back().set_text(key, c);
      if (s.type == core::ParamType::boolean)
        for (const char* b : {"true", "false"}) variants.emplace_back().set_text(key, b);
    }
    for (const core::Params& p : variants) {
      CAPTURE(v.id);
      core::Params resolved;
      try {
        resolved = app::resolve_view_params(v, p);
      } catch (const core::InvalidParameter&) {
        continue;  // a choice that breaks a rule at the defaults (e.g. bidirectional=false with odd buckets)
      }
      for (const app::FigureDef& f : v.figures) {
        const app::fig::Figure fig = app::build_figure_resolved(v, f, resolved, zh, 900, 560);
        CHECK(placeholders(fig.title).empty());
        CHECK(placeholders(fig.subtitle).empty());
      }
      if (v.readouts) (void)app::view_readouts_resolved(v, resolved, zh);
    }
  }
  CHECK_MESSAGE(zh.missing_keys().empty(), "keys asked for but missing: " << [&] {
    std::string s;
    for (const std::string& k : zh.missing_keys()) s += k + " ";
    return s;
  }());
}

// [SECTION] Chinese as written
//
// What docs/GLOSSARY.md asks of every Chinese text — translations, guided
// steps, the notation card — that a program can check: Chinese punctuation
// in Chinese sentences, one space between Chinese and Latin or numbers,
// numbers that never break, one word per term, no "seed" shown.

/// The code points of UTF-8 `s`, each with the byte it starts at (an invalid
/// byte becomes U+FFFD).
std::vector<std::pair<char32_t, std::size_t>> code_points(std::string_view s) {
  std::vector<std::pair<char32_t, std::size_t>> out;
  for (std::size_t i = 0; i < s.size();) {
    const auto b = static_cast<unsigned char>(s[i]);
    const std::size_t n = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 0;
    if (n == 0 || i + n > s.size()) {
      out.emplace_back(U'\uFFFD', i++);
      continue;
    }
    char32_t c = n == 1 ? b : b & (0x7F >> n);
    for (std::size_t k = 1; k < n; ++k) c = (c << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    out.emplace_back(c, i);
    i += n;
  }
  return out;
}

bool is_han(char32_t c) { return (c >= 0x3400 && c <= 0x9FFF) || (c >= 0xF900 && c <= 0xFAFF); }
/// Chinese punctuation: no space next to it (“两个“the”的输出”, “0.15（d = 128 时）”).
bool is_chinese_punct(char32_t c) { return std::u32string_view(U"，。：；、！？（）《》“”").find(c) != std::u32string_view::npos; }
/// ASCII letters and digits, Greek letters.
bool is_latin_or_digit(char32_t c) {
  return (c >= U'0' && c <= U'9') || (c >= U'A' && c <= U'Z') || (c >= U'a' && c <= U'z') || (c >= 0x391 && c <= 0x3C9);
}
/// Letters, digits and ideographs: what a space may not separate from Chinese punctuation.
bool is_word(char32_t c) { return is_han(c) || is_latin_or_digit(c); }

/// Words the glossary rules out, with the word it uses instead.
const std::vector<std::pair<std::string, std::string>>& ruled_out_words() {
  static const std::vector<std::pair<std::string, std::string>> words = {
      {"底数", "基数"}, {"分量对", "维度对"}, {"缩放倍数", "缩放因子"},
      {"热图", "热力图"}, {"位置嵌入", "位置编码"}, {"外插", "外推"},
      {"分箱", "分桶"}, {"令牌", "token"}, {"词元", "token"},
      {"带种子", "固定种子的随机"}, {"按种子", "用固定种子"}, {"键 − 查询", "键减查询"},
      {"查询 − 键", "查询减键"}, {"YaRN 代码", "YaRN（代码）"},
      // the zh review (round 2): one word per idea, no English left in a Chinese sentence
      {"原始笔记", "讲义"}, {"笔记代码", "讲义代码"}, {"内容到位置", "内容–位置"}, {"位置到内容", "位置–内容"},
      {" et al.", "等人"}, {"偏移 Δ", "平移 Δ"}, {"、……", "……"}, {"、…、", "……"}, {"近了 8", "缩小到 1/8"}, {"近 s", "缩小到 1/s"},
  };
  return words;
}

/// What a Chinese text breaks of docs/GLOSSARY.md, one line per problem.
std::vector<std::string> chinese_style_problems(const std::string& text) {
  std::vector<std::string> out;
  const auto cps = code_points(text);
  auto cp = [&](std::size_t i) -> char32_t { return i < cps.size() ? cps[i].first : 0; };
  auto around = [&](std::size_t i) {  // a few characters either side, for the message
    const std::size_t from = cps[i > 8 ? i - 8 : 0].second;
    const std::size_t to = i + 9 < cps.size() ? cps[i + 9].second : text.size();
    return "«" + text.substr(from, to - from) + "»";
  };
  auto digit = [](char32_t d) { return d >= U'0' && d <= U'9'; };
  for (std::size_t i = 0; i < cps.size(); ++i) {
    const char32_t c = cp(i), prev = i > 0 ? cp(i - 1) : 0, next = cp(i + 1);
    // An ASCII , : ; ! ? with Chinese on either side (spaces skipped): a Chinese sentence's.
    if (std::u32string_view(U",:;!?").find(c) != std::u32string_view::npos) {
      std::size_t a = i, b = i + 1;
      while (a > 0 && cp(a - 1) == U' ') --a;
      while (cp(b) == U' ') ++b;
      if ((a > 0 && is_han(cp(a - 1))) || is_han(cp(b)))
        out.push_back("half-width punctuation in a Chinese sentence: " + around(i));
    }
    if (c == U' ' && ((is_chinese_punct(prev) && is_word(next)) || (is_word(prev) && is_chinese_punct(next))))
      out.push_back("a space next to Chinese punctuation: " + around(i));
    // "（线性缩放） · d": a full-width mark already carries its own space (join_dot writes "）· ").
    if (c == U' ' && next == U'·' && std::u32string_view(U"，。：；、！？（）《》").find(prev) != std::u32string_view::npos)
      out.push_back("a space between Chinese punctuation and · (write \"）· \"): " + around(i));
    if ((is_han(prev) && is_latin_or_digit(c)) || (is_latin_or_digit(prev) && is_han(c)))
      out.push_back("no space between Chinese and Latin or a number: " + around(i));
    // "10 000": a space inside a number is a place to break the line.
    if (c == U' ' && digit(prev)) {
      const bool three = digit(cp(i + 1)) && digit(cp(i + 2)) && digit(cp(i + 3));
      if (three && !digit(cp(i + 4))) out.push_back("digits grouped with a space (write 10,000): " + around(i));
    }
    if (c == U'%' && prev == U' ' && i > 1 && (digit(cp(i - 2)) || cp(i - 2) == U'}'))
      out.push_back("a space before % (write 1%): " + around(i));
  }
  for (const auto& [word, instead] : ruled_out_words())
    if (text.find(word) != std::string::npos) out.push_back("“" + word + "”: the glossary says “" + instead + "”");
  // 远程衰减 is the term; 长程衰减 only beside it, as its other name.
  if (text.find("长程衰减") != std::string::npos && text.find("远程衰减") == std::string::npos)
    out.push_back("“长程衰减” without “远程衰减”");
  // YaRN's two variants, in one form everywhere: YaRN（代码）, YaRN（论文）.
  for (std::size_t p = text.find("YaRN（"); p != std::string::npos; p = text.find("YaRN（", p + 1)) {
    const std::string_view rest = std::string_view(text).substr(p + std::string("YaRN（").size());
    if (rest.rfind("代码）", 0) != 0 && rest.rfind("论文）", 0) != 0) out.push_back("YaRN（…） other than 代码 or 论文");
  }
  // The notes' method was once called "seed": no Chinese text shows the word (a {seed} placeholder is a number).
  std::string outside;
  int brace = 0;
  for (char c : text) {
    if (c == '{') ++brace;
    if (brace == 0) outside += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (c == '}') brace = std::max(0, brace - 1);
  }
  if (outside.find("seed") != std::string::npos) out.push_back("the word “seed”");
  return out;
}

/// Every Chinese text a user reads from the assets: translations, the guided
/// steps of every lesson, the notation card — each with where it comes from.
std::vector<std::pair<std::string, std::string>> chinese_texts() {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& entry : texts("zh")) out.emplace_back("i18n " + entry.first, entry.second);
  for (const app::ViewDef& v : app::view_defs()) {
    const app::Deck* steps = app::lesson_steps(v.id);
    if (!steps) continue;
    out.emplace_back("steps " + std::string(v.id) + " title", steps->title.zh);
    for (std::size_t k = 0; k < steps->scenes.size(); ++k) {
      const app::Scene& s = steps->scenes[k];
      const std::string where = "steps " + std::string(v.id) + " " + std::to_string(k + 1) + " ";
      out.emplace_back(where + "caption", s.caption.zh);
      out.emplace_back(where + "question", s.question.zh);
      out.emplace_back(where + "answer", s.answer.zh);
    }
  }
  for (const app::NotationEntry& e : app::load_notation(app::assets_dir())) out.emplace_back("notation " + e.symbol, e.zh);
  // A preset's provenance, as the preset menu shows it in Chinese.
  for (const app::Preset& p : app::load_presets(app::assets_dir()))
    if (!p.source_zh.empty()) out.emplace_back("preset " + p.id + " source", p.source_zh);
  // The built-in decks' captions, questions and answers.
  for (const auto& deck : app::builtin_decks())
    for (std::size_t k = 0; k < deck.second.scenes.size(); ++k) {
      const app::Scene& s = deck.second.scenes[k];
      const std::string where = "deck " + deck.first + " " + std::to_string(k + 1) + " ";
      out.emplace_back(where + "caption", s.caption.zh);
      out.emplace_back(where + "question", s.question.zh);
      out.emplace_back(where + "answer", s.answer.zh);
    }
  return out;
}

/// Every English text a user reads: translations, the guided steps, the
/// notation card, the built-in decks.
std::vector<std::pair<std::string, std::string>> english_texts() {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& entry : texts("en")) out.emplace_back("i18n " + entry.first, entry.second);
  auto scenes = [&](const std::string& where, const app::Deck& deck) {
    for (std::size_t k = 0; k < deck.scenes.size(); ++k) {
      const app::Scene& s = deck.scenes[k];
      const std::string at = where + " " + std::to_string(k + 1) + " ";
      out.emplace_back(at + "caption", s.caption.en);
      out.emplace_back(at + "question", s.question.en);
      out.emplace_back(at + "answer", s.answer.en);
    }
  };
  for (const app::ViewDef& v : app::view_defs())
    if (const app::Deck* steps = app::lesson_steps(v.id)) scenes("steps " + std::string(v.id), *steps);
  for (const app::NotationEntry& e : app::load_notation(app::assets_dir())) out.emplace_back("notation " + e.symbol, e.en);
  for (const auto& deck : app::builtin_decks()) scenes("deck " + deck.first, deck.second);
  return out;
}

TEST_CASE("i18n: English texts group digits with commas, never a space (a line may break at a space: \"10 ⏎ 000\")") {
  const auto all = english_texts();
  CHECK(all.size() > 1000);
  auto grouped_by_space = [](const std::string& t) {
    for (std::size_t i = 1; i + 3 < t.size(); ++i)
      if (t[i] == ' ' && std::isdigit(static_cast<unsigned char>(t[i - 1])) && std::isdigit(static_cast<unsigned char>(t[i + 1])) &&
          std::isdigit(static_cast<unsigned char>(t[i + 2])) && std::isdigit(static_cast<unsigned char>(t[i + 3])) &&
          (i + 4 == t.size() || !std::isdigit(static_cast<unsigned char>(t[i + 4]))))
        return true;
    return false;
  };
  CHECK(grouped_by_space("b = 10 000."));
  CHECK(grouped_by_space("1 000 000"));
  CHECK_FALSE(grouped_by_space("b = 10,000, d = 128 and 2 1234"));
  for (const auto& entry : all) {  // not a structured binding: clang 14 cannot CAPTURE one
    CAPTURE(entry.first);
    CAPTURE(entry.second);
    CHECK_FALSE(grouped_by_space(entry.second));
  }
}

TEST_CASE("i18n: every step and notation text has its Chinese") {
  std::size_t steps = 0;
  for (const app::ViewDef& v : app::view_defs()) {
    const app::Deck* deck = app::lesson_steps(v.id);
    if (!deck) continue;
    CAPTURE(v.id);
    CHECK_FALSE(deck->title.zh.empty());
    for (const app::Scene& s : deck->scenes)
      for (const app::LocalText* t : {&s.caption, &s.question, &s.answer}) {
        ++steps;
        CAPTURE(t->en);
        CHECK(t->en.empty() == t->zh.empty());
      }
  }
  CHECK(steps > 100);
  for (const app::NotationEntry& e : app::load_notation(app::assets_dir())) {
    CAPTURE(e.symbol);
    CHECK_FALSE(e.zh.empty());
  }
}

TEST_CASE("i18n: the Chinese style check sees each problem") {
  CHECK(chinese_style_problems("正弦位置编码：每个位置一行 PE(p)，d = 128 时约 54,410 个 token（1%）").empty());
  CHECK(chinese_style_problems("两个“the”的输出 · 随机种子 {seed} · cos∠(第 p₀ 行，第 p 行)").empty());
  CHECK(chinese_style_problems("RoFormer 把这叫作远程衰减（也有人叫长程衰减）").empty());
  CHECK(chinese_style_problems("YaRN（代码）和 YaRN（论文）").empty());
  for (const char* bad : {"位置编码, 旋转", "注意：d = 4:第", "两个 “the”", "（ 单位", "第 1对", "d维", "b = 10 000 时",
                          "低于 1 %", "频率底数", "分量对下标", "打乱后的热图", "带种子的 q", "n − m（键 − 查询）",
                          "扩展后的长程衰减", "YaRN（HF）", "方法 seed", "与原始笔记对比", "Dai et al. 2019",
                          "第 1、3、……、95 个", "相邻 token 近了 8 倍", "（线性缩放） · d"}) {
    CAPTURE(bad);
    CHECK(chinese_style_problems(bad).size() == 1);
  }
}

TEST_CASE("i18n: every Chinese text follows the glossary's punctuation, spacing and terms") {
  const auto all = chinese_texts();
  CHECK(all.size() > 1000);
  for (const auto& entry : all) {
    CAPTURE(entry.first);
    CAPTURE(entry.second);
    // Checked as the reader sees it: formulas ("$θ_i$") written out, so
    // "波长$λ_i$" is a missing space and a formula's markup is no punctuation.
    for (const std::string& problem : chinese_style_problems(app::fig::plain_text(entry.second))) FAIL_CHECK(problem);
  }
}

TEST_CASE("i18n: a scaling method has one name in the menu and in the figures' legends") {
  for (const char* lang : {"en", "zh"}) {
    CAPTURE(lang);
    for (std::string_view m : core::param_choices(core::param_spec("method"))) {
      CAPTURE(m);
      const auto menu = texts(lang).find("param.method.choice." + std::string(m));
      const auto legend = texts(lang).find("scaling.method." + std::string(m));
      REQUIRE(menu != texts(lang).end());
      REQUIRE(legend != texts(lang).end());
      CHECK(menu->second == legend->second);
      CHECK(menu->second.find("seed") == std::string::npos);
    }
  }
}

TEST_CASE("i18n: every figure's generated Chinese description follows the glossary's punctuation and spacing") {
  // The descriptions (app/plot/figure_describe.hpp) put labels, numbers and
  // units next to Chinese words: checked as a reader hears them, figure by figure.
  const app::Translator zh = app::Translator::load(app::assets_dir(), "zh");
  int checked = 0;
  for (const app::ViewDef& v : app::view_defs())
    for (const app::FigureDef& f : v.figures) {
      CAPTURE(v.id);
      CAPTURE(f.id);
      const std::string d = app::build_figure(v, f, core::Params{}, zh).description;
      CAPTURE(d);
      for (const std::string& problem : chinese_style_problems(d)) FAIL_CHECK(problem);
      ++checked;
    }
  CHECK(checked > 40);
}

}  // namespace

TEST_CASE("a label and its text: one space after an ASCII colon, none after a full-width one") {
  CHECK(app::labelled("Predict:", "does it change?") == "Predict: does it change?");
  CHECK(app::labelled("先猜一猜：", "会变吗？") == "先猜一猜：会变吗？");
  CHECK(app::labelled("答案：", "不会。") == "答案：不会。");
  CHECK(app::labelled("", "x") == "x");
}

TEST_CASE("zh: no ASCII space after a full-width mark where texts are joined (join_dot, a filled {value})") {
  using poslab::app::fill_sentence;
  CHECK(fill_sentence("{method} 混合第 {from}–{to} 对", {{"method", "YaRN（代码）"}, {"from", "21"}, {"to", "45"}}) ==
        "YaRN（代码）混合第 21–45 对");
  CHECK(fill_sentence("{method} 混合第", {{"method", "Llama 3"}}) == "Llama 3 混合第");  // Latin keeps its space
  CHECK(fill_sentence("{a} · {b}", {{"a", "x"}, {"b", "y"}}) == "x · y");
  CHECK(poslab::app::fig::join_dot({"YaRN（代码）", "YaRN（论文）", "d = 8"}) == "YaRN（代码）· YaRN（论文）· d = 8");
  CHECK(poslab::app::fig::join_dot({"a", "", "b"}) == "a · b");
}
