#include "app/ui/a11y_mirror.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>

#include "app/common/slider_math.hpp"
#include "app/lessons/lesson.hpp"
#include "app/plot/formula.hpp"
#include "app/plot/render.hpp"
#include "app/ui/app.hpp"
#include "app/ui/params_panel.hpp"

namespace poslab::app::ui {

namespace {

/// How a numeric slider's positions map to values: one position per whole
/// number (or even number, or power of two) when they are few, else
/// kA11yPositions steps of the slider's own scale.
struct SliderSteps {
  double lo = 0, hi = 1;
  int positions = kA11yPositions;
  enum class Kind { whole, pow2, scaled } kind = Kind::scaled;
  int step = 1;  ///< whole: 1, or 2 for even numbers

  SliderSteps(const core::ParamSpec& spec, const core::Params& params) {
    std::tie(lo, hi) = slider_range(spec, params);
    if (spec.scale == core::SliderScale::pow2) {
      kind = Kind::pow2;
      lo = pow2_min_exponent(spec), hi = pow2_max_exponent(spec);
      positions = std::max(1, static_cast<int>(hi - lo));
    } else if (spec.type == core::ParamType::integer && spec.scale == core::SliderScale::linear) {
      step = spec.even ? 2 : 1;
      const double n = std::floor((hi - lo) / step);
      if (n >= 1 && n <= kA11yPositions) kind = Kind::whole, positions = static_cast<int>(n);
    }
  }

  double value_at(const core::ParamSpec& spec, double position) const {
    const double p = std::clamp(position, 0.0, static_cast<double>(positions));
    switch (kind) {
      case Kind::pow2: return std::exp2(lo + std::round(p));
      case Kind::whole: return snap(spec, lo + std::round(p) * step, false);
      case Kind::scaled: break;
    }
    const double v = interpolate(spec, lo, hi, p / positions);
    return snap(spec, spec.unit == "tokens" ? std::round(v) : v, false);  // as a drag lands on a token
  }

