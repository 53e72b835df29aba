#pragma once
// [SECTION] The App: owns the state, the panels and the ImGui context, and
// composes one frame. It runs the same way in a window (ui/window.*) and
// blind (tests), and every feature is reachable through its C++ API — the
// menus, the shortcuts and the GUI tests call the same functions.
//
// Frame protocol (window and blind mode alike):
//   before_frame()   outside NewFrame/Render: rebuild fonts and style if asked
//   ImGui::NewFrame()
//   draw(dt)         the whole UI
//   ImGui::Render()

#include <imgui.h>

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/cli/cli.hpp"
#include "app/common/config_folder.hpp"
#include "app/common/link.hpp"
#include "app/ui/app_state.hpp"
#include "app/ui/lecture/deck_ui.hpp"
#include "app/ui/lecture/lecture_state.hpp"
#include "app/ui/lecture/presenter_view.hpp"
#include "app/ui/lecture/scene_previews.hpp"
#include "app/ui/export_ui.hpp"
#include "app/ui/key_events.hpp"
#include "app/ui/lesson_view.hpp"
#include "app/ui/notation_card.hpp"
#include "app/ui/params_panel.hpp"
#include "app/ui/platform.hpp"
#include "app/ui/lecture/presenter.hpp"
#include "app/ui/modal_queue.hpp"
#include "app/ui/session_ui.hpp"
#include "app/ui/shortcuts.hpp"
#include "app/ui/sweep_recorder.hpp"
#include "app/ui/ui_context.hpp"

namespace poslab::app::ui {

/// Lecture mode: the text's share of the screen's height (issue 29: captions
/// and figure text at 3.5 % or more, what a 24 pt minimum on a slide gives),
/// so 720p, 1080p and 2160p look alike: 26 px at 720 px, 39 px at 1080 px.
inline constexpr float kLectureTextShare = 0.036f;
/// The least any text of a figure may be in lecture mode (ticks, legends, notes).
inline constexpr float kLectureMinTextShare = 0.035f;
/// One UI scale step per this many pixels of screen height (kBaseFontPixels / kLectureTextShare).
inline constexpr float kLectureHeightPerScale = 15.0f / kLectureTextShare;
inline constexpr float kMaxLectureScale = 6.0f;  // a 2160p projector

struct AppOptions {
  std::filesystem::path assets;      ///< the assets folder (assets_dir())
  std::string lang = "en";
  /// Read settings and the autosave at start, write them at exit — when this
  /// App holds the config folder's lock (app/common/config_folder.hpp).
  bool persist = true;
  /// Default: find_config_dir() (none when there is no private folder: the
  /// app runs without saving and says so). Given here, it is used as it is.
  std::filesystem::path config_dir;
  /// Start from the last session (the autosave); false: from the defaults (`gui --fresh`).
  bool restore_autosave = true;
  /// Wall-clock seconds (toasts age by it, asleep or not). Default: a steady clock.
  std::function<double()> clock;
  /// Build a figure that takes longer than a moment on a worker thread and
  /// show the previous one meanwhile (the interactive window; screenshots,
  /// tests and exports build in place and always show the state asked for).
  bool background_figures = false;
};

class App {
 public:
  App(Platform& platform, AppOptions options);
  ~App();
  App(const App&) = delete;
  App& operator=(const App&) = delete;

  /// Applies a `poslab gui|screenshot` request on top of the restored state.
  /// Returns "" or the one-line reason (exit code 2).
  std::string apply_request(const WindowRequest& request);

  // ---- frames
  void before_frame();
  void draw(double dt);
  /// A whole frame without a window (blind mode): before_frame, NewFrame,
  /// draw, Render, with the display size given.
  void blind_frame(double dt = 1.0 / 60, ImVec2 display = {1600, 1000});
  /// Lays `figure` out and draws it once off screen at a lesson figure's
  /// usual size, keeping nothing (PlotWidget::warm): the page's thread
  /// warming up its drawing code (main_web.cpp, poslab_warm_land). Between
  /// frames only; 0 before the fonts are built, else the draw commands.
  int warm_plot(const fig::Figure& figure);
  /// True while something moves (animation, recording, toasts fading in,
  /// a lesson asked for frames): the window must not sleep.
  bool wants_redraw() const;
  /// Seconds until something changes by itself (a toast expires); infinity if nothing will.
  double seconds_until_wake() const;

  // ---- keys
  /// A key event from the window system's callback (key_events.hpp), handled
  /// at the next frame in the order it came — however many come per frame.
  void key_event(int key, int action, int mods);
  KeyQueue& key_queue() { return keys_; }

