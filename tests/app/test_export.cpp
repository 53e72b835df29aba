// Exporters: PNG size, scale and transparency; SVG well-formed with text as
// <text>; PDF a complete document; CSV holds the plotted numbers; every file
// written atomically.

#include <doctest/doctest.h>

#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <set>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "app/common/assets.hpp"
#include "app/common/atomic_file.hpp"
#include "app/common/fonts.hpp"
#include "app/decks/deck.hpp"
#include "app/export/figure_export.hpp"
#include "app/export/table_writer.hpp"
#include "app/lessons/lesson.hpp"
#include "app_test_support.hpp"
#include "poslab/core/alibi.hpp"
#include "poslab/core/errors.hpp"
#include "poslab/core/rope.hpp"
#include "poslab/core/sinusoidal.hpp"

using namespace poslab;
namespace fig = poslab::app::fig;
namespace fs = std::filesystem;

namespace {

fig::Figure sample_figure() {
  fig::Figure f;
  f.title = "θ per pair";
  f.subtitle = "d = 8 · base = 10,000";
  f.x = {.label = "pair i"};
  f.y = {.label = "θ", .scale = fig::AxisScale::log};
  fig::Series s{.name = "θ_i", .kind = fig::SeriesKind::line};
  for (int i = 0; i < 4; ++i) s.x.push_back(i), s.y.push_back(std::pow(10000.0, -2.0 * i / 8));
  s.x_name = "pair";
  s.y_name = "θ";
  s.extra = {{"λ", "tokens", {}}};
  for (double y : s.y) s.extra[0].values.push_back(2 * 3.141592653589793 / y);
  f.series.push_back(s);
  fig::Heatmap h;
  h.x0 = 0, h.x1 = 2, h.y0 = 0, h.y1 = 2, h.cols = 2, h.rows = 2;
  h.values = {-1, 0, 0.5, 1};
  h.mask = {0, 0, 0, 1};
  h.colormap = fig::Colormap::signed_;
  h.vmin = -1, h.vmax = 1;
  h.value_name = "v";
  f.heatmaps.push_back(h);
  return f;
}

fs::path temp_dir() {
  const fs::path d = fs::temp_directory_path() / ("poslab-test-" + std::to_string(::getpid()));
  fs::create_directories(d);
  return d;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// Minimal well-formedness: every <tag> has its </tag>, in order.
bool xml_balanced(const std::string& s) {
  std::vector<std::string> stack;
  for (std::size_t i = s.find('<'); i != std::string::npos; i = s.find('<', i + 1)) {
    if (s.compare(i, 2, "<?") == 0 || s.compare(i, 4, "<!--") == 0) continue;
    const std::size_t end = s.find('>', i);
    if (end == std::string::npos) return false;
    const bool closing = s[i + 1] == '/';
    const bool self = s[end - 1] == '/';
    std::size_t name_end = s.find_first_of(" />", i + 1 + closing);
    const std::string name = s.substr(i + 1 + closing, name_end - i - 1 - closing);
    if (closing) {
      if (stack.empty() || stack.back() != name) return false;
      stack.pop_back();
    } else if (!self) {
      stack.push_back(name);
    }
  }
  return stack.empty();
}

}  // namespace

TEST_CASE("PNG at the requested size and scale, opaque or transparent") {
  const fig::Figure f = sample_figure();
  app::ExportOptions o;
  o.width = 800;
  o.height = 500;
  auto d = test::decode_png(app::render_png(f, o));
  CHECK(d.ok);
  CHECK(d.width == 800);
  CHECK(d.height == 500);
  CHECK(d.distinct_colours > 5);
  o.scale = 2;
  d = test::decode_png(app::render_png(f, o));
  CHECK(d.width == 1600);
  CHECK(d.height == 1000);
  o.scale = 1;
  o.transparent = true;
  o.theme = "dark";
  CHECK(test::decode_png(app::render_png(f, o)).ok);
}

TEST_CASE("bad export options are refused naming the option") {
  app::ExportOptions o;
  o.width = 10;
  CHECK_THROWS_AS(o.check(), core::InvalidParameter);
  o = {};
  o.scale = 0;
  CHECK_THROWS_AS(o.check(), core::InvalidParameter);
  o = {};
  o.width = 8192, o.height = 8192, o.scale = 4;
  CHECK_THROWS_AS(o.check(), core::InvalidParameter);  // would be gigabytes
  o = {};
  o.theme = "neon";
  CHECK_THROWS_AS(o.check(), core::InvalidParameter);
  CHECK_THROWS_AS(app::parse_export_format("gif"), core::InvalidParameter);
}

TEST_CASE("SVG: well formed, text as text, heatmap embedded") {
  const fs::path dir = temp_dir();
  app::export_figure(sample_figure(), app::ExportFormat::svg, dir / "f.svg", {});
  const std::string svg = slurp(dir / "f.svg");
  CHECK(svg.rfind("<?xml", 0) == 0);
  CHECK(xml_balanced(svg));
  CHECK(svg.find("<text") != std::string::npos);
  CHECK(svg.find(">θ per pair</text>") != std::string::npos);
  CHECK(svg.find("data:image/png;base64,") != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("SVG: a run's own spaces and full-width punctuation's em are kept as measured") {
  // A formula's last glyph and the text after it are separate runs: SVG drops
  // a run's leading space unless told (Chromium drew "1· s = 8"), and Chromium
  // trims "）：" unless told (a gap after "YaRN（代码）：", before the formula).
  fig::Figure f = sample_figure();
  f.subtitle = "YaRN（代码）：$a = 0.1\\,\\ln s + 1$ · s = 8";
  const fs::path dir = temp_dir();
  app::ExportOptions o;
  o.font_family = app::export_font_families("zh");
  app::export_figure(f, app::ExportFormat::svg, dir / "f.svg", o);
  const std::string svg = slurp(dir / "f.svg");
  CHECK(xml_balanced(svg));
  const std::size_t root = svg.find("<svg ");
  REQUIRE(root != std::string::npos);
  CHECK(svg.substr(root, svg.find('>', root) - root).find("style=\"text-spacing-trim:space-all\"") != std::string::npos);
  int texts = 0, kept = 0;
  for (std::size_t at = svg.find("<text"); at != std::string::npos; at = svg.find("<text", at + 1)) {
    ++texts;
    const std::string_view tag = std::string_view(svg).substr(at, svg.find('>', at) - at);
    kept += tag.starts_with("<text xml:space=\"preserve\" ");
  }
  CHECK(texts > 10);
  CHECK(kept == texts);
  CHECK(svg.find("> · s = 8</text>") != std::string::npos);  // the run written with its leading space
  CHECK(svg.find(">YaRN（代码）：</text>") != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("PDF: one complete document") {
  const fs::path dir = temp_dir();
  app::export_figure(sample_figure(), app::ExportFormat::pdf, dir / "f.pdf", {});
  const std::string pdf = slurp(dir / "f.pdf");
  CHECK(pdf.rfind("%PDF-", 0) == 0);
  CHECK(pdf.find("%%EOF") != std::string::npos);
  CHECK(pdf.find("/Type /Page") != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("CSV holds the plotted numbers, masked cells left out") {
  const std::string csv = app::figure_csv(sample_figure());
  std::istringstream in(csv);
  std::string header;
  std::getline(in, header);
  CHECK(header == "series,pair,θ,λ,v");
  std::string line;
  std::getline(in, line);
  CHECK(line == "θ_i,0,1,6.283185307179586,");
  std::vector<std::string> rows;
  while (std::getline(in, line)) rows.push_back(line);
  CHECK(rows.size() == 3 + 3);  // 3 more series points, 4 cells minus 1 masked
  CHECK(rows[3] == "v,0,0,,-1");
  CHECK(csv.find(",1\n") == std::string::npos);  // the masked cell (value 1) is absent
}

TEST_CASE("atomic writes: failures leave existing files intact and no temporary behind") {
  const fs::path dir = temp_dir();
  const fs::path target = dir / "keep.txt";
  app::write_file_atomically(target, "original");
  CHECK(slurp(target) == "original");
  // A writer that fails halfway must not touch the target.
  CHECK_THROWS(app::write_path_atomically(target, [](const fs::path& tmp) {
    std::ofstream(tmp) << "half";
    throw app::IoError("disk full (simulated)");
  }));
  CHECK(slurp(target) == "original");
  int leftovers = 0;
  for (const auto& e : fs::directory_iterator(dir)) leftovers += e.path().filename() != "keep.txt";
  CHECK(leftovers == 0);
  // A missing folder or a folder as target: a clear IoError.
  CHECK_THROWS_AS(app::write_file_atomically(dir / "missing" / "x.txt", "x"), app::IoError);
  CHECK_THROWS_AS(app::write_file_atomically(dir, "x"), app::IoError);
  // An unwritable folder, even for root: /proc/self accepts no new files.
  CHECK_THROWS_AS(app::write_file_atomically("/proc/self/poslab-test.txt", "x"), app::IoError);
  // A full disk, simulated with a file-size limit: the write fails midway
  // (EFBIG), the target keeps its old bytes and the temporary file is gone.
  {
    struct rlimit old {};
    ::getrlimit(RLIMIT_FSIZE, &old);
    struct rlimit tiny = old;
    tiny.rlim_cur = 4096;
    auto* previous = std::signal(SIGXFSZ, SIG_IGN);
    REQUIRE(::setrlimit(RLIMIT_FSIZE, &tiny) == 0);
    bool threw = false;
    try {
      app::write_file_atomically(target, std::string(1 << 20, 'x'));
    } catch (const app::IoError& e) {
      threw = true;
      CHECK(std::string(e.what()).find(target.string()) != std::string::npos);
    }
    ::setrlimit(RLIMIT_FSIZE, &old);
    std::signal(SIGXFSZ, previous);
    CHECK(threw);
    CHECK(slurp(target) == "original");
    int left = 0;
    for (const auto& e : fs::directory_iterator(dir)) left += e.path().filename() != "keep.txt";
    CHECK(left == 0);
  }
  fs::remove_all(dir);
}

namespace {

/// A heatmap row of a figure CSV: value name, x, y and value (the last three fields).
struct CsvCell {
  std::string name;
  double x = 0, y = 0;
  std::string value;
};

std::vector<CsvCell> csv_cells(const std::string& csv) {
  std::vector<CsvCell> out;
  std::istringstream in(csv);
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    const std::size_t c3 = line.rfind(','), c2 = line.rfind(',', c3 - 1), c1 = line.rfind(',', c2 - 1);
    if (c1 == std::string::npos || c3 + 1 >= line.size()) continue;  // a series row (no value column)
    out.push_back({line.substr(0, c1), std::stod(line.substr(c1 + 1, c2 - c1 - 1)),
                   std::stod(line.substr(c2 + 1, c3 - c2 - 1)), line.substr(c3 + 1)});
  }
  return out;
}

std::string lesson_csv(const char* view, const char* figure, const core::Params& p) {
  const app::ViewDef* v = app::find_view(view);
  REQUIRE(v != nullptr);
  const app::FigureDef* def = app::find_figure(*v, figure);
  REQUIRE(def != nullptr);
  return app::figure_csv(app::build_figure(*v, *def, p, test::english(), 900, 500));
}

}  // namespace

TEST_CASE("CSV of a lesson's heatmap: a row per cell at its index, the value in double, the row header right, no -0 (audit)") {
  SUBCASE("sinusoidal: PE[p, j] at p = 0…9, j = 0…7, to the last bit of a double") {
    core::Params p;
    p.set("d", 8.0);
    p.set("positions", 10.0);
    const std::vector<CsvCell> cells = csv_cells(lesson_csv("sinusoidal", "heatmap", p));
    REQUIRE(cells.size() == 80);
    int beyond_float = 0;
    for (const CsvCell& c : cells) {
      CAPTURE(c.value);
      CHECK(c.x == std::floor(c.x));  // an index, never a cell edge (x.5)
      CHECK(c.y == std::floor(c.y));
      CHECK((c.x >= 0 && c.x <= 7 && c.y >= 0 && c.y <= 9));
      const double exact = core::sinusoidal_value(c.y, static_cast<int>(c.x), 8, 1e4);
      CHECK(std::stod(c.value) == exact);  // shortest round-trip: the same double
      beyond_float += static_cast<double>(static_cast<float>(exact)) != exact;
    }
    CHECK(beyond_float > 40);  // a float column would fail the check above on these
  }
  SUBCASE("the rotation matrix: its real row and column indices, entries of core's matrix, a plain header") {
    core::Params p;
    p.set("d", 64.0);
    p.set("m", 2.0);
    p.set_text("layout", "half");
    const std::string csv = lesson_csv("rope", "rotation-matrix", p);
    CHECK(csv.substr(0, csv.find('\n')).find("−") == std::string::npos);  // was "−(row index)"
    CHECK(csv.substr(0, csv.find('\n')).find("row index") != std::string::npos);
    const Eigen::MatrixXd R = core::rope_rotation_matrix(64, 2, 1e4, core::PairLayout::half);
    const std::vector<CsvCell> cells = csv_cells(csv);
    REQUIRE(cells.size() == 256);  // the rows and columns of the first 8 pairs: 0…7 and 32…39
    for (const CsvCell& c : cells) {
      CHECK(((c.x >= 0 && c.x <= 7) || (c.x >= 32 && c.x <= 39)));
      CHECK(((c.y >= 0 && c.y <= 7) || (c.y >= 32 && c.y <= 39)));
      CHECK(std::stod(c.value) == R(static_cast<Eigen::Index>(c.y), static_cast<Eigen::Index>(c.x)));
    }
  }
  SUBCASE("why-position outputs: each block at its own dimension index j = 0…7") {
    const std::vector<CsvCell> cells = csv_cells(lesson_csv("why-position", "outputs", core::Params{}));
    REQUIRE(cells.size() == 3 * 6 * 8);
    for (const CsvCell& c : cells) CHECK((c.x >= 0 && c.x <= 7 && c.y >= 0 && c.y <= 5));
  }
  SUBCASE("ALiBi's bias blocks: at the positions they start at") {
    const std::vector<CsvCell> cells = csv_cells(lesson_csv("alibi", "bias", core::Params{}));
    REQUIRE_FALSE(cells.empty());
    const double slope = core::alibi_slopes(8)[0];  // the lesson's default: head 1 of 8
    for (const CsvCell& c : cells) {
      CHECK(c.x == std::floor(c.x));
      CHECK(c.x <= c.y);  // causal: the future keys are masked, left out
      CHECK(std::stod(c.value) == doctest::Approx(-slope * (c.y - c.x)).epsilon(1e-15));
    }
  }
  SUBCASE("relative index: a negated zero is written 0") {
    const std::string csv = lesson_csv("relative", "index", core::Params{});
    CHECK(csv.find(",-0\n") == std::string::npos);
    CHECK(csv.find(",0\n") != std::string::npos);
  }
}

namespace {

/// The first field of each CSV row after the header (quoted or not).
std::vector<std::string> csv_series_column(const std::string& csv) {
  std::vector<std::string> out;
  std::istringstream in(csv);
  std::string line;
  std::getline(in, line);  // the header
  while (std::getline(in, line)) {
    std::string field;
    if (!line.empty() && line[0] == '"') {
      for (std::size_t i = 1; i < line.size(); ++i) {
        if (line[i] == '"' && i + 1 < line.size() && line[i + 1] == '"') field += '"', ++i;
        else if (line[i] == '"') break;
        else field += line[i];
      }
    } else {
      field = line.substr(0, line.find(','));
    }
    out.push_back(field);
  }
  return out;
}

}  // namespace

TEST_CASE("CSV: every row of every figure of every lesson, at its defaults and at every step, names its series (no \"series N\")") {
  // A student opening an export in a spreadsheet reads in the first column
  // what each row is: a legend entry, the name a marker or a guide line has
  // for the CSV, never a number standing for "the 3rd thing drawn". Pure
  // decorations (an axis circle) are left out of the CSV.
  const app::Translator zh = app::Translator::load(app::assets_dir(), "zh");
  const std::regex numbered("series [0-9]+");
  int figures = 0, rows = 0;
  for (const app::ViewDef& v : app::view_defs()) {
    std::vector<std::pair<std::string, core::Params>> states{{"defaults", core::Params{}}};
    if (const app::Deck* steps = app::lesson_steps(v.id))
      for (std::size_t i = 0; i < steps->scenes.size(); ++i)
        for (bool revealed : {false, true}) {
          if (revealed && !steps->scenes[i].has_question()) continue;
          states.emplace_back("step " + std::to_string(i + 1) + (revealed ? " revealed" : ""),
                              steps->scenes[i].session(revealed).to_params());
        }
    for (const auto& state : states)
      for (const app::FigureDef& def : v.figures)
        for (const app::Translator* tr : {&test::english(), &zh}) {
          const std::string where = std::string(v.id) + "/" + std::string(def.id) + " at " + state.first + " (" + tr->lang() + ")";
          CAPTURE(where);
          fig::Figure f;
          try {
            f = app::build_figure(v, def, state.second, *tr, 900, 500);
          } catch (const core::InvalidParameter&) {
            continue;  // a figure the step's parameters do not apply to
          }
          ++figures;
          std::set<std::string> names;
          for (const std::string& name : csv_series_column(app::figure_csv(f))) {
            ++rows;
            if (!names.insert(name).second) continue;
            CAPTURE(name);
            CHECK(!name.empty());
            CHECK(!std::regex_match(name, numbered));
          }
        }
  }
  MESSAGE("figures: " << figures << ", CSV rows: " << rows);
  CHECK(figures > 200);
}
