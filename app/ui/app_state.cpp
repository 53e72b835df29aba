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
  scene_ = -1;  // a lesson chosen by hand ends a deck's presentation
  figure_.clear();
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
  // The run keys too: a reset lab is an untrained one (lab_train back to false).
  for (const auto* keys : {&view().keys, &view().run_keys})
    for (std::string_view key : *keys)
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
  else model_ = LoadedModel{preset->model, preset->source, preset->source_zh, preset->view, preset->warnings, preset->reading};
  step_ = -1;
  step_revealed_ = false;
  scene_ = -1;
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
  LoadedModel loaded{reading.model, std::move(source), "", reading.view, reading.warnings,
                     std::make_shared<const ModelReading>(reading)};
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
    if (p.id == s.preset && !p.source.empty()) model_ = LoadedModel{p.model, p.source, p.source_zh, p.view, p.warnings, p.reading};
  if (!s.theme.empty()) set_theme(s.theme);
  view_index_ = index;
  step_ = -1;
  step_revealed_ = false;
  scene_ = -1;
  figure_.clear();
  animation_ = anim;
  invalidate();
  return {};
}

// [SECTION] Guided steps

const Deck* AppState::steps() const {
  if (presenting()) return &*deck_;
  try {
    return lesson_steps(view().id);
  } catch (const std::exception&) {
    return nullptr;  // a broken steps file (tests/app/test_steps.cpp) shows the whole page
  }
}

bool AppState::step_shows(std::string_view key) const {
  const Scene* step = current_step();
  return !step || step->sliders.empty() || std::find(step->sliders.begin(), step->sliders.end(), key) != step->sliders.end();
}

const Scene* AppState::current_step() const {
  const Deck* d = steps();
  const int at = step();
  if (!d || at < 0 || at >= static_cast<int>(d->scenes.size())) return nullptr;
  return &d->scenes[static_cast<std::size_t>(at)];
}

void AppState::open_lesson(int index) {
  select_view_index(index);
  step_ = -1;
  step_revealed_ = false;
  scene_ = -1;
  figure_.clear();
  if (steps()) (void)go_to_step(0);
}