  // ---- everything the menus and shortcuts do
  void run(Action action, int arg = 0);
  /// Esc: closes the topmost window or prompt (the "?" overlay, the Open or
  /// Save prompt, then the front-most of Export, Deck and Notation), else
  /// clears the pen and spotlight, else leaves lecture mode. While a text
  /// field has the keyboard, Esc only lets go of it (ImGui does that).
  void escape(bool typing = false);
  void set_theme(std::string_view theme);
  const std::string& theme() const { return state_.theme(); }
  /// "en" or "zh": reloads texts and re-bakes the fonts. Returns "" or why not.
  std::string set_lang(std::string_view lang);
  const std::string& lang() const { return tr_.lang(); }
  /// The UI scale (0.75–3), applied next frame by re-baking the fonts.
  void set_ui_scale(float scale);
  float ui_scale() const;
  void set_lecture(bool on);
  bool lecture() const { return lecture_; }
  /// Lecture mode: the slider strip is open (S).
  bool lecture_sliders() const { return lecture_sliders_; }
  /// The UI scale lecture mode starts from: text in proportion to the
  /// screen's height (kLectureTextShare), whatever the screen.
  float lecture_base_scale() const { return lecture_base_; }
  /// Lecture mode's own state: the blanked screen, the number being typed,
  /// the grid of scenes, the idle pointer, the presenter view (lecture/).
  const LectureState& lecture_state() const { return lecture_ui_; }
  /// True while the pointer has not moved for kPointerIdleSeconds in
  /// lecture mode: it is hidden, and so are the figures' crosshair and tooltip.
  bool pointer_idle() const;

  // ---- the presenter view (lecture/presenter_view.hpp): a second window
  /// Opens or closes it (V, --presenter); lecture mode starts with it. Says
  /// in a toast when the platform has no second window, or only one screen.
  void set_presenter_view(bool on);
  bool presenter_view() const { return lecture_ui_.presenter_view; }
  const PresenterView& presenter_panel() const { return presenter_view_; }
  /// Its ImGui context (shares this App's font atlas), created on first use.
  ImGuiContext* presenter_context();
  /// The presenter window's frame, as the main one: presenter_before_frame()
  /// (its context current), the backends' NewFrame, ImGui::NewFrame(),
  /// draw_presenter(dt), ImGui::Render(), presenter_after_frame() (this App's
  /// context current again).
  void presenter_before_frame();
  void draw_presenter(double dt);
  void presenter_after_frame();
  /// The whole presenter frame without a window (tests).
  void presenter_blind_frame(double dt = 1.0 / 60, ImVec2 display = {1280, 800});
  /// The miniatures of the grid of scenes (tests count their builds).
  const ScenePreviews& grid_previews() const { return grid_previews_; }
  void reset_layout();
  std::string apply_preset(std::string_view id);

  // ---- sessions and state strings (each returns "" or a message, also toasted)
  std::string save_session(const std::filesystem::path& path);
  std::string open_session(const std::filesystem::path& path);
  /// Opens a Hugging Face config.json (File → Open model config…, a file
  /// dropped on the window): its lesson in its state, its warnings shown.
  /// All-or-nothing; returns "" or the message (also toasted).
  std::string open_model_config(const std::filesystem::path& path);
  /// Opens a file of any kind poslab reads, told apart by its content: a
  /// session ("format": "poslab-session"), a deck ("poslab-deck"), otherwise
  /// a model's config.json. Returns "" or the message (also toasted).
  std::string open_file(const std::filesystem::path& path);
  /// The system's file picker, when the platform has one (a browser): true
  /// when it was shown and the file will come through open_file.
  bool pick_file() { return platform_.pick_file(); }
  /// Files dropped on the window: the first is opened (open_file) at the
  /// start of the next frame (the window calls this from its callback).
  void drop_files(std::vector<std::string> paths);
  /// Puts the state string on the clipboard and returns it.
  std::string copy_state();
  /// Puts a link to what is shown on the clipboard and returns it: the page's
  /// address (in a browser) or the settings' link_base, then #view=ID&KEY=VALUE…
  /// (app/common/link.hpp).
  std::string copy_link();
  /// Puts an <iframe> for a course page on the clipboard and returns it: the
  /// figure in front with the sliders it reads (a guided step's own, when
  /// it names them) at this state, theme and language (link.hpp
  /// embed_fragment), after the page's address or the settings' link_base.
  std::string copy_embed_code();
  /// Embed mode (a course page's <iframe>, "#embed&…"): figure
  /// `options.figure` of the current lesson (the one in front when "") and
  /// only the sliders named, filling the window; no menus, no lesson list,
  /// no shortcuts. Returns "" or what was left out (an unknown figure: the
  /// first is shown; a slider the lesson does not have: not shown).
  std::string set_embed(EmbedOptions options);
  /// The embed shown (null: the whole app).
  const EmbedOptions* embed() const { return embed_ ? &*embed_ : nullptr; }
  /// Applies a state string (the clipboard's when `text` is null).
  std::string paste_state(const char* text = nullptr);
  /// Settings and the autosave session, written atomically (on exit) — only
  /// by the instance that holds the config folder's lock.
  void save_on_exit();
  /// True when save_on_exit() will write (persisting, a folder, the lock held).
  bool saves_on_exit() const { return options_.persist && config_lock_.held(); }
  /// The config folder in use (empty when there is none).
  const std::filesystem::path& config_dir() const { return options_.config_dir; }

