#include "app/ui/app_state.hpp"

#include <algorithm>

#include "app/common/messages.hpp"

namespace poslab::app::ui {

namespace {

/// nullptr when `params` is fine for `view`, else core's exception.
std::optional<core::InvalidParameter> check_for_view(const ViewDef& view, const core::Params& params) {
  try {
    (void)resolve_view_params(view, params);
    return std::nullopt;
  } catch (const core::InvalidParameter& e) {
    return e;
  }
}

bool reads(const ViewDef& view, std::string_view key) {
  return std::find(view.keys.begin(), view.keys.end(), key) != view.keys.end();
}

}  // namespace

AppState::AppState(std::vector<Preset> presets) : presets_(std::move(presets)) {}

void AppState::set_translator(const Translator* tr) {
  tr_ = tr;
  invalidate();  // resolve_error() is kept in the language it was made in
}

const Translator& AppState::texts() const { return tr_ ? *tr_ : english_translator(); }

std::string AppState::refusal(const std::exception& e) const { return error_text(texts(), e); }

std::span<const ViewDef> AppState::views() const { return view_defs(); }

const ViewDef& AppState::view() const {
  const auto v = views();
  return v[static_cast<std::size_t>(std::clamp(view_index_, 0, static_cast<int>(v.size()) - 1))];
}

bool AppState::select_view(std::string_view id) {
  const auto v = views();
  for (std::size_t i = 0; i < v.size(); ++i)
    if (v[i].id == id) {
      select_view_index(static_cast<int>(i));
      return true;
    }
  return false;
}

void AppState::select_view_index(int index) {
  const int n = static_cast<int>(views().size());
  index = std::clamp(index, 0, std::max(0, n - 1));
  if (index == view_index_) return;
  view_index_ = index;
  step_ = -1;  // another lesson: its whole page until open_lesson/go_to_step pick a step
  step_revealed_ = false;
  // An animation of a key the new lesson does not read stops.
  if (animation_.active() && !reads(view(), animation_.config().key)) animation_.clear();
  invalidate();
}

void AppState::step_view(int delta) { select_view_index(view_index_ + delta); }

void AppState::invalidate() {
  ++revision_;
  all_changed_at_ = revision_;
  key_changed_at_.clear();  // all older than all_changed_at_ now
}

void AppState::invalidate_key(std::string_view key) {
  ++revision_;
  if (auto it = key_changed_at_.find(key); it != key_changed_at_.end()) it->second = revision_;
  else key_changed_at_.emplace(std::string(key), revision_);
}

std::uint64_t AppState::changed_at(std::string_view key) const {
  const auto it = key_changed_at_.find(key);
  return it == key_changed_at_.end() ? all_changed_at_ : std::max(all_changed_at_, it->second);
}

void AppState::refresh_resolved() const {
  if (resolved_revision_ == revision_ && resolved_view_ == view_index_) return;
  resolved_revision_ = revision_;
  resolved_view_ = view_index_;
  resolve_error_.clear();
  resolve_error_key_.clear();
  try {
    resolved_ = resolve_view_params(view(), params_);
  } catch (const core::InvalidParameter& e) {
    resolved_.reset();
    resolve_error_ = refusal(e);
    resolve_error_key_ = e.key();
  }
}

const core::Params* AppState::resolved() const {
  refresh_resolved();
  return resolved_ ? &*resolved_ : nullptr;
}

const std::string& AppState::resolve_error() const {
  refresh_resolved();
  return resolve_error_;
}

const std::string& AppState::resolve_error_key() const {
  refresh_resolved();
  return resolve_error_key_;
}

std::string AppState::set_param(std::string_view key, const core::ParamValue& value) {
  core::Params next = params_;
  try {
    next.set(key, value);
  } catch (const core::InvalidParameter& e) {
    return refusal(e);
  }
  if (next == params_) return {};
  // A change must not break a rule of the lesson; when the lesson is already
  // broken (a shared key changed elsewhere), any valid value may help fix it.
  std::optional<core::Params> resolved_next;
  if (resolved()) {
    try {
      resolved_next = resolve_view_params(view(), next);
    } catch (const core::InvalidParameter& e) {
      return refusal(e);
    }
  }
  params_ = std::move(next);
  invalidate_key(key);
  if (resolved_next) {  // resolved once: it is what resolved() returns for this revision
    resolved_ = std::move(resolved_next);
    resolved_revision_ = revision_;
    resolved_view_ = view_index_;
    resolve_error_.clear();
    resolve_error_key_.clear();
  }
  return {};
}

std::string AppState::set_param_text(std::string_view key, std::string_view text) {
  try {
    const core::ParamSpec& spec = core::param_spec(key);
    return set_param(spec.key, core::parse_param_value(spec, text));
  } catch (const core::InvalidParameter& e) {
    return refusal(e);
  }
}

std::string AppState::set_assignments(const std::vector<std::string>& assignments) {
  core::Params next = params_;
  try {
    for (const std::string& a : assignments) next.set_assignment(a);
  } catch (const core::InvalidParameter& e) {
    return refusal(e);
  }
  if (const auto why = check_for_view(view(), next)) return refusal(*why);
  if (next != params_) {
    params_ = std::move(next);
    invalidate();
  }
  return {};
}

void AppState::reset_param(std::string_view key) {
  if (!core::find_param(key) || !params_.is_set(key)) return;
  params_.reset(key);
  invalidate_key(key);
}

void AppState::reset_view() {
  bool changed = false;
  for (std::string_view key : view().keys)
    if (params_.is_set(key)) params_.reset(key), changed = true;
  if (changed) invalidate();
}

std::string AppState::apply_preset(std::string_view id) {
  const Preset* preset = nullptr;
  for (const Preset& p : presets_)
    if (p.id == id) preset = &p;
  if (!preset)
    return refusal(core::InvalidParameter("preset", std::string(id), "unknown preset", core::Reason{"unknown_preset", {}, {}}));
  core::Params next;
  try {
    preset->apply(next);
  } catch (const core::InvalidParameter& e) {
    return refusal(e);
  }
  int index = view_index_;
  const auto v = views();
  for (std::size_t i = 0; i < v.size(); ++i)
    if (!preset->view.empty() && v[i].id == preset->view) index = static_cast<int>(i);
  if (const auto why = check_for_view(v[static_cast<std::size_t>(index)], next)) return refusal(*why);
  params_ = std::move(next);
  preset_id_ = preset->id;
  if (preset->source.empty()) model_.reset();
  else model_ = LoadedModel{preset->model, preset->source, preset->view, preset->warnings};
  step_ = -1;
  step_revealed_ = false;
  select_view_index(index);
  invalidate();
  return {};
}

std::string AppState::open_model_config(std::string_view text, std::string source) {
  ModelReading reading;
  try {
    reading = read_model_config_text(text);
  } catch (const std::exception& e) {
    return refusal(e);
  }
  LoadedModel loaded{reading.model, std::move(source), reading.view, reading.warnings};
  const auto v = views();
  int index = -1;
  for (std::size_t i = 0; i < v.size(); ++i)
    if (v[i].id == reading.view) index = static_cast<int>(i);
  if (index < 0) {  // no lesson shows it: only its warnings
    model_ = std::move(loaded);
    invalidate();
    return {};
  }
  core::Params next;
  try {
    for (const std::string& a : model_assignments(reading)) next.set_assignment(a);
  } catch (const core::InvalidParameter& e) {
    return refusal(e);
  }
  if (const auto why = check_for_view(v[static_cast<std::size_t>(index)], next)) return refusal(*why);
  params_ = std::move(next);
  preset_id_.clear();
  model_ = std::move(loaded);
  step_ = -1;
  step_revealed_ = false;
  select_view_index(index);
  invalidate();
  return {};
}

void AppState::close_model() {
  if (!model_) return;
  model_.reset();
  invalidate();  // the figures' subtitles name it
}

void AppState::set_theme(std::string_view theme) {
  if (theme == "light" || theme == "dark" || theme == "projector") theme_ = std::string(theme);
}

bool AppState::tick_animation(double dt) {
  const auto v = animation_.advance(dt);
  if (!v) return false;
  // A value the lesson refuses (e.g. beta_fast sweeping below beta_slow) is skipped.
  return set_param(animation_.config().key, *v).empty();
}

Session AppState::session() const {
  Session s;
  s.lesson = std::string(view().id);
  s.preset = preset_id_;
  s.theme = theme_;
  s.set_params(params_);
  if (animation_.active()) s.animation = animation_.config();
  return s;
}

std::string AppState::apply_session(const Session& s) {
  const auto v = views();
  int index = -1;
  for (std::size_t i = 0; i < v.size(); ++i)
    if (v[i].id == s.lesson) index = static_cast<int>(i);
  const Translator& tr = texts();
  if (index < 0) return tr.format("ui.session.no_lesson", {{"lesson", s.lesson.substr(0, 64)}});
  // The preset is remembered and written back: one this poslab does not have
  // would be passed on as if it were real.
  if (!s.preset.empty() &&
      std::none_of(presets_.begin(), presets_.end(), [&](const Preset& p) { return p.id == s.preset; }))
    return tr.format("ui.session.no_preset", {{"preset", s.preset.substr(0, 64)}});
  core::Params next;
  try {
    next = s.to_params();
  } catch (const core::InvalidParameter& e) {
    return refusal(e);
  }
  const ViewDef& target = v[static_cast<std::size_t>(index)];
  if (const auto why = check_for_view(target, next)) return refusal(*why);
  Animation anim;
  if (s.animation) {
    if (!reads(target, s.animation->key))
      return tr.format("ui.session.animation_key", {{"key", s.animation->key}, {"lesson", s.lesson}});
    try {
      anim.restore(*s.animation);
    } catch (const core::InvalidParameter& e) {
      return refusal(e);
    }
  }
  // Everything checked: commit.
  params_ = std::move(next);
  preset_id_ = s.preset;
  // A session records no model file; a model preset's config is still known.
  model_.reset();
  for (const Preset& p : presets_)
    if (p.id == s.preset && !p.source.empty()) model_ = LoadedModel{p.model, p.source, p.view, p.warnings};
  if (!s.theme.empty()) set_theme(s.theme);
  view_index_ = index;
  step_ = -1;
  step_revealed_ = false;
  animation_ = anim;
  invalidate();
  return {};
}

// [SECTION] Guided steps

const Deck* AppState::steps() const {
  try {
    return lesson_steps(view().id);
  } catch (const std::exception&) {
    return nullptr;  // a broken steps file (tests/app/test_steps.cpp) shows the whole page
  }
}

const Scene* AppState::current_step() const {
  const Deck* d = steps();
  if (!d || step_ < 0 || step_ >= static_cast<int>(d->scenes.size())) return nullptr;
  return &d->scenes[static_cast<std::size_t>(step_)];
}

void AppState::open_lesson(int index) {
  select_view_index(index);
  step_ = -1;
  step_revealed_ = false;
  if (steps()) (void)go_to_step(0);
}

std::string AppState::go_to_step(int index) {
  const Deck* d = steps();
  if (!d || index < 0) {
    step_ = -1;
    step_revealed_ = false;
    invalidate();
    return {};
  }
  index = std::min(index, static_cast<int>(d->scenes.size()) - 1);
  const std::string why = apply_scene(d->scenes[static_cast<std::size_t>(index)]);
  if (!why.empty()) return why;
  step_ = index;
  step_revealed_ = false;
  return {};
}

std::string AppState::next_step() {
  const Deck* d = steps();
  const Scene* sc = current_step();
  if (sc && sc->has_question() && !step_revealed_) {
    if (!sc->reveal_params.empty()) {
      if (std::string why = apply_scene(*sc, true); !why.empty()) return why;
    }
    step_revealed_ = true;
    invalidate();
    return {};
  }
  if (d && step_ >= 0 && step_ + 1 < static_cast<int>(d->scenes.size())) return go_to_step(step_ + 1);
  if (view_index_ + 1 < static_cast<int>(views().size())) open_lesson(view_index_ + 1);
  return {};
}

std::string AppState::prev_step() {
  const Scene* sc = current_step();
  if (sc && step_revealed_) {
    if (!sc->reveal_params.empty()) {
      if (std::string why = apply_scene(*sc, false); !why.empty()) return why;
    }
    step_revealed_ = false;
    invalidate();
    return {};
  }
  if (step_ > 0) return go_to_step(step_ - 1);
  if (view_index_ == 0) return {};
  open_lesson(view_index_ - 1);
  if (const Deck* d = steps()) return go_to_step(static_cast<int>(d->scenes.size()) - 1);
  return {};
}

std::string AppState::apply_scene(const Scene& scene, bool revealed) {
  const auto v = views();
  int index = -1;
  for (std::size_t i = 0; i < v.size(); ++i)
    if (v[i].id == scene.lesson) index = static_cast<int>(i);
  if (index < 0) return texts().format("ui.session.no_lesson", {{"lesson", scene.lesson.substr(0, 64)}});
  const ViewDef& target = v[static_cast<std::size_t>(index)];
  core::Params next = params_;
  for (std::string_view key : target.keys) next.reset(key);
  const Session s = scene.session(revealed);
  try {
    for (const auto& [key, text] : s.params) next.set_text(key, text);
  } catch (const core::InvalidParameter& e) {
    return refusal(e);
  }
  if (const auto why = check_for_view(target, next)) return refusal(*why);
  Animation anim;
  if (s.animation) {
    try {
      anim.restore(*s.animation);
    } catch (const core::InvalidParameter& e) {
      return refusal(e);
    }
  }
  params_ = std::move(next);
  view_index_ = index;
  animation_ = anim;
  invalidate();
  return {};
}

std::string shown_model(const AppState& state) {
  const auto& m = state.model();
  return m && m->view == state.view().id ? m->name : std::string();
}

}  // namespace poslab::app::ui
