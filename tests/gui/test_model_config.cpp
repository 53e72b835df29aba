// Opening a model's config.json in the GUI (issue 14): dropped on the window,
// through File → Open model config…, or `poslab gui --model` — the right
// lesson opens in the model's state, its warnings are there, its figures name
// it; a bad config changes nothing and says why.

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include <imgui.h>

#include "app/common/presets.hpp"
#include "app/plot/figure.hpp"
#include "app/ui/request.hpp"
#include "gui_test_support.hpp"

using namespace poslab;
namespace ui = poslab::app::ui;
namespace fs = std::filesystem;

namespace {

std::string fixture(const char* name) {
  return std::string(POSLAB_SOURCE_DIR) + "/tests/fixtures/configs/" + name + ".json";
}

void write(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary);
  out << text;
}

/// The subtitle of figure `id` of the open lesson as the window drew it.
std::string drawn_subtitle(test::BlindApp& b, std::string_view id) {
  const auto* e = b.app->figures().find(b.state().view().id, id);
  REQUIRE_MESSAGE(e, "figure " << id << " was not drawn");
  return e->figure.subtitle;
}

}  // namespace

TEST_CASE("a config.json dropped on the window opens its lesson, its state and its warnings") {
  test::BlindApp b;
  auto& st = b.state();
  REQUIRE(st.select_view("sinusoidal"));
  b.app->drop_files({fixture("phi-3-mini-128k"), "/ignored/second.json"});
  b.frames(3);
  CHECK(st.view().id == "scaling");
  REQUIRE(st.model());
  CHECK(st.model()->name == "phi3");
  CHECK(st.model()->source == fixture("phi-3-mini-128k"));
  REQUIRE(st.model()->warnings.size() == 2);
  CHECK(st.model()->warnings[1].id == "longrope");
  CHECK(st.params().choice("method") == "longrope");
  CHECK(st.params().integer("d") == 96);
  CHECK(st.params().list("long_factor").size() == 48);
  CHECK(b.app->toasts().last().find("phi3") != std::string::npos);
  // the lesson's readouts and figures: LongRoPE at the model's numbers, named after it
  REQUIRE(st.resolved());
  CHECK(drawn_subtitle(b, "ratio").rfind("phi3 · ", 0) == 0);
  // closing the model: the figures no longer carry its name, the params stay
  st.close_model();
  b.frames(2);
  CHECK_FALSE(st.model());
  CHECK(drawn_subtitle(b, "ratio").rfind("phi3", 0) == std::string::npos);
  CHECK(st.params().choice("method") == "longrope");
}

TEST_CASE("a dropped or picked file is told apart by its content: session, deck or model config") {
  test::BlindApp b;
  auto& st = b.state();
  // a session of the RoPE lesson at d = 8, saved by the app itself
  REQUIRE(st.select_view("rope"));
  REQUIRE(st.set_param_text("d", "8").empty());
  const fs::path session = b.dir / "mine.json";  // no telling extension: the content decides
  REQUIRE(b.app->save_session(session).empty());
  REQUIRE(st.select_view("sinusoidal"));
  b.app->drop_files({session.string()});
  b.frames(2);
  CHECK(st.view().id == "rope");
  CHECK(st.params().integer("d") == 8);
  CHECK_FALSE(st.model());
  CHECK(st.deck() == nullptr);
  // a deck: opened as a deck, not refused as a config with no position fields
  const fs::path deck = b.dir / "deck.json";
  write(deck, R"({"format": "poslab-deck", "version": 1, "title": "t",
                  "scenes": [{"lesson": "alibi", "params": {"heads": 8}}, {"lesson": "t5"}]})");
  REQUIRE(b.app->open_file(deck).empty());
  REQUIRE(st.deck() != nullptr);
  CHECK(st.deck()->scenes.size() == 2);
  // a model config
  REQUIRE(b.app->open_file(fixture("llama-3.1-8b")).empty());
  REQUIRE(st.model());
  CHECK(st.view().id == "scaling");
  // not JSON at all: the model reader's message, nothing changed
  const core::Params before = st.params();
  const fs::path junk = b.dir / "junk.txt";
  write(junk, "not json {");
  CHECK_FALSE(b.app->open_file(junk).empty());
  CHECK(b.app->toasts().last_kind() == ui::ToastKind::error);
  CHECK(st.params() == before);
}