  // ---- exports
  std::vector<std::filesystem::path> export_lesson();
  std::string export_figure(std::string_view figure, ExportFormat format);
  /// Requests a PNG of the whole window after this frame; returns its path ("" in blind mode).
  std::string screenshot();

  // ---- parts, for the window and for tests
  AppState& state() { return state_; }
  const AppState& state() const { return state_; }
  Settings& settings() { return settings_; }
  const Translator& tr() const { return tr_; }
  Toasts& toasts() { return toasts_; }
  FigureCache& figures() { return figures_; }
  /// How figure layouts are paced over frames while figures build elsewhere (plot_widget.hpp).
  LayoutPacing& layout_pacing() { return layout_pacing_; }
  ParamsPanel& params_panel() { return params_panel_; }
  LessonView& lesson_view() { return lesson_view_; }
  /// The last frame drew the narrow layout (a phone, a tablet, a narrow
  /// window: one column, figure first; shell.cpp), and the widgets it laid out.
  bool narrow() const { return narrow_; }
  const std::vector<LaidOutBox>& laid_out() const { return laid_out_; }
  /// The narrow layout's drawer: 0 none, 1 the lesson list, 2 all the parameters.
  int drawer() const { return drawer_; }
  void set_drawer(int which) { drawer_ = which; }
  ExportChoice& export_choice() { return export_choice_; }
  SweepRecorder& recorder() { return recorder_; }
  ExportUi& export_ui() { return export_ui_; }
  DeckUi& deck_ui() { return deck_ui_; }
  SessionUi& session_ui() { return session_ui_; }
  /// Opens a file prompt through the modal queue (modal_queue.hpp): now, or
  /// once the modal on screen closes. SessionUi::show's arguments.
  void show_prompt(SessionUi::Prompt prompt, const std::filesystem::path& suggested,
                   const std::filesystem::path& folder = {}, std::vector<std::string> recent = {});
  /// True while a modal (a file prompt, the shortcut overlay) is on screen.
  bool modal_showing() const;
  const ModalQueue& modals() const { return modals_; }
  NotationCard& notation() { return notation_; }
  /// Presenter tools (lecture mode): laser dot held, spotlight, pen strokes.
  const PresenterTools& presenter() const { return presenter_; }
  PresenterTools& presenter() { return presenter_; }
  /// Opens a deck file and presents its first scene ("" or the message, also toasted).
  std::string open_deck(const std::filesystem::path& path);
  /// `gui --deck FILE` with a deck that cannot be opened (issue 29, point 5):
  /// the app opens without it and shows the Open deck prompt with FILE in
  /// its field and `why` (the scene, field, line and column) under it, so the
  /// lecturer fixes the file and presses Open — from a launcher too, where
  /// a line on stderr is never seen.
  void show_deck_refusal(const std::filesystem::path& deck, const std::string& why);
  /// Saves the open deck ("" or the message, also toasted).
  std::string save_deck(const std::filesystem::path& path);
  const UiFonts& fonts() const { return fonts_; }
  bool help_open() const { return help_open_; }
  /// A UiContext for this frame (tests use it to drive panels directly).
  UiContext context();
  /// Typed entry into a parameter, as Ctrl+click + Enter: "" or the message.
  std::string type_param(std::string_view key, std::string_view text);
  int frames() const { return frames_; }

