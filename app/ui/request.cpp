#include "app/ui/request.hpp"

#include "app/common/assets.hpp"
#include "app/model/model_config.hpp"
#include "app/common/atomic_file.hpp"
#include "app/common/session.hpp"
#include "app/plot/render.hpp"

namespace poslab::app::ui {

std::string known_views() {
  std::string out;
  for (const ViewDef& v : view_defs()) out += (out.empty() ? "" : ", ") + std::string(v.id);
  return out;
}

namespace {

/// `--reveal` on a step that asks nothing: which steps of the lesson do.
std::string reveal_refusal(const AppState& state, int step) {
  std::string asking;
  if (const Deck* d = state.steps())
    for (std::size_t i = 0; i < d->scenes.size(); ++i)
      if (d->scenes[i].has_question()) asking += (asking.empty() ? "" : ", ") + std::to_string(i + 1);
  const std::string lesson(state.view().id);
  const Translator& tr = state.texts();
  return asking.empty() ? tr.format("cli.reveal_no_questions", {{"step", std::to_string(step)}, {"lesson", lesson}})
                        : tr.format("cli.reveal_no_question",
                                    {{"step", std::to_string(step)}, {"lesson", lesson}, {"steps", asking}});
}

}  // namespace

std::string apply_window_request(AppState& state, const WindowRequest& r, bool* io_failure) {
  const Translator& tr = state.texts();
  if (!r.session.empty()) {
    try {
      const Session s = load_session_file(r.session);
      if (std::string why = state.apply_session(s); !why.empty())
        return tr.format("ui.request.session", {{"path", r.session}, {"message", why}});
    } catch (const IoError& e) {
      if (io_failure) *io_failure = true;  // a missing file or a folder: not bad usage, exit code 1
      return state.refusal(e);
    } catch (const std::exception& e) {
      return state.refusal(e);
    }
  }
  if (!r.preset.empty()) {
    bool known = false;
    std::string ids;
    for (const Preset& p : state.presets()) {
      known = known || p.id == r.preset;
      ids += (ids.empty() ? "" : ", ") + p.id;
    }
    if (!known)
      return state.refusal(core::InvalidParameter("preset", r.preset, "must be one of " + ids,
                                                  core::Reason{"one_of", {{"choices", ids}}, {}}));
    if (std::string why = state.apply_preset(r.preset); !why.empty()) return why;
  }
  if (!r.model.empty()) {
    std::string text;
    try {
      text = read_text_file(r.model, kMaxModelConfigBytes, "a model config");
    } catch (const IoError& e) {
      if (io_failure) *io_failure = true;  // a missing file: exit code 1
      return state.refusal(e);
    }
    if (std::string why = state.open_model_config(text, r.model); !why.empty()) return why;
  }
  if (!r.view.empty() && !state.select_view(r.view))
    return tr.format("cli.unknown_view", {{"view", r.view}, {"views", known_views()}});
  // A lesson asked for by name, settings or a session opens on its whole page
  // unless a step is asked for too.
  if (r.step == 0 && (!r.view.empty() || !r.sets.empty() || !r.preset.empty() || !r.session.empty() || !r.model.empty()))
    (void)state.go_to_step(-1);
  std::string deck_name;  // the deck --deck opened, for --step
  if (!r.deck.empty()) {
    try {
      std::filesystem::path source;
      Deck deck = load_deck_named(r.deck, &source);
      if (std::string why = state.open_deck(std::move(deck), source.string()); !why.empty()) return why;
      deck_name = std::filesystem::path(r.deck).filename().string();
    } catch (const IoError& e) {
      if (io_failure) *io_failure = true;  // no such file: exit code 1, as for --session
      return state.refusal(e);
    } catch (const std::exception& e) {
      return state.refusal(e);
    }
  }
  if (r.step != 0) {
    try {
      // --step of a deck is one of its scenes (opened above), not a step of its first lesson.
      if (!deck_name.empty() && state.presenting()) check_scene_number(*state.steps(), deck_name, r.step);
      else check_step_number(state.view().id, r.step);
    } catch (const std::exception& e) {
      return state.refusal(e);
    }
    if (std::string why = state.go_to_step(r.step - 1); !why.empty()) return why;
    if (r.reveal) {
      const Scene* step = state.current_step();
      if (!step || !step->has_question()) return reveal_refusal(state, r.step);
      if (std::string why = state.next_step(); !why.empty()) return why;  // → on an open question: its answer
    }
  }
  if (!r.sets.empty())
    if (std::string why = state.set_assignments(r.sets); !why.empty()) return why;
  if (!r.theme.empty()) {
    try {
      (void)fig::Theme::by_name(r.theme);
    } catch (const core::InvalidParameter& e) {
      return state.refusal(e);
    }
    state.set_theme(r.theme);
  }
  return {};
}

WindowRequest without_deck(WindowRequest request) {
  if (!request.deck.empty()) request.step = 0, request.reveal = false;
  request.deck.clear();
  return request;
}

}  // namespace poslab::app::ui