TEST_CASE("File → Open model config: T5, GPT-NeoX with partial rotary, an unknown model, Chinese warnings") {
  test::BlindApp b;
  auto& st = b.state();
  CHECK(b.app->open_model_config(fixture("t5-base")).empty());
  b.frames(2);
  CHECK(st.view().id == "t5");
  CHECK(st.params().integer("buckets") == 32);
  CHECK(b.app->open_model_config(fixture("pythia-410m")).empty());
  b.frames(2);
  CHECK(st.view().id == "rope");
  CHECK(st.params().integer("d") == 16);
  CHECK(st.params().integer("head_dim") == 64);  // the rope lesson shows which 16 of 64 dims turn
  CHECK(drawn_subtitle(b, "partial-rotary").find("16 of 64 dims rotate") != std::string::npos);
  // a model poslab has no lesson for: the lesson and its parameters stay, the warning shows
  const fs::path odd = b.dir / "odd.json";
  write(odd, R"({"model_type": "mamba", "max_position_embeddings": 2048})");
  const core::Params before = st.params();
  CHECK(b.app->open_model_config(odd).empty());
  CHECK(st.view().id == "rope");
  CHECK(st.params() == before);
  REQUIRE(st.model());
  CHECK(st.model()->warnings.at(0).id == "unknown_model_type");
  // in Chinese
  CHECK(b.app->set_lang("zh").empty());
  CHECK(b.app->open_model_config(fixture("deepseek-v3")).empty());
  b.frames(2);
  CHECK(b.app->toasts().last().find("已打开 deepseek_v3") != std::string::npos);
}

TEST_CASE("a bad config changes nothing: not JSON, a factor of 0, a wrong list, a missing file") {
  test::BlindApp b;
  auto& st = b.state();
  REQUIRE(st.apply_preset("llama3.1-8b").empty());
  b.frames(2);
  const core::Params before = st.params();
  const std::string view(st.view().id);
  const fs::path bad = b.dir / "bad.json";
  const std::pair<const char*, const char*> cases[] = {
      {"{ not json", "config"},
      {R"({"model_type":"llama","rope_scaling":{"rope_type":"linear","factor":0}})", "rope_scaling.factor"},
      {R"({"model_type":"phi3","max_position_embeddings":8192,"original_max_position_embeddings":4096,)"
       R"("rope_scaling":{"rope_type":"longrope","short_factor":[1,2],"long_factor":[1,2]}})",
       "rope_scaling.short_factor"},
  };
  for (const auto& c : cases) {  // (clang 14: CAPTURE cannot take a structured binding)
    const char* text = c.first;
    const char* field = c.second;
    CAPTURE(text);
    write(bad, text);
    b.app->drop_files({bad.string()});
    b.frames(1);
    CHECK(st.params() == before);
    CHECK(st.view().id == view);
    CHECK(b.app->toasts().last_kind() == ui::ToastKind::error);
    CHECK(b.app->toasts().last().find(field) != std::string::npos);
    REQUIRE(st.model());
    CHECK(st.model()->name == "llama");  // the preset's model is still the one shown
  }
  CHECK_FALSE(b.app->open_model_config(b.dir / "missing.json").empty());
  CHECK(st.params() == before);
}

TEST_CASE("model presets carry their model; other presets and sessions do not") {
  ui::AppState st(app::load_presets(app::assets_dir()));
  REQUIRE(st.apply_preset("deepseek-v3").empty());
  REQUIRE(st.model());
  CHECK(st.model()->name == "deepseek_v3");
  CHECK(st.model()->source.find("config.json") != std::string::npos);
  CHECK(st.view().id == "scaling");
  REQUIRE(st.apply_preset("notes-yarn-example").empty());
  CHECK_FALSE(st.model());
  REQUIRE(st.apply_preset("gpt-oss-20b").empty());
  REQUIRE(st.model());
  app::Session s = st.session();
  s.preset.clear();
  REQUIRE(st.apply_session(s).empty());
  CHECK_FALSE(st.model());
}

TEST_CASE("gui/screenshot --model: applied after the preset, before --set; a missing file is an I/O failure") {
  ui::AppState st(app::load_presets(app::assets_dir()));
  app::WindowRequest r;
  r.model = fixture("gpt-oss-20b");
  r.sets = {"factor=16"};
  CHECK(ui::apply_window_request(st, r).empty());
  CHECK(st.view().id == "scaling");
  CHECK(st.params().boolean("truncate") == false);
  CHECK(st.params().real("factor") == 16);  // an explicit --set wins
  REQUIRE(st.model());
  ui::AppState other(app::load_presets(app::assets_dir()));
  bool io = false;
  const std::string why = ui::apply_window_request(other, {.model = "/nonexistent/config.json"}, &io);
  CHECK(why.find("/nonexistent/config.json") != std::string::npos);
  CHECK(io);
  io = false;
  const fs::path bad = fs::temp_directory_path() / ("poslab-bad-model-" + std::to_string(::getpid()) + ".json");
  write(bad, "[]");
  CHECK(ui::apply_window_request(other, {.model = bad.string()}, &io).find("config") != std::string::npos);
  CHECK_FALSE(io);
  fs::remove(bad);

  // the real window, when there is a display: exit 0 and a PNG
  if (std::getenv("DISPLAY") && *std::getenv("DISPLAY")) {
    const fs::path png = fs::temp_directory_path() / ("poslab-model-shot-" + std::to_string(::getpid()) + ".png");
    const test::Run shot = test::run_poslab("screenshot --model " + fixture("phi-3-mini-128k") + " --size 800x600 --out " +
                                            png.string());
    CHECK_MESSAGE(shot.code == 0, "exit " << shot.code << ", stderr:\n" << shot.err);
    CHECK(fs::file_size(png) > 1000);
    fs::remove(png);
  }
}