  double position_of_value(const core::ParamSpec& spec, double value) const {
    double p = 0;
    switch (kind) {
      case Kind::pow2: p = std::log2(std::max(1.0, value)) - lo; break;
      case Kind::whole: p = (value - lo) / step; break;
      case Kind::scaled: p = position_of(spec, lo, hi, value) * positions; break;
    }
    return std::clamp(std::round(p), 0.0, static_cast<double>(positions));
  }
};

std::string number(double v) { return fig::format_readout(v, 6); }

/// A figure's name for the figure chooser: its "<view>.<id>.title" text,
/// else the title it was last built with, else its id in words. (Not
/// LessonView::figure_title: that reads the frame's UiContext, which exists
/// only while a frame is drawn; the page asks between frames.)
std::string figure_name(App& app, const ViewDef& view, std::string_view id) {
  const Translator& tr = app.tr();
  const std::string key = std::string(view.id) + "." + std::string(id) + ".title";
  if (tr.has(key) && tr(key).find('{') == std::string::npos) return fig::plain_text(tr(key));
  if (const FigureCache::Entry* e = app.figures().find(view.id, id); e && !e->figure.title.empty())
    return fig::plain_text(e->figure.title);
  std::string words(id);
  std::replace(words.begin(), words.end(), '-', ' ');
  std::replace(words.begin(), words.end(), '_', ' ');
  return words;
}

}  // namespace

std::string a11y_state(App& app) {
  AppState& state = app.state();
  const Translator& tr = app.tr();
  const std::string& lang = tr.lang();
  const ViewDef& view = state.view();
  nlohmann::ordered_json j;
  j["lang"] = lang;
  j["view"] = std::string(view.id);
  j["lesson"] = fig::plain_text(tr(std::string(view.id) + ".title"));
  j["revision"] = state.revision();

  // The step: its words, as the lesson view shows them.
  const Deck* steps = state.steps();
  const Scene* step = state.current_step();
  j["step"] = state.step();
  j["steps"] = steps ? static_cast<int>(steps->scenes.size()) : 0;
  j["indicator"] = step && steps ? tr.format(state.presenting() ? "ui.deck.position" : "ui.steps.indicator",
                                             {{"step", std::to_string(state.step() + 1)},
                                              {"count", std::to_string(steps->scenes.size())}})
                                 : std::string();
  j["caption"] = step ? fig::plain_text(step->caption.in(lang)) : fig::plain_text(tr(std::string(view.id) + ".text"));
  j["question"] = step && step->has_question() ? labelled(tr("ui.steps.predict"), fig::plain_text(step->question.in(lang))) : "";
  j["revealed"] = state.step_revealed();
  j["answer"] = step && step->has_question() && state.step_revealed()
                    ? labelled(tr("ui.steps.answer"), fig::plain_text(step->answer.in(lang)))
                    : "";
  j["hint"] = step && step->has_question() && !state.step_revealed() ? tr("ui.steps.reveal_hint") : "";
  // A question about the figure hides what it draws until the answer: its
  // description would give the answer away.
  const bool hidden = step && step->hide_figure && !state.step_revealed();
  j["hidden"] = hidden;
  j["labels"] = {{"back", tr("ui.steps.back")},
                 {"next", tr("ui.steps.next")},
                 {"all", tr("ui.steps.show_all")},
                 {"start", tr.format("ui.steps.start", {{"count", std::to_string(steps ? steps->scenes.size() : 0)}})},
                 {"params", tr("ui.params.title")},
                 {"more", tr("ui.steps.more_params")},
                 {"panel", tr("ui.a11y.panel")},
                 {"figure", tr("ui.a11y.figure")},
                 {"figures", tr("ui.a11y.figures")},
                 {"updating", tr("ui.a11y.updating")},
                 {"hidden", tr("ui.steps.hidden_figure")}};

  // The figure in front, and the others it can show.
  const std::string front = state.front_figure();
  nlohmann::ordered_json figure = {{"id", front}, {"title", ""}, {"description", ""}, {"updating", false}};
  if (const FigureCache::Entry* e = front.empty() ? nullptr : app.figures().find(view.id, front)) {
    figure["title"] = fig::plain_text(e->figure.title);
    figure["description"] = hidden ? tr("ui.steps.hidden_figure") : e->figure.description;
    figure["updating"] = e->updating();
    if (!e->error.empty()) figure["description"] = e->error;
  }
  j["figure"] = figure;
  nlohmann::ordered_json figures = nlohmann::ordered_json::array();
  for (const FigureDef& f : view.figures)
    figures.push_back({{"id", std::string(f.id)}, {"title", figure_name(app, view, f.id)}});
  j["figures"] = figures;

  // The lesson's controls: the step's first (the panel shows those), then the rest.
  const core::Params* resolved = state.resolved();
  const core::Params& p = resolved ? *resolved : state.params();
  nlohmann::ordered_json controls = nlohmann::ordered_json::array();
  for (int pass = 0; pass < 2; ++pass)
    for (std::string_view key : link_keys(view)) {
      // A run key (the lab's lab_train) is the lesson's own button on the
      // canvas, there at every step: the mirror offers it with the step's.
      const bool run_key = std::find(view.run_keys.begin(), view.run_keys.end(), key) != view.run_keys.end();
      const bool shown = run_key || state.step_shows(key);
      if (shown != (pass == 0)) continue;
      const core::ParamSpec* spec = core::find_param(key);
      if (!spec) continue;
      nlohmann::ordered_json c;
      c["key"] = std::string(key);
      c["name"] = fig::plain_text(param_name(tr, key, view.group));
      c["unit"] = spec->unit.empty() ? std::string() : unit_text(tr, spec->unit);
      c["step"] = shown;
      std::string text;
      try {
        text = core::format_param_value(*spec, p.value(key));
      } catch (const core::InvalidParameter&) {
      }
      switch (spec->type) {
        case core::ParamType::boolean: {
          c["type"] = "boolean";
          bool b = false;
          try {
            b = p.boolean(key);
          } catch (const core::InvalidParameter&) {
          }
          c["value"] = b;
          break;
        }
        case core::ParamType::choice: {
          c["type"] = "choice";
          c["value"] = text;
          nlohmann::ordered_json choices = nlohmann::ordered_json::array();
          for (std::string_view w : core::param_choices(*spec))
            choices.push_back({{"word", std::string(w)}, {"label", choice_text(tr, key, w)}});
          c["choices"] = choices;
          break;
        }
        case core::ParamType::integer:
        case core::ParamType::real: {
          c["type"] = "number";
          double value = 0;
          try {
            value = p.real(key);
          } catch (const core::InvalidParameter&) {
          }
          const SliderSteps s(*spec, state.params());
          c["value"] = value;
          c["positions"] = s.positions;
          c["position"] = s.position_of_value(*spec, value);
          c["min_text"] = number(s.kind == SliderSteps::Kind::pow2 ? std::exp2(s.lo) : s.lo);
          c["max_text"] = number(s.kind == SliderSteps::Kind::pow2 ? std::exp2(s.hi) : s.hi);
          text = number(value);
          break;
        }
        default:
          c["type"] = "text";  // lists and vectors: typed as on the panel (Ctrl+click)
          c["value"] = text;
      }
      c["text"] = c["unit"].get<std::string>().empty() ? text : text + " " + c["unit"].get<std::string>();
      controls.push_back(std::move(c));
    }
  j["controls"] = controls;
  return j.dump();
}

std::string a11y_set_position(App& app, std::string_view key, double position) {
  const core::ParamSpec* spec = core::find_param(key);
  if (!spec || !is_numeric(*spec)) return "no slider " + std::string(key);
  const SliderSteps s(*spec, app.state().params());
  return app.state().set_param(key, s.value_at(*spec, position));
}

std::string a11y_set_text(App& app, std::string_view key, std::string_view text) {
  return app.state().set_param_text(key, text);
}

std::string a11y_action(App& app, std::string_view action) {
  AppState& state = app.state();
  if (action == "prev") return state.prev_step();
  if (action == "next") return state.next_step();
  if (action == "all") return state.go_to_step(-1);
  if (action.rfind("step:", 0) == 0) return state.go_to_step(std::atoi(std::string(action.substr(5)).c_str()));
  if (action.rfind("figure:", 0) == 0) {
    state.set_figure(action.substr(7));
    return {};
  }
  return "unknown action " + std::string(action);
}

}  // namespace poslab::app::ui
