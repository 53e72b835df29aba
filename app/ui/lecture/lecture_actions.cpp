// [SECTION] Index
// - Lecture mode's own keys: blank screen, "N, Enter", the grid, the presenter view
// - The presenter view's window: its frame
//
// What lecture mode's keys do (the table is lecture_keys.cpp). In lecture
// mode no key leaves the deck: the digits type a scene's number instead of
// opening a lesson, ↑ ↓ go through the scenes (lecture_keys.cpp maps them
// to ← →), and while the grid of scenes is open the arrows move its choice.

#include <imgui.h>

#include <algorithm>
#include <ctime>

#include "app/ui/app.hpp"
#include "app/ui/style.hpp"

namespace poslab::app::ui {

// [SECTION] Lecture mode's own keys

bool App::run_lecture(Action action, int arg) {
  if (!lecture_) return false;
  LectureState& L = lecture_ui_;
  if (action != Action::scene_digit && action != Action::go_to_typed) L.typed.clear();
  const Deck* steps = state_.steps();
  const int count = steps ? static_cast<int>(steps->scenes.size()) : 0;
  auto refused = [this](const std::string& why) {
    if (!why.empty()) toasts_.push(why, ToastKind::error);
  };
  switch (action) {
    case Action::blank_black:
      L.blank = L.blank == Blank::black ? Blank::none : Blank::black;
      return true;
    case Action::blank_white:
      L.blank = L.blank == Blank::white ? Blank::none : Blank::white;
      return true;
    case Action::scene_digit:
      if (L.typed.size() < kMaxTypedDigits && arg >= 0 && arg <= 9) L.typed += static_cast<char>('0' + arg);
      return true;
    case Action::go_to_typed: {
      if (L.typed.empty()) {  // Enter alone: the grid's choice, else nothing
        if (L.grid && L.grid_pick >= 0 && L.grid_pick < count) {
          refused(state_.go_to_step(L.grid_pick));
          L.grid = false;
        }
        return true;
      }
      const int n = std::stoi(L.typed);
      L.typed.clear();
      if (n >= 1 && n <= count) {
        refused(state_.go_to_step(n - 1));
        L.grid = false;
      } else {
        toasts_.push(tr_.format("ui.lecture.no_scene", {{"n", std::to_string(n)}, {"count", std::to_string(count)}}),
                     ToastKind::error);
      }
      return true;
    }
    case Action::scene_grid:
      L.grid = !L.grid && count > 0;
      L.grid_pick = std::clamp(state_.step(), 0, std::max(0, count - 1));
      L.grid_scroll = true;
      return true;
    case Action::presenter_view:
      set_presenter_view(!L.presenter_view);
      return true;
    case Action::reset_timer:
      L.started = wall_;
      return true;
    case Action::next_step:
    case Action::prev_step:
    case Action::space:
    case Action::first_step:
    case Action::last_step: {
      if (!L.grid) return false;  // the scenes themselves (App::run)
      // The grid open: the keys move its choice (↑ ↓ by a row), Enter goes there.
      const int row = arg == 1 ? std::max(1, grid_columns_) : 1;
      int& pick = L.grid_pick;
      if (action == Action::first_step) pick = 0;
      else if (action == Action::last_step) pick = count - 1;
      else if (action == Action::prev_step) pick -= row;
      else pick += row;
      pick = std::clamp(pick, 0, std::max(0, count - 1));
      L.grid_scroll = true;
      return true;
    }
    default:
      return false;
  }
}

void App::set_presenter_view(bool on) {
  LectureState& L = lecture_ui_;
  if (!on) {
    if (!L.presenter_view) return;
    L.presenter_view = false;
    presenter_view_.release();  // its miniatures' textures, before the window's GL context goes
    platform_.show_presenter_window(false);
    return;
  }
  if (L.presenter_view) return;
  if (!lecture_) {
    L.presenter_view = true;  // opens with lecture mode (F5)
    return;
  }
  switch (platform_.show_presenter_window(true)) {
    case Platform::PresenterPlace::none:
      toasts_.push(tr_("ui.presenter.unavailable"), ToastKind::error);
      return;
    case Platform::PresenterPlace::same_screen:
      toasts_.push(tr_("ui.presenter.opened_here"), ToastKind::info);
      break;
    case Platform::PresenterPlace::other_screen:
      break;
  }
  L.presenter_view = true;
}

// [SECTION] The presenter view's window

ImGuiContext* App::presenter_context() {
  ImGuiContext* before = ImGui::GetCurrentContext();
  ImGui::SetCurrentContext(imgui_);
  ImFontAtlas* atlas = ImGui::GetIO().Fonts;
  ImGui::SetCurrentContext(before);
  return presenter_view_.context(atlas);
}

void App::presenter_before_frame() {
  ImGui::SetCurrentContext(presenter_context());
  ImGuiIO& io = ImGui::GetIO();
  io.FontDefault = fonts_.regular;  // the shared atlas, as the App baked it last
  // The atlas is baked for the projector's height: on a smaller laptop screen
  // (720p beside a 1080p projector) the presenter's text and spacing shrink
  // with its window, or its top line ran past the right edge and its buttons
  // below the bottom. (Its last frame's size: the backend sets it in NewFrame.)
  const float projector_h = lecture_base_ * kLectureHeightPerScale * content_scale(), own_h = io.DisplaySize.y;
  const float fit = own_h > 0 && projector_h > own_h ? std::max(0.4f, own_h / projector_h) : 1.0f;
  io.FontGlobalScale = fit;
  if (presenter_style_ != style_key_ || presenter_fit_ != fit) {
    // The lecturer's screen is dark (a bright laptop in a dark hall glares);
    // the miniatures keep the projector's look.
    apply_style("dark", ui_scale() * content_scale() * fit);
    presenter_style_ = style_key_;
    presenter_fit_ = fit;
  }
}

void App::draw_presenter(double dt) {
  (void)dt;
  UiContext ctx = context();
  ctx.scale *= presenter_fit_;
  ctx.pal = palette("dark");
  ctx.plot.sink = &platform_.presenter_heatmaps();
  ctx.plot.hover = false;
  if (ctx.plot.sink != &platform_.heatmaps()) ctx.plot.sink->begin_frame();
  // The miniatures are laid out as the projector's plot is.
  const ImVec4 plot = lesson_view_.last_plot_rect();
  const ImVec2 laid_out{plot.z - plot.x, plot.w - plot.y};
  const std::time_t t = std::time(nullptr);
  std::tm local{};
  ::localtime_r(&t, &local);
  char clock[16];
  std::strftime(clock, sizeof clock, "%H:%M", &local);
  presenter_view_.draw(ctx, ctx.plot, lecture_ui_, laid_out, wall_, clock, queued_);
  if (ctx.redraw || !queued_.empty()) redraw_ = true;
}

void App::presenter_after_frame() { ImGui::SetCurrentContext(imgui_); }

void App::presenter_blind_frame(double dt, ImVec2 display) {
  presenter_before_frame();
  ImGuiIO& io = ImGui::GetIO();
  io.BackendFlags |= ImGuiBackendFlags_RendererHasVtxOffset;
  io.DisplaySize = display;
  io.DeltaTime = static_cast<float>(dt > 0 ? dt : 1.0 / 60);
  ImGui::NewFrame();
  draw_presenter(dt);
  ImGui::Render();
  presenter_after_frame();
}

}  // namespace poslab::app::ui
