#pragma once
// A lesson's state in a link: the fragment of the page's address.
//
//   index.html#view=rope&base=500000&pos=0%3A9%2C100
//       the lesson, then the parameters of `poslab gui --set KEY=VALUE`,
//       URL-encoded (the lesson's defaults for every key not named);
//       also step=N (a guided step), theme=light|dark|projector, lang=en|zh
//   index.html#state=poslab%3A1%20lesson%3Drope%20base%3D500000
//       the "Copy state" string, URL-encoded
//
//   index.html#embed&view=rope&figure=frequencies&sliders=d,base&d=128
//       one figure and only the named sliders, no menus (a course page's
//       <iframe>; the desktop's and the page's File → Copy embed code)
//
// The page writes the fragment of what is shown after every change
// (history.replaceState), so the address bar is always a link to it.
// The desktop's "Copy link" writes the same fragment after a base address
// (settings.json "link_base"). Pure text: no browser, no ImGui.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "app/common/session.hpp"

namespace poslab::app {

struct LinkRequest {
  std::string view;                                         ///< "" = none named
  std::vector<std::pair<std::string, std::string>> params;  ///< in link order
  std::string state;                                        ///< a state string ("" = none)
  std::string theme, lang;
  int step = 0;            ///< 1-based guided step (0 = the whole lesson page)
  bool embed = false;      ///< "embed": one figure and the named sliders, no menus
  std::string figure;      ///< embed: the figure id ("" = the lesson's first)
  std::vector<std::string> sliders;  ///< embed: the sliders shown, in order (none named: none)
  std::string error;       ///< "" or what is malformed in the fragment itself
  bool empty() const { return view.empty() && state.empty() && params.empty(); }
};

/// Percent-decoding ('+' is a space). Returns false on a bad %XX escape.
bool url_decode(std::string_view in, std::string& out);
/// Percent-encoding of everything but A–Z a–z 0–9 - _ . ~ and the few
/// characters values use that links keep readable: , : ( )
std::string url_encode(std::string_view in);

/// Parses a fragment (with or without the leading '#').
LinkRequest parse_link(std::string_view fragment);

/// The fragment (without '#') of a session: view=ID and every parameter the
/// lesson reads that is set, sorted by key. `lesson_keys`: the keys the
/// lesson reads (ViewDef::keys).
std::string link_fragment(const Session& session, const std::vector<std::string_view>& lesson_keys);

/// What an embed link adds to the lesson's state.
struct EmbedOptions {
  std::string figure;
  std::vector<std::string> sliders;
  std::string theme, lang;  ///< "" = not named (the page's own)
};

/// The fragment of an embed: "embed&view=ID&figure=F&sliders=a,b", the
/// parameters as link_fragment writes them, then theme= and lang=.
std::string embed_fragment(const Session& session, const std::vector<std::string_view>& lesson_keys,
                           const EmbedOptions& embed);

/// The <iframe> a course page pastes: `src` (the page's address and an embed
/// fragment), `title` (for screen readers; HTML-escaped here), the size in CSS pixels.
std::string embed_snippet(std::string_view src, std::string_view title, int width, int height);

/// The session a link asks for: its lesson with exactly its parameters (the
/// lesson's defaults for the rest). Raises core::InvalidParameter("state", …)
/// for a bad state string.
Session link_session(const LinkRequest& link);

}  // namespace poslab::app
