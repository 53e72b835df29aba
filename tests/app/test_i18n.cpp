// The translations (assets/i18n/<lang>/*.json) against each other and against
// the code that uses them:
// - every key exists in English and in Chinese, with the same {placeholders};
// - every key the sources under app/ name (string literals shaped like keys)
//   exists, and every key built from ids ("<view>.title", "param.<key>.name",
//   "error.<reason id>", …) exists for every id the program has;
// - no key in the files is used nowhere;
// - error_text says every core::Reason in English exactly as what() does and
//   in Chinese with every placeholder filled.
// The sources are read from POSLAB_SOURCE_DIR (tests/CMakeLists.txt).
//
// [SECTION] Index
// - Reading the translations and the sources
// - The families of keys the code builds
// - Both languages
// - Keys in code, keys in files
// - Error messages: one exception per reason id
// - Figures and readouts ask for no missing key

#include <doctest/doctest.h>

#include <algorithm>
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
#include "app/common/presets.hpp"
#include "app/common/session.hpp"
#include "app/export/figure_export.hpp"
#include "app/export/table_writer.hpp"
#include "app/decks/deck.hpp"
#include "app/lessons/lesson.hpp"
#include "app/lessons/table.hpp"
#include "app_test_support.hpp"
#include "core/core_test_support.hpp"
#include "poslab/core/alibi.hpp"
#include "poslab/core/gaussian.hpp"
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

/// The {name} placeholders of a text (names of letters, digits and _ only:
/// "R_{i−j}" in a formula is not one).
std::set<std::string> placeholders(const std::string& text) {
  static const std::regex re(R"(\{([A-Za-z0-9_]+)\})");
  std::set<std::string> out;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator(); ++it)
    out.insert((*it)[1]);
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
  // param_name, help_text, unit_text (params_panel.cpp)
  Family params{"parameters", {"param.", ".name", ".help", ".choice."}, {}, {}};
  Family units{"units", {"ui.unit."}, {}, {}};
  for (const core::ParamSpec& s : core::param_specs()) {
    params.required.insert("param." + std::string(s.key) + ".name");
    params.optional.insert("param." + std::string(s.key) + ".help");
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
    CHECK_FALSE(it->second.empty());
  }
  for (const auto& entry : zh) CHECK_MESSAGE(en.count(entry.first) == 1, "missing in en: " << entry.first);
}

TEST_CASE("i18n: the placeholder check sees a difference") {
  CHECK(placeholders("{n} 个位置，d = {d}") == std::set<std::string>{"d", "n"});
  CHECK(placeholders("R_{i−j} at {n}") == std::set<std::string>{"n"});
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
  add([] { resolve("sinusoidal", {"d=64", "dims=100"}); });
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
  add([] {
    (void)core::rope_scaling_table(
        core::ScalingConfig{.method = core::ScalingMethod::seed, .d = 2, .factor = 1024, .temperature = 1000});
  });
  // the app's checks: export options, formats, presets, sessions, tables, the CLI
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
  add([] { table("four-terms", {"positions=2000", "d=2"}); });         // cells, a number
  add([] { table("learned-rows", {"pos=0:99999", "d=128"}); });
  add([] { table("learned-rows", {"pos=1.5"}); });
  add([] { table("four-terms", {"positions=2000"}); });
  add([] { table("rope-2d-shift", {"pos=1e12", "m=5"}); });
  add([] { table("rope-mixed-layouts", {"pos=1e12", "m=5"}); });
  add([] { table("gaussian-shift", {"window=1000000", "d=128"}); });
  add([] { table("gaussian-shift", {"window=10", "m=1e12", "d=2"}); });
  add([] { table("sinusoidal-dot", {"distance=0:999999", "d=128"}); });
  add([] { table("sinusoidal-dot", {"distance=2e9"}); });
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

}  // namespace