std::string AppState::go_to_step(int index) {
  if (presenting()) return go_to_scene(index);
  figure_.clear();
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
  if (presenting()) return scene_ + 1 < static_cast<int>(d->scenes.size()) ? go_to_scene(scene_ + 1) : std::string();
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
  if (presenting()) return scene_ > 0 ? go_to_scene(scene_ - 1) : std::string();
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

// [SECTION] A teacher's deck

std::string AppState::open_deck(Deck deck, std::string source) {
  if (deck.scenes.empty()) return texts()("ui.deck.empty");
  std::optional<Deck> old = std::move(deck_);
  const std::string old_source = deck_source_;
  const int old_scene = scene_;
  deck_ = std::move(deck);
  scene_ = -1;
  if (std::string why = go_to_scene(0); !why.empty()) {
    deck_ = std::move(old);  // the old deck (and its place) stay
    scene_ = old_scene;
    return why;
  }
  deck_source_ = std::move(source);
  deck_modified_ = false;
  ++deck_revision_;
  return {};
}

void AppState::close_deck() {
  deck_.reset();
  deck_source_.clear();
  scene_ = -1;
  deck_modified_ = false;
  ++deck_revision_;
}

std::string AppState::go_to_scene(int index) {
  if (!deck_) return {};
  figure_.clear();
  if (index < 0) {
    scene_ = -1;
    step_ = -1;
    step_revealed_ = false;
    invalidate();
    return {};
  }
  index = std::min(index, static_cast<int>(deck_->scenes.size()) - 1);
  if (std::string why = apply_scene(deck_->scenes[static_cast<std::size_t>(index)]); !why.empty()) return why;
  scene_ = index;
  step_ = -1;
  step_revealed_ = false;
  return {};
}

Scene AppState::capture_scene(std::string figure, std::vector<std::string> sliders) const {
  const ViewDef& v = view();
  Scene sc;
  sc.lesson = std::string(v.id);
  Session s;
  s.set_params(params_);
  for (auto& kv : s.params)
    if (reads(v, kv.first)) sc.params.push_back(std::move(kv));
  sc.figure = figure.empty() ? front_figure() : std::move(figure);
  if (!find_figure(v, sc.figure)) sc.figure.clear();
  for (std::string& k : sliders)
    if (reads(v, k) && std::find(sc.sliders.begin(), sc.sliders.end(), k) == sc.sliders.end())
      sc.sliders.push_back(std::move(k));
  if (const Scene* step = current_step()) {
    sc.caption = step->caption;
    if (sc.sliders.empty()) sc.sliders = step->sliders;
    if (step->has_question() && !step_revealed_) {  // revealed, the params already hold the answer
      sc.question = step->question;
      sc.answer = step->answer;
      sc.reveal_params = step->reveal_params;
      sc.reveal_figure = step->reveal_figure;
    }
  }
  if (animation_.active()) sc.animation = animation_.config();
  return sc;
}

int AppState::add_scene(Scene scene, int at) {
  if (!deck_) deck_ = Deck{};
  const int n = static_cast<int>(deck_->scenes.size());
  at = at < 0 ? n : std::min(at, n);
  deck_->scenes.insert(deck_->scenes.begin() + at, std::move(scene));
  if (scene_ >= at) ++scene_;
  deck_modified_ = true;
  ++deck_revision_;
  return at;
}

bool AppState::move_scene(int from, int to) {
  if (!deck_) return false;
  const int n = static_cast<int>(deck_->scenes.size());
  if (from < 0 || from >= n || to < 0 || to >= n) return false;
  if (from == to) return true;
  Scene moved = std::move(deck_->scenes[static_cast<std::size_t>(from)]);
  deck_->scenes.erase(deck_->scenes.begin() + from);
  deck_->scenes.insert(deck_->scenes.begin() + to, std::move(moved));
  // The scene shown stays the one shown, wherever it went.
  if (scene_ == from) scene_ = to;
  else if (from < scene_ && to >= scene_) --scene_;
  else if (from > scene_ && to <= scene_ && scene_ >= 0) ++scene_;
  deck_modified_ = true;
  ++deck_revision_;
  return true;
}

bool AppState::delete_scene(int index) {
  if (!deck_ || index < 0 || index >= static_cast<int>(deck_->scenes.size())) return false;
  deck_->scenes.erase(deck_->scenes.begin() + index);
  if (deck_->scenes.empty()) {
    close_deck();
    return true;
  }
  if (scene_ == index) scene_ = -1;  // what was shown stays on screen, no longer a scene
  else if (scene_ > index) --scene_;
  deck_modified_ = true;
  ++deck_revision_;
  return true;
}

bool AppState::set_caption(int index, LocalText caption) {
  if (!deck_ || index < 0 || index >= static_cast<int>(deck_->scenes.size())) return false;
  Scene& sc = deck_->scenes[static_cast<std::size_t>(index)];
  if (sc.caption == caption) return true;
  sc.caption = std::move(caption);
  deck_modified_ = true;
  ++deck_revision_;
  return true;
}

bool AppState::set_scene(int index, Scene scene) {
  if (!deck_ || index < 0 || index >= static_cast<int>(deck_->scenes.size())) return false;
  Scene& sc = deck_->scenes[static_cast<std::size_t>(index)];
  if (sc == scene) return true;
  sc = std::move(scene);
  deck_modified_ = true;
  ++deck_revision_;
  return true;
}

// [SECTION] The figure in front

void AppState::set_figure(std::string_view id) {
  if (!id.empty() && !find_figure(view(), id)) return;
  if (figure_ == id) return;
  figure_ = std::string(id);
}

std::string AppState::front_figure() const {
  if (!figure_.empty()) return figure_;
  if (const Scene* step = current_step()) {
    if (step_revealed_ && !step->reveal_figure.empty()) return step->reveal_figure;
    if (!step->figure.empty()) return step->figure;
  }
  const ViewDef& v = view();
  return v.figures.empty() ? std::string() : std::string(v.figures.front().id);
}

void AppState::cycle_figure(int delta) {
  const ViewDef& v = view();
  const int n = static_cast<int>(v.figures.size());
  if (n < 2) return;
  const std::string now = front_figure();
  int i = 0;
  for (int k = 0; k < n; ++k)
    if (v.figures[static_cast<std::size_t>(k)].id == now) i = k;
  set_figure(v.figures[static_cast<std::size_t>(((i + delta) % n + n) % n)].id);
}

std::string shown_model(const AppState& state) {
  const auto& m = state.model();
  return m && m->view == state.view().id ? m->name : std::string();
}

}  // namespace poslab::app::ui
