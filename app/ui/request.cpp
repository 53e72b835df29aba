#include "app/ui/request.hpp"

#include "app/common/atomic_file.hpp"
#include "app/common/session.hpp"

namespace poslab::app::ui {

std::string known_views() {
  std::string out;
  for (const ViewDef& v : view_defs()) out += (out.empty() ? "" : ", ") + std::string(v.id);
  return out;
}

std::string apply_window_request(AppState& state, const WindowRequest& r) {
  if (!r.session.empty()) {
    try {
      const Session s = load_session_file(r.session);
      if (std::string why = state.apply_session(s); !why.empty()) return "session " + r.session + ": " + why;
    } catch (const std::exception& e) {
      return e.what();
    }
  }
  if (!r.preset.empty()) {
    bool known = false;
    std::string ids;
    for (const Preset& p : state.presets()) {
      known = known || p.id == r.preset;
      ids += (ids.empty() ? "" : ", ") + p.id;
    }
    if (!known) return "preset = " + r.preset + ": must be one of " + ids;
    if (std::string why = state.apply_preset(r.preset); !why.empty()) return why;
  }
  if (!r.view.empty() && !state.select_view(r.view))
    return "unknown view '" + r.view + "'; views: " + known_views();
  if (!r.sets.empty())
    if (std::string why = state.set_assignments(r.sets); !why.empty()) return why;
  if (!r.theme.empty()) {
    if (r.theme != "light" && r.theme != "dark" && r.theme != "projector")
      return "theme = " + r.theme + ": must be one of light, dark, projector";
    state.set_theme(r.theme);
  }
  return {};
}

}  // namespace poslab::app::ui