 private:
  void open_config_folder();
  void restore_autosave();
  /// keep_aside(file) when this App is the folder's writer; "" when not moved.
  std::filesystem::path keep_unreadable(const std::filesystem::path& file);
  void draw_shell(UiContext& ctx);
  void draw_narrow(UiContext& ctx);  // shell.cpp
  /// The narrow layout's Lessons and All parameters buttons (Close when
  /// their drawer is open), from the cursor to the right edge; `title`: the
  /// lesson's title between them when it fits (a phone on its side: in the menu bar).
  void draw_drawer_buttons(UiContext& ctx, bool title);
  void draw_lecture(UiContext& ctx);
  void draw_embed(UiContext& ctx);  // embed.cpp
  void draw_presenter_tools(UiContext& ctx);
  // lecture/lecture.cpp: what lecture mode adds on top of the page
  void draw_blank(UiContext& ctx);
  void draw_typed(UiContext& ctx);
  void draw_scene_grid(UiContext& ctx);
  /// Lecture mode's own actions (lecture/lecture_keys.cpp); false when `action` is not one.
  bool run_lecture(Action action, int arg);
  /// The characters of what users type and load (a deck's texts, a model's
  /// name, file names, typed or pasted text) asked of the font atlas: any
  /// it lacks is baked before the next frame (font_atlas.hpp).
  void watch_glyphs();
  void handle_keys();
  /// The front-most of the floating windows that are open; closes it.
  bool close_front_window();
  double wall_clock() const;
  void draw_menu_bar(UiContext& ctx);
  void update_title();
  float content_scale() const;

  Platform& platform_;
  AppOptions options_;
  ConfigLock config_lock_;
  ImGuiContext* imgui_ = nullptr;
  Translator tr_;
  AppState state_;
  Settings settings_;
  FontAtlasBuilder atlas_builder_;
  UiFonts fonts_;
  FigureCache figures_;
  LayoutPacing layout_pacing_;  ///< this frame's figure layouts (paced while figures are built elsewhere)
  Toasts toasts_;
  ExportChoice export_choice_;
  LessonView lesson_view_;
  ParamsPanel params_panel_;
  ExportUi export_ui_;
  SweepRecorder recorder_;
  SessionUi session_ui_;
  ModalQueue modals_;
  DeckUi deck_ui_;
  KeyQueue keys_;
  PresenterTools presenter_;
  LectureState lecture_ui_;
  PresenterView presenter_view_;
  ScenePreviews grid_previews_;
  int grid_columns_ = 1;                ///< the grid's columns last frame (↑ ↓ move by a row)
  std::vector<Pressed> queued_;         ///< the presenter view's buttons, run at the next frame
  std::uint64_t presenter_style_ = 0;   ///< the style_key_ the presenter's style was made for
  /// The presenter's text and spacing × this: its window's height over the
  /// projector's when smaller (a 720p laptop beside a 1080p projector), as
  /// the shared atlas is baked for the projector.
  float presenter_fit_ = 1.0f;
  std::uint64_t glyphs_deck_ = ~0ull;   ///< the deck revision whose texts the atlas was asked for
  std::uint64_t glyphs_toasts_ = 0;     ///< toasts pushed whose texts it was asked for
  std::vector<std::string> dropped_;  ///< files dropped since the last frame

  float ui_scale_ = 1.0f, applied_scale_ = 0, applied_content_scale_ = 0;
  /// Lecture mode: the base scale from the screen's height, times the zoom Ctrl+= / Ctrl+- set.
  float lecture_base_ = 2.0f, lecture_zoom_ = 1.0f;
  bool lecture_sliders_ = false;
  std::string applied_theme_;
  bool fonts_dirty_ = true;
  bool lecture_ = false;
  bool narrow_ = false;
  bool narrow_low_ = false;  ///< the narrow layout on a low screen (a phone on its side): buttons in the menu bar
  int drawer_ = 0;
  std::vector<LaidOutBox> laid_out_;
  std::optional<EmbedOptions> embed_;
  struct Saved {
    std::string theme;
    bool fullscreen = false;
  } before_lecture_;
  bool help_open_ = false;
  NotationCard notation_;
  bool redraw_ = false;
  std::uint64_t style_key_ = 1;
  double now_ = 0;    ///< animation time: the sum of the frames' dt
  double wall_ = 0;   ///< wall-clock seconds at this frame (toasts)
  int frames_ = 0;
  std::string title_;
  // the last screenshot's time stamp and number within that second
  std::string shot_stamp_;
  int shot_number_ = 0;
};

}  // namespace poslab::app::ui