TEST_CASE("opening a 2025–26 config shows its layers: the stack figure in the banner, beside the lesson") {
  test::BlindApp b;
  auto& st = b.state();
  REQUIRE(st.select_view("sinusoidal"));
  // Llama 4 Scout: nested text_config, NoPE every 4th layer
  b.app->drop_files({fixture("llama-4-scout")});
  b.frames(3);
  REQUIRE(st.model());
  CHECK(st.view().id == "scaling");
  REQUIRE(st.model()->reading);
  CHECK(st.model()->reading->config_part == "text_config");
  const app::fig::Figure* f = b.app->lesson_view().model_layers_figure();
  REQUIRE(f);
  CHECK(f->id == "layers");
  CHECK(f->series.size() == 2);  // 36 RoPE layers in chunks, 12 NoPE layers
  CHECK(f->series[0].x.size() == 36);
  CHECK(f->series[1].x.size() == 12);
  CHECK(f->series[1].name.find("12 layers") != std::string::npos);
  CHECK(b.app->lesson_view().model_layers_frame() == ImGui::GetFrameCount());  // drawn this frame
  // the warnings name the layers
  bool named = false;
  for (const auto& w : st.model()->warnings) named = named || (w.id == "nope_layers" && w.text.find("3, 7, …, 47") != std::string::npos);
  CHECK(named);
  // another model: the figure follows it; in Chinese, its labels too
  CHECK(b.app->open_model_config(fixture("gemma-3-4b")).empty());
  b.frames(2);
  f = b.app->lesson_view().model_layers_figure();
  REQUIRE(f);
  CHECK(f->series.size() == 2);
  CHECK(f->subtitle.rfind("gemma3", 0) == 0);
  CHECK(b.app->set_lang("zh").empty());
  b.frames(2);
  f = b.app->lesson_view().model_layers_figure();
  REQUIRE(f);
  CHECK(f->title == "这个模型的各层");
  // Jamba: no lesson shows it; the banner (and its layers) shows on the lesson that is open
  CHECK(b.app->open_model_config(fixture("jamba-v0.1")).empty());
  b.frames(2);
  f = b.app->lesson_view().model_layers_figure();
  REQUIRE(f);
  CHECK(f->series.size() == 2);  // 28 Mamba layers, 4 attention layers without position
  CHECK(b.app->lesson_view().model_layers_frame() == ImGui::GetFrameCount());
}

TEST_CASE("the 2025–26 presets open with their layers") {
  ui::AppState st(app::load_presets(app::assets_dir()));
  for (const char* id : {"llama4-scout", "gemma3-4b", "qwen2.5-vl-7b", "smollm3-3b", "qwen3-8b", "ministral3-8b", "command-r7b"}) {
    CAPTURE(id);
    REQUIRE(st.apply_preset(id).empty());
    REQUIRE(st.model());
    REQUIRE(st.model()->reading);
    CHECK(st.model()->reading->num_layers.has_value());
    CHECK_FALSE(st.model()->reading->layers.empty());
  }
}

TEST_CASE("a model opens its lesson at its own context and layout (the #27 audit)") {
  ui::AppState st(app::load_presets(app::assets_dir()));
  // the RoPE lesson's trained context L is the model's, not the default 4,096
  for (const auto& model : std::vector<std::pair<const char*, long long>>{
           {"qwen2.5-vl-7b", 128000}, {"command-r7b", 8192}, {"smollm3-3b", 65536}}) {
    const char* id = model.first;  // not a structured binding: CAPTURE's lambda captures it (clang 14)
    const long long L = model.second;
    CAPTURE(id);
    REQUIRE(st.apply_preset(id).empty());
    CHECK(st.view().id == "rope");
    CHECK(st.params().integer("original_context") == L);
  }
  CHECK(st.params().choice("layout") == "half");  // SmolLM3 rotates halves, as transformers does
  REQUIRE(st.apply_preset("command-r7b").empty());
  CHECK(st.params().choice("layout") == "interleaved");
  // Gemma 3: 131,072 is its extended context; the scaling lesson opens at L = 32,768, s = 8
  REQUIRE(st.apply_preset("gemma3-4b").empty());
  CHECK(st.view().id == "scaling");
  CHECK(st.params().integer("original_context") == 32768);
  CHECK(st.params().real("factor") == 8);
}
