// [SECTION] Index
// - Construction: texts, presets, settings, autosave
// - Frames
// - Actions (menus, shortcuts, tests)
// - Sessions and state strings
// - Exports and screenshots

#include "app/ui/app.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <limits>
#include <utility>

#include <nlohmann/json.hpp>

#include "app/common/assets.hpp"
#include "app/model/model_config.hpp"
#include "app/common/atomic_file.hpp"
#include "app/common/config_folder.hpp"
#include "app/common/fonts.hpp"
#include "app/common/json_input.hpp"
#include "app/common/link.hpp"
#include "app/common/messages.hpp"
#include "app/common/presets.hpp"
#include "app/lessons/lab/setting.hpp"  // the lab keeps its trained models in the config folder
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui_internal.h>

#include "app/ui/animation_panel.hpp"
#include "app/ui/request.hpp"
#include "app/ui/slider_math.hpp"
#include "app/ui/style.hpp"

namespace poslab::app::ui {

namespace fs = std::filesystem;

namespace {
constexpr float kScaleStep = 0.25f;
constexpr int kEmbedWidth = 800, kEmbedHeight = 500;  ///< the <iframe>'s size in a copied embed code
}

// [SECTION] Construction

App::App(Platform& platform, AppOptions options) : platform_(platform), options_(std::move(options)) {
  IMGUI_CHECKVERSION();
  imgui_ = ImGui::CreateContext();
  ImGui::SetCurrentContext(imgui_);
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // the layout lives in settings.json
  io.LogFilename = nullptr;
  io.ConfigInputTextCursorBlink = false;  // a blinking cursor would keep the window awake
  io.ConfigWindowsMoveFromTitleBarOnly = true;

  tr_ = Translator::load(options_.assets, options_.lang);
  state_ = AppState(load_presets(options_.assets));
  state_.set_translator(&tr_);  // refusals in the user's language (tr_ stays at this address)
  if (options_.persist) open_config_folder();
  ui_scale_ = std::clamp(settings_.ui_scale, kMinUiScale, kMaxUiScale);
  state_.set_theme(settings_.theme);
  if (!settings_.lesson.empty()) state_.select_view(settings_.lesson);
  export_choice_.dir = settings_.export_dir.empty() ? default_export_dir() : fs::path(settings_.export_dir);
  try {
    export_choice_.options.font_family = export_font_families(options_.lang);
  } catch (const std::exception&) {
    // cairo falls back to its default face
  }
  if (options_.persist && !options_.config_dir.empty() && options_.restore_autosave) restore_autosave();
  else if (!options_.restore_autosave) state_.open_lesson(0);  // --fresh: the first lesson at its first step
  figures_.set_background(options_.background_figures);
  wall_ = wall_clock();
}

double App::wall_clock() const {
  if (options_.clock) return options_.clock();
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void App::open_config_folder() {
  if (options_.config_dir.empty()) {
    const ConfigLocation where = find_config_dir();
    if (where.dir.empty()) {
      toasts_.push(tr_.format("ui.config.no_folder", {{"message", where.why_none}}), ToastKind::error);
      return;
    }
    options_.config_dir = where.dir;
  }
  // One writer per folder: the lock is held until this App goes.
  config_lock_ = ConfigLock(options_.config_dir);
  if (config_lock_.busy())
    toasts_.push(tr_.format("ui.config.busy", {{"dir", options_.config_dir.string()}}), ToastKind::error);
  else if (!config_lock_.held())
    toasts_.push(tr_.format("ui.config.unwritable", {{"message", config_lock_.error()}}), ToastKind::error);
  // Holding the lock, no other poslab writes here: a temporary file left is a
  // killed writer's, never anyone's work in progress.
  if (config_lock_.held()) remove_stale_temporaries(options_.config_dir);
  // The lab's finished models, kept so that a rehearsed lecture shows them at
  // once (app/lessons/lab/setting.hpp). In the browser the folder is in
  // memory: web/page.js fills it from the page's IndexedDB before main and
  // stores there each model kept (lab_lesson::keep).
#ifdef __EMSCRIPTEN__
  if (!options_.config_dir.empty()) lab_lesson::set_model_folder(options_.config_dir / "lab-models");
#else
  if (config_lock_.held()) {
    lab_lesson::set_model_folder(options_.config_dir / "lab-models");
    remove_stale_temporaries(options_.config_dir / "lab-models");  // a writer killed there, as above
  }
#endif

  std::string warning;
  settings_ = load_settings(options_.config_dir / "settings.json", &warning);
  if (warning.empty()) return;
  if (const fs::path kept = keep_unreadable(options_.config_dir / "settings.json"); !kept.empty())
    toasts_.push(tr_.format("ui.settings.kept", {{"message", warning}, {"path", kept.string()}}), ToastKind::error);
  else
    toasts_.push(tr_.format("ui.settings.broken", {{"message", warning}}), ToastKind::error);
}

void App::restore_autosave() {
  const fs::path autosave = options_.config_dir / "autosave.json";
  std::error_code ec;
  if (!fs::exists(autosave, ec) && !fs::is_symlink(autosave, ec)) {
    state_.open_lesson(state_.view_index());  // a first start: the first lesson at its first guided step
    return;
  }
  std::string why;
  try {
    why = state_.apply_session(load_session_file(autosave));
  } catch (const std::exception& e) {
    why = error_text(tr_, e);
  }
  if (why.empty()) return;
  // Not restored (unreadable, from a newer poslab, naming what this one lacks):
  // kept aside, so leaving this run does not overwrite it.
  if (const fs::path kept = keep_unreadable(autosave); !kept.empty())
    toasts_.push(tr_.format("ui.session.autosave_kept", {{"message", why}, {"path", kept.string()}}), ToastKind::error);
  else
    toasts_.push(tr_.format("ui.session.autosave_skipped", {{"message", why}}), ToastKind::error);
}

fs::path App::keep_unreadable(const fs::path& file) {
  if (!config_lock_.held()) return {};  // only the folder's one writer moves files
  try {
    return keep_aside(file);
  } catch (const std::exception& e) {
    toasts_.push(error_text(tr_, e), ToastKind::error);
    return {};
  }
}

App::~App() {
  if (!options_.config_dir.empty() && lab_lesson::model_folder() == options_.config_dir / "lab-models")
    lab_lesson::set_model_folder({});  // the folder is this window's: another App may hold another
  ImGui::DestroyContext(imgui_);
}

std::string App::apply_request(const WindowRequest& request) {
  std::string why = apply_window_request(state_, request);
  if (why.empty() && !request.deck.empty() && state_.deck())
    remember_recent(settings_.recent_decks, state_.deck_source());
  if (why.empty() && request.lecture) set_lecture(true);
  if (why.empty() && request.presenter) {
    if (!lecture_) set_lecture(true);
    set_presenter_view(true);
  }
  return why;
}

float App::content_scale() const {
  const float s = platform_.content_scale();
  return std::isfinite(s) && s > 0.5f ? std::min(s, 4.0f) : 1.0f;
}

UiContext App::context() {
  UiContext ctx{state_, tr_, settings_, figures_, toasts_, export_choice_, fonts_};
  ctx.plot = {&fonts_, &platform_.heatmaps(), &tr_, fig::Theme::by_name(state_.theme()), style_key_};
  ctx.pal = palette(state_.theme());
  ctx.scale = ui_scale() * content_scale();
  ctx.plot.hover = !pointer_idle();
  // Figures built elsewhere land between frames: their layouts are paced
  // (plot_widget.hpp). Without a worker every figure is the state's at once.
  if (figures_.background() || figures_.remote()) ctx.plot.pacing = &layout_pacing_;
  // Lecture mode: no figure text under 3.5 % of the screen's height (issue 29).
  if (lecture_) ctx.plot.min_text = std::ceil(kLectureMinTextShare * ImGui::GetIO().DisplaySize.y);
  ctx.lecture = lecture_;
  ctx.embed = embed_.has_value();
  ctx.laid_out = &laid_out_;
  ctx.now = now_;
  return ctx;
}

int App::warm_plot(const fig::Figure& figure) {
  ImGui::SetCurrentContext(imgui_);
  if (!ImGui::GetIO().Fonts->IsBuilt()) return 0;
  return PlotWidget::warm(figure, {640, 400}, context().plot);
}

// [SECTION] Frames

float App::ui_scale() const {
  if (!lecture_) return ui_scale_;
  return std::clamp(std::round(lecture_base_ * lecture_zoom_ * 20.0f) / 20.0f, kMinUiScale, kMaxLectureScale);
}

void App::before_frame() {
  ImGui::SetCurrentContext(imgui_);
  watch_glyphs();
  // Lecture text follows the screen's height (the last frame's display size;
  // a display that changes re-bakes the fonts once).
  if (const float h = ImGui::GetIO().DisplaySize.y; h > 0) lecture_base_ = h / kLectureHeightPerScale / content_scale();
  const float scale = ui_scale(), cs = content_scale();
  if (fonts_dirty_ || scale != applied_scale_ || cs != applied_content_scale_) {
    std::string warning;
    fonts_ = atlas_builder_.build(*ImGui::GetIO().Fonts, options_.assets, tr_.lang(), kBaseFontPixels * scale * cs,
                                  &warning);
    ImGui::GetIO().FontDefault = fonts_.regular;
    bind_ui_fonts(&fonts_);
    platform_.fonts_rebuilt();
    if (!warning.empty()) toasts_.push(warning, ToastKind::error);
    applied_scale_ = scale, applied_content_scale_ = cs;
    fonts_dirty_ = false;
    applied_theme_.clear();  // sizes follow the scale
  }
  if (applied_theme_ != state_.theme()) {
    apply_style(state_.theme(), scale * cs);
    applied_theme_ = state_.theme();
    ++style_key_;
  }
}

void App::draw(double dt) {
  ImGui::SetCurrentContext(imgui_);
  now_ += std::max(0.0, dt);
  wall_ = std::max(wall_, wall_clock());
  ++frames_;
  platform_.heatmaps().begin_frame();
  figures_.begin_frame();
  layout_pacing_.begin_frame();

  if (embed_) keys_.take();  // an embedded figure takes no shortcuts (a 2 would switch lessons in a course page)
  else handle_keys();
  if (!dropped_.empty()) {
    const std::string path = dropped_.front();
    dropped_.clear();
    (void)open_file(path);  // says itself what happened
  }
  {  // the pointer moved, clicked or scrolled: it shows again (lecture mode hides it when idle)
    const ImGuiIO& io = ImGui::GetIO();
    if (io.MouseDelta.x != 0 || io.MouseDelta.y != 0 || io.MouseWheel != 0 || ImGui::IsAnyMouseDown())
      lecture_ui_.pointer_moved = wall_;
  }
  // One modal at a time, opened before anything is drawn (modal_queue.hpp).
  modals_.next_frame(modal_showing());
  laid_out_.clear();
  narrow_ = false;
  UiContext ctx = context();
  state_.tick_animation(dt);
  export_ui_.tick(ctx, recorder_);
  grid_previews_.begin_frame();

  if (embed_) draw_embed(ctx);
  else if (lecture_) draw_lecture(ctx);
  else draw_shell(ctx);
  export_ui_.draw(ctx, recorder_);
  deck_ui_.draw(ctx, *this);
  notation_.draw(options_.assets, tr_, ctx.scale);
  if (lecture_ && lecture_ui_.grid) draw_scene_grid(ctx);
  if (lecture_) draw_presenter_tools(ctx);
  if (lecture_) draw_typed(ctx);
  if (lecture_ && lecture_ui_.blank != Blank::none) draw_blank(ctx);
  // In a lecture the toasts stay small: they are for the presenter.
  toasts_.draw(wall_, ctx.scale, lecture_ ? 0.55f : 1.0f);
  // The modals last: a window that appears in the frame a modal opens must
  // be begun before it (Dear ImGui 1.86 asserts otherwise).
  session_ui_.draw(ctx, [this](SessionUi::Prompt p, const std::string& text) -> std::string {
    switch (p) {
      case SessionUi::Prompt::open: return open_session(text);
      case SessionUi::Prompt::save: return save_session(text);
      case SessionUi::Prompt::model: return open_model_config(text);
      case SessionUi::Prompt::open_deck: return open_deck(text);
      case SessionUi::Prompt::save_deck: return save_deck(text);
      default: return paste_state(text.c_str());
    }
  });
  draw_shortcut_overlay(&help_open_, tr_, ctx.scale, lecture_);

  if (pointer_idle()) ImGui::SetMouseCursor(ImGuiMouseCursor_None);
  // The presenter's tools move with the pointer: its events wake the window, no redraw needed.
  redraw_ = ctx.redraw || state_.animation().playing() || recorder_.active();
  settings_.lesson = std::string(state_.view().id);
  settings_.theme = lecture_ ? before_lecture_.theme : state_.theme();
  settings_.ui_scale = ui_scale_;
  settings_.export_dir = export_choice_.dir.string();
  update_title();
}

void App::blind_frame(double dt, ImVec2 display) {
  before_frame();
  ImGuiIO& io = ImGui::GetIO();
  io.BackendFlags |= ImGuiBackendFlags_RendererHasVtxOffset;  // as the OpenGL3 backend: > 64k vertices per list
  io.DisplaySize = display;
  io.DeltaTime = static_cast<float>(dt > 0 ? dt : 1.0 / 60);
  ImGui::NewFrame();
  draw(dt);
  ImGui::Render();
}

bool App::wants_redraw() const {
  return redraw_ || fonts_dirty_ || figures_.updating() > 0 || layout_pacing_.deferred > 0 || seconds_until_wake() <= 0;
}

double App::seconds_until_wake() const {
  const double now = std::max(wall_, wall_clock());
  double wake = toasts_.seconds_to_next_change(now);
  // Lecture mode: wake when the pointer is to hide, and each second for the presenter's clock.
  if (lecture_ && !pointer_idle()) wake = std::min(wake, std::max(0.0, lecture_ui_.pointer_moved + kPointerIdleSeconds - now));
  if (lecture_ && lecture_ui_.presenter_view) wake = std::min(wake, 1.0 - std::fmod(now, 1.0));
  return wake;
}

bool App::pointer_idle() const {
  return lecture_ && !presenter_.active() && wall_ - lecture_ui_.pointer_moved >= kPointerIdleSeconds;
}

void App::update_title() {
  const std::string t = tr_.format("ui.window.title", {{"lesson", lesson_title(tr_, state_.view().id)}});
  if (t != title_) {
    title_ = t;
    platform_.set_title(t);
  }
}

// [SECTION] Glyphs users bring

void App::watch_glyphs() {
  bool more = false;
  auto ask = [&](std::string_view text) {
    if (!text.empty() && atlas_builder_.ask(text)) more = true;
  };
  auto ask_both = [&](const LocalText& t) {
    ask(t.en);
    ask(t.zh);
  };
  // A deck's texts: the lecturer's own words, in any language and script.
  if (state_.deck_revision() != glyphs_deck_) {
    glyphs_deck_ = state_.deck_revision();
    if (const Deck* d = state_.deck()) {
      ask_both(d->title);
      for (const Scene& sc : d->scenes) {
        ask_both(sc.caption);
        ask_both(sc.question);
        ask_both(sc.answer);
        ask_both(sc.notes);
      }
    }
    ask(state_.deck_source());
  }
  // A model's name and where it came from; the messages shown (file names,
  // what a file said); the recent files; the export folder.
  if (const auto& m = state_.model()) {
    ask(m->name);
    ask(m->source);
    ask(m->source_zh);
  }
  const auto& said = toasts_.history();
  const std::uint64_t fresh = std::min<std::uint64_t>(toasts_.pushed() - glyphs_toasts_, said.size());
  for (std::size_t i = said.size() - static_cast<std::size_t>(fresh); i < said.size(); ++i) ask(said[i]);
  glyphs_toasts_ = toasts_.pushed();
  for (const auto* files : {&settings_.recent_sessions, &settings_.recent_decks})
    for (const std::string& f : *files) ask(f);
  ask(export_choice_.dir.string());
  // Typed this frame (an input method's characters too) and pasted.
  const ImGuiIO& io = ImGui::GetIO();
  for (int i = 0; i < io.InputQueueCharacters.Size; ++i) {
    char utf8[8] = {};
    ImTextCharToUtf8(utf8, io.InputQueueCharacters[i]);
    ask(utf8);
  }
  if (keys_.has_press(GLFW_KEY_V, kModControl) || (io.KeyCtrl && io.KeysDown[GLFW_KEY_V]))
    if (const char* clip = ImGui::GetClipboardText()) ask(std::string_view(clip).substr(0, 1 << 16));
  if (more) fonts_dirty_ = true;
}

// [SECTION] Keys

void App::key_event(int key, int action, int mods) { keys_.push({key, action, mods}); }

void App::handle_keys() {
  const ImGuiIO& io = ImGui::GetIO();
  // A text field has the keyboard, or a widget is being dragged: plain keys are its.
  const bool typing = io.WantTextInput || ImGui::IsAnyItemActive();
  auto act = [&](const Pressed& p) {
    if (p.action == Action::escape) escape(typing);
    else run(p.action, p.arg);
  };
  // The presenter view's buttons, clicked in its own frame.
  for (const Pressed& p : std::exchange(queued_, {})) act(p);
  // A blanked screen: any key brings the figure back, and does nothing else.
  auto unblank = [&] {
    if (!lecture_ || lecture_ui_.blank == Blank::none) return false;
    lecture_ui_.blank = Blank::none;
    redraw_ = true;
    return true;
  };
  auto modifier = [](int key) { return key >= GLFW_KEY_LEFT_SHIFT && key <= GLFW_KEY_RIGHT_SUPER; };
  if (platform_.queues_keys()) {
    // One event at a time, in order: a tap of L lights the laser and puts it out.
    for (const KeyEvent& e : keys_.take()) {
      if (e.key == GLFW_KEY_L && e.action == kKeyRelease) presenter_.laser = false;
      if (e.action == kKeyPress && !modifier(e.key) && unblank()) continue;
      for (const Pressed& p : shortcuts_for(std::span(&e, 1), typing, lecture_)) act(p);
    }
  } else {
    keys_.take();  // a platform that does not queue: ImGui's key state
    bool any = false;
    for (int k = 0; k < IM_ARRAYSIZE(ImGui::GetIO().KeysDown); ++k) any = any || (!modifier(k) && ImGui::IsKeyPressed(k, false));
    if (!(any && unblank()))
      for (const Pressed& p : pressed_shortcuts(lecture_)) act(p);
    if (presenter_.laser && !ImGui::IsKeyDown(GLFW_KEY_L)) presenter_.laser = false;
  }
  if (help_typed()) act({Action::help, 0});
}

void App::show_prompt(SessionUi::Prompt prompt, const fs::path& suggested, const fs::path& folder,
                      std::vector<std::string> recent) {
  using P = SessionUi::Prompt;
  const Modal modal = prompt == P::open        ? Modal::open_session
                      : prompt == P::save      ? Modal::save_session
                      : prompt == P::model     ? Modal::open_model
                      : prompt == P::open_deck ? Modal::open_deck
                      : prompt == P::save_deck ? Modal::save_deck
                                               : Modal::paste_state;
  modals_.request(modal, [this, prompt, suggested, folder, recent = std::move(recent)]() mutable {
    session_ui_.show(prompt, suggested, folder, std::move(recent));
  });
}

bool App::modal_showing() const { return help_open_ || session_ui_.showing() != SessionUi::Prompt::none; }

bool App::close_front_window() {
  struct Floating {
    const char* name;
    bool open;
    std::function<void()> close;
  };
  const Floating floating[] = {
      {"###export", export_ui_.open, [this] { export_ui_.open = false; }},
      {"###deck", deck_ui_.open, [this] { deck_ui_.open = false; }},
      {"###notation", notation_.is_open(), [this] { notation_.close(); }},
  };
  const Floating* front = nullptr;
  int front_index = -1;
  for (const Floating& f : floating) {
    if (!f.open) continue;
    ImGuiWindow* w = ImGui::FindWindowByName(f.name);
    const int index = w ? ImGui::FindWindowDisplayIndex(w) : 1 << 20;  // opened this frame: on top
    if (index > front_index) front_index = index, front = &f;
  }
  if (!front) return false;
  front->close();
  return true;
}

void App::escape(bool typing) {
  redraw_ = true;
  if (help_open_ || session_ui_.showing() != SessionUi::Prompt::none) {
    // Esc dismisses the modal on screen and those that waited behind it.
    help_open_ = false;
    session_ui_.close();
    modals_.clear();
    return;
  }
  if (typing) return;  // the field lets go of the keyboard; a second Esc goes on
  if (lecture_ && !lecture_ui_.typed.empty()) {  // "5" typed by mistake: forgotten, nothing else
    lecture_ui_.typed.clear();
    return;
  }
  if (lecture_ && lecture_ui_.grid) {
    lecture_ui_.grid = false;
    return;
  }
  if (close_front_window()) return;
  if (lecture_ && presenter_.active()) {
    presenter_.clear();
    return;
  }
  if (lecture_) set_lecture(false);
}

// [SECTION] Actions

void App::run(Action action, int arg) {
  auto refused = [this](const std::string& why) {
    if (!why.empty()) toasts_.push(why, ToastKind::error);
  };
  if (run_lecture(action, arg)) {
    redraw_ = true;
    return;
  }
  UiContext ctx = context();
  switch (action) {
    case Action::open_session:
      if (platform_.pick_file()) break;
      show_prompt(SessionUi::Prompt::open, suggested_session_path(ctx), export_choice_.dir, settings_.recent_sessions);
      break;
    case Action::save_session:
      show_prompt(SessionUi::Prompt::save, suggested_session_path(ctx), export_choice_.dir, settings_.recent_sessions);
      break;
    case Action::copy_state: copy_state(); break;
    case Action::copy_link: copy_link(); break;
    case Action::copy_embed: copy_embed_code(); break;
    case Action::paste_state: {
      const char* clip = ImGui::GetClipboardText();
      if (clip && *clip) paste_state(clip);
      else show_prompt(SessionUi::Prompt::paste, {});
      break;
    }
    case Action::export_dialog: export_ui_.open = !export_ui_.open; break;
    case Action::deck_panel: deck_ui_.open = !deck_ui_.open; break;
    case Action::screenshot: screenshot(); break;
    case Action::lecture: set_lecture(!lecture_); break;
    case Action::escape: escape(); break;
    case Action::fullscreen: platform_.set_fullscreen(!platform_.fullscreen()); break;
    case Action::scale_up: set_ui_scale(ui_scale() + kScaleStep); break;
    case Action::scale_down: set_ui_scale(ui_scale() - kScaleStep); break;
    case Action::scale_reset:
      if (lecture_) lecture_zoom_ = 1.0f;
      else set_ui_scale(1.0f);
      break;
    case Action::space:
      // A clicker's key: on slides Space goes on, as → does.
      if (lecture_) refused(state_.next_step());
      else run(Action::play);
      break;
    case Action::play: {
      Animation& a = state_.animation();
      if (!a.active())
        for (std::string_view key : state_.view().keys)
          if (const core::ParamSpec* s = core::find_param(key); s && is_numeric(*s)) {
            a.choose(key, state_.params());
            break;
          }
      a.toggle();
      break;
    }
    case Action::step_back: step_animation(ctx, -1); break;
    case Action::step_forward: step_animation(ctx, +1); break;
    case Action::prev_lesson:
      if (state_.view_index() > 0) state_.open_lesson(state_.view_index() - 1);
      break;
    case Action::next_lesson:
      if (state_.view_index() + 1 < static_cast<int>(state_.views().size())) state_.open_lesson(state_.view_index() + 1);
      break;
    case Action::prev_step: refused(state_.prev_step()); break;
    case Action::next_step: refused(state_.next_step()); break;
    case Action::reset_step:
      // The scene as prepared: its values, and every figure's zoom undone.
      if (state_.step() >= 0) refused(state_.go_to_step(state_.step()));
      else state_.reset_view();
      figures_.reset_views();
      break;
    case Action::first_step:
      if (state_.steps()) refused(state_.go_to_step(0));
      break;
    case Action::last_step:
      if (const Deck* d = state_.steps()) refused(state_.go_to_step(static_cast<int>(d->scenes.size()) - 1));
      break;
    case Action::prev_figure: state_.cycle_figure(-1); break;
    case Action::next_figure: state_.cycle_figure(+1); break;
    case Action::toggle_sliders:
      if (lecture_) lecture_sliders_ = !lecture_sliders_;
      break;
    case Action::laser:
      if (lecture_) presenter_.laser = true;
      break;
    case Action::spotlight:
      if (lecture_) presenter_.spotlight = !presenter_.spotlight;
      break;
    case Action::pen:
      if (lecture_) presenter_.pen = !presenter_.pen;
      break;
    case Action::clear_pen: presenter_.strokes.clear(); break;
    case Action::lesson_n:
      if (arg >= 0 && arg < static_cast<int>(state_.views().size())) state_.open_lesson(arg);
      break;
    case Action::help: modals_.request(Modal::shortcuts, [this] { help_open_ = true; }); break;
    case Action::notation: notation_.open(); break;
    case Action::quit: platform_.request_close(); break;
    default: break;  // lecture mode's own (run_lecture), outside lecture mode: nothing
  }
  redraw_ = true;
}

void App::set_theme(std::string_view theme) { state_.set_theme(theme); }

std::string App::set_lang(std::string_view lang) {
  if (lang == tr_.lang()) {
    settings_.lang = tr_.lang();  // chosen, so remembered (even when the locale already gave it)
    return {};
  }
  try {
    tr_ = Translator::load(options_.assets, lang);
  } catch (const std::exception& e) {
    const std::string why = error_text(tr_, e);
    toasts_.push(why, ToastKind::error);
    return why;
  }
  settings_.lang = tr_.lang();  // the user's choice outlives this run; --lang and the locale do not write it
  try {
    export_choice_.options.font_family = export_font_families(std::string(lang));
  } catch (const std::exception& e) {
    toasts_.push(error_text(tr_, e), ToastKind::error);
  }
  fonts_dirty_ = true;
  params_panel_.clear_messages();  // refusals were worded in the old language
  state_.touch();  // figures carry translated texts
  return {};
}

void App::set_ui_scale(float scale) {
  if (!std::isfinite(scale)) return;
  if (lecture_) {
    // In a lecture the scale is the screen's times a zoom (Ctrl+= / Ctrl+-).
    scale = std::clamp(std::round(scale * 20.0f) / 20.0f, kMinUiScale, kMaxLectureScale);
    lecture_zoom_ = std::clamp(scale / std::max(0.1f, lecture_base_), 0.5f, 2.0f);
    return;
  }
  ui_scale_ = std::clamp(std::round(scale * 20.0f) / 20.0f, kMinUiScale, kMaxUiScale);
}

void App::set_lecture(bool on) {
  if (on == lecture_) return;
  if (on) {
    before_lecture_ = {state_.theme(), platform_.fullscreen()};
    lecture_ = true;
    lecture_zoom_ = 1.0f;
    lecture_sliders_ = false;
    presenter_ = {};
    lecture_ui_.restart(wall_);
    state_.set_theme("projector");
    platform_.set_fullscreen(true);
    if (lecture_ui_.presenter_view) {  // back from Esc: the presenter view comes back too
      lecture_ui_.presenter_view = false;
      set_presenter_view(true);
    }
  } else {
    const bool presenter = lecture_ui_.presenter_view;
    if (presenter) set_presenter_view(false);
    lecture_ = false;
    presenter_ = {};
    lecture_ui_.restart(wall_);
    lecture_ui_.presenter_view = presenter;  // remembered for the next F5
    state_.set_theme(before_lecture_.theme);
    if (!before_lecture_.fullscreen) platform_.set_fullscreen(false);
  }
}

void App::reset_layout() {
  settings_.left_width = settings_.right_width = 0;
  ui_scale_ = 1.0f;
  if (platform_.fullscreen() && !lecture_) platform_.set_fullscreen(false);
}

std::string App::apply_preset(std::string_view id) {
  const std::string why = state_.apply_preset(id);
  if (!why.empty()) toasts_.push(tr_.format("ui.preset.failed", {{"message", why}}), ToastKind::error);
  return why;
}

std::string App::type_param(std::string_view key, std::string_view text) {
  UiContext ctx = context();
  return params_panel_.type_value(ctx, key, text);
}

// [SECTION] Sessions and state strings

std::string App::save_session(const fs::path& path) {
  try {
    Session s = state_.session();
    if (lecture_) s.theme = before_lecture_.theme;
    std::error_code ec;
    if (!path.parent_path().empty()) fs::create_directories(path.parent_path(), ec);
    save_session_file(path, s);
    remember_recent(settings_.recent_sessions, fs::absolute(path, ec).string());
    toasts_.push(tr_.format("ui.session.saved", {{"path", short_file_name(path, true)}}), ToastKind::success);
    return {};
  } catch (const std::exception& e) {
    const std::string msg =
        tr_.format("ui.session.save_failed", {{"message", without_full_path(error_text(tr_, e), path)}});
    toasts_.push(msg, ToastKind::error);
    return msg;
  }
}

std::string App::open_session(const fs::path& path) {
  std::string why;
  try {
    Session s = load_session_file(path);
    // During a lecture the screen keeps the lecture's theme; the session's
    // theme is the one the lecture returns to — what save_session writes then.
    std::string theme_after_lecture;
    if (lecture_) std::swap(theme_after_lecture, s.theme);
    why = state_.apply_session(s);
    if (why.empty() && !theme_after_lecture.empty()) before_lecture_.theme = theme_after_lecture;
  } catch (const std::exception& e) {
    why = error_text(tr_, e);
  }
  if (!why.empty()) {
    const std::string msg = tr_.format("ui.session.open_failed", {{"message", without_full_path(why, path)}});
    toasts_.push(msg, ToastKind::error);
    return msg;
  }
  std::error_code ec;
  remember_recent(settings_.recent_sessions, fs::absolute(path, ec).string());
  toasts_.push(tr_.format("ui.session.opened", {{"path", short_file_name(path, true)}}), ToastKind::success);
  return {};
}

std::string App::open_model_config(const fs::path& path) {
  std::string why;
  try {
    why = state_.open_model_config(read_text_file(path, kMaxModelConfigBytes, "a model config"), path.string());
  } catch (const std::exception& e) {
    why = error_text(tr_, e);
  }
  if (!why.empty()) {
    const std::string msg = tr_.format("ui.model.open_failed", {{"path", path.filename().string()}, {"message", why}});
    toasts_.push(msg, ToastKind::error);
    return msg;
  }
  const auto& m = *state_.model();
  toasts_.push(tr_.format(m.warnings.size() == 1 ? "ui.model.opened_one" : "ui.model.opened", {{"model", m.name}, {"count", std::to_string(m.warnings.size())}}),
               m.warnings.empty() ? ToastKind::success : ToastKind::info);
  return {};
}

std::string App::open_file(const fs::path& path) {
  std::string format;
  try {
    const nlohmann::json j = parse_json_input(read_text_file(path, kMaxModelConfigBytes, "a model config"));
    if (j.is_object() && j.contains("format") && j["format"].is_string()) format = j["format"].get<std::string>();
  } catch (const std::exception&) {
    // unreadable: open_model_config says why
  }
  if (format == "poslab-session") return open_session(path);
  if (format == "poslab-deck") return open_deck(path);
  return open_model_config(path);
}

void App::drop_files(std::vector<std::string> paths) {
  if (!paths.empty()) dropped_ = std::move(paths);
  redraw_ = true;
}

std::string App::open_deck(const fs::path& path) {
  std::string why;
  try {
    Deck deck = load_deck_file(path);
    std::error_code ec;
    const std::string source = fs::absolute(path, ec).string();
    why = state_.open_deck(std::move(deck), source);
    if (why.empty()) remember_recent(settings_.recent_decks, source);
  } catch (const std::exception& e) {
    why = error_text(tr_, e);
  }
  if (!why.empty()) {
    const std::string msg = tr_.format("ui.deck.open_failed", {{"message", without_full_path(why, path)}});
    toasts_.push(msg, ToastKind::error);
    return msg;
  }
  const std::size_t scenes = state_.deck()->scenes.size();
  toasts_.push(tr_.format(scenes == 1 ? "ui.deck.opened_one" : "ui.deck.opened",
                          {{"path", short_file_name(path, true)}, {"count", std::to_string(scenes)}}),
               ToastKind::success);
  return {};
}

void App::show_deck_refusal(const fs::path& deck, const std::string& why) {
  std::error_code ec;
  const fs::path path = fs::absolute(deck, ec);
  const std::string msg = tr_.format("ui.deck.open_failed", {{"message", without_full_path(why, path)}});
  toasts_.push(msg, ToastKind::error);
  modals_.request(Modal::open_deck, [this, path, msg] {
    session_ui_.show(SessionUi::Prompt::open_deck, path, path.parent_path(), settings_.recent_decks);
    session_ui_.set_error(msg);
  });
  redraw_ = true;
}

std::string App::save_deck(const fs::path& path) {
  try {
    const Deck* deck = state_.deck();
    if (!deck) throw IoError(tr_("ui.deck.none"));
    // Written only what reads back (a question the Deck window left without
    // an answer is named, scene and field, and nothing is written).
    (void)parse_deck(write_deck(*deck), path.filename().string());
    std::error_code ec;
    if (!path.parent_path().empty()) fs::create_directories(path.parent_path(), ec);
    save_deck_file(path, *deck);
    const std::string source = fs::absolute(path, ec).string();
    state_.set_deck_source(source);
    state_.mark_deck_saved();
    remember_recent(settings_.recent_decks, source);
    toasts_.push(tr_.format("ui.deck.saved", {{"path", short_file_name(path, true)}}), ToastKind::success);
    return {};
  } catch (const std::exception& e) {
    const std::string msg = tr_.format("ui.deck.save_failed", {{"message", without_full_path(error_text(tr_, e), path)}});
    toasts_.push(msg, ToastKind::error);
    return msg;
  }
}

std::string App::copy_state() {
  const std::string s = session_state_string(state_.session());
  ImGui::SetClipboardText(s.c_str());
  toasts_.push(tr_.format("ui.state.copied", {{"state", s}}), ToastKind::success);
  return s;
}

std::string App::copy_link() {
  std::string base = platform_.page_address();
  if (base.empty()) base = settings_.link_base;
  if (const std::size_t hash = base.find('#'); hash != std::string::npos) base.resize(hash);
  const std::string link = base + "#" + link_fragment(state_.session(), link_keys(state_.view()));
  ImGui::SetClipboardText(link.c_str());
  toasts_.push(tr_.format(base.empty() ? "ui.link.copied_no_base" : "ui.link.copied", {{"link", link}}),
               ToastKind::success);
  return link;
}

std::string App::copy_embed_code() {
  std::string base = platform_.page_address();
  if (base.empty()) base = settings_.link_base;
  if (const std::size_t hash = base.find('#'); hash != std::string::npos) base.resize(hash);
  const ViewDef& v = state_.view();
  EmbedOptions e;
  e.figure = state_.front_figure();
  // The sliders: the step's, when it names them; else the keys the figure
  // reads (those that change it), in the lesson's order.
  const Scene* step = state_.current_step();
  if (step && !step->sliders.empty()) {
    e.sliders = step->sliders;
  } else {
    const FigureCache::Entry* built = figures_.find(v.id, e.figure);
    for (std::string_view k : v.keys)
      if (!built || !built->reads_known ||
          std::find(built->reads.begin(), built->reads.end(), k) != built->reads.end())
        e.sliders.emplace_back(k);
  }
  e.theme = lecture_ ? before_lecture_.theme : state_.theme();
  e.lang = tr_.lang();
  const std::string src = (base.empty() ? std::string("index.html") : base) + "#" + embed_fragment(state_.session(), v.keys, e);
  // The figure's title as shown (its built title, else its translated one).
  std::string figure_name = e.figure;
  const std::string title_key = std::string(v.id) + "." + e.figure + ".title";
  if (const FigureCache::Entry* shown = figures_.find(v.id, e.figure); shown && !shown->figure.title.empty())
    figure_name = shown->figure.title;
  else if (tr_.has(title_key) && tr_(title_key).find('{') == std::string::npos)
    figure_name = tr_(title_key);
  const std::string title = "poslab: " + lesson_title(tr_, v.id) + " — " + figure_name;
  const std::string code = embed_snippet(src, title, kEmbedWidth, kEmbedHeight);
  ImGui::SetClipboardText(code.c_str());
  toasts_.push(tr_.format(base.empty() ? "ui.embed.copied_no_base" : "ui.embed.copied", {{"code", code}}),
               ToastKind::success);
  return code;
}

std::string App::set_embed(EmbedOptions options) {
  const ViewDef& v = state_.view();
  std::vector<std::string> left_out;
  if (options.figure.empty() || !find_figure(v, options.figure)) {
    if (!options.figure.empty()) left_out.push_back("figure=" + options.figure);
    options.figure = state_.front_figure();
  }
  std::vector<std::string> sliders;
  for (std::string& k : options.sliders) {
    if (std::find(v.keys.begin(), v.keys.end(), k) == v.keys.end()) left_out.push_back(k);
    else if (std::find(sliders.begin(), sliders.end(), k) == sliders.end()) sliders.push_back(std::move(k));
  }
  options.sliders = std::move(sliders);
  embed_ = std::move(options);
  if (left_out.empty()) return {};
  std::string list;
  for (const std::string& k : left_out) list += (list.empty() ? "" : ", ") + k;
  return tr_.format("ui.embed.left_out", {{"lesson", std::string(v.id)}, {"names", list}});
}

std::string App::paste_state(const char* text) {
  const char* src = text ? text : ImGui::GetClipboardText();
  std::string why;
  if (!src || !*src) why = tr_("ui.state.empty");
  else {
    try {
      why = state_.apply_session(parse_state_string(src));
    } catch (const std::exception& e) {
      why = error_text(tr_, e);
    }
  }
  if (!why.empty()) {
    const std::string msg = tr_.format("ui.state.paste_failed", {{"message", why}});
    toasts_.push(msg, ToastKind::error);
    return msg;
  }
  toasts_.push(tr_("ui.state.pasted"), ToastKind::success);
  return {};
}

void App::save_on_exit() {
  if (!saves_on_exit()) return;  // no folder, or another instance writes it: said at start
  try {
    save_settings(options_.config_dir / "settings.json", settings_);
    Session s = state_.session();
    if (lecture_) s.theme = before_lecture_.theme;
    save_session_file(options_.config_dir / "autosave.json", s);
  } catch (const std::exception& e) {
    std::cerr << "poslab: " << error_text(tr_, e) << "\n";
  }
}

// [SECTION] Exports and screenshots

std::vector<fs::path> App::export_lesson() {
  UiContext ctx = context();
  return export_ui_.export_all(ctx);
}

std::string App::export_figure(std::string_view figure, ExportFormat format) {
  UiContext ctx = context();
  return lesson_view_.export_figure(ctx, figure, format);
}

std::string App::screenshot() {
  if (export_choice_.dir.empty()) {
    toasts_.push(tr_("ui.screenshot.no_folder"), ToastKind::error);
    return {};
  }
  const std::time_t t = std::time(nullptr);
  std::tm local{};
  ::localtime_r(&t, &local);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &local);
  std::error_code ec;
  fs::create_directories(export_choice_.dir, ec);
  // Several screenshots within one second get -2, -3, …: none overwrites
  // another (the file appears only after the frame, so the count matters
  // as much as what exists already).
  shot_number_ = stamp == shot_stamp_ ? shot_number_ + 1 : 1;
  shot_stamp_ = stamp;
  const std::string base = "poslab-" + std::string(state_.view().id) + "-" + stamp;
  fs::path path;
  for (;; ++shot_number_) {
    path = export_choice_.dir / (base + (shot_number_ > 1 ? "-" + std::to_string(shot_number_) : "") + ".png");
    if (!fs::exists(path, ec) && !fs::is_symlink(path, ec)) break;
  }
  if (!platform_.request_screenshot(path)) {
    toasts_.push(tr_("ui.screenshot.no_window"), ToastKind::error);
    return {};
  }
  return path.string();
}

}  // namespace poslab::app::ui
