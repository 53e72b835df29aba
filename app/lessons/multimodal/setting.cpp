#include "app/lessons/multimodal/setting.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>


namespace poslab::app::multimodal {

Grid grid(const core::Params& p) {
  Grid g;
  g.h = static_cast<int>(p.integer("grid_h"));
  g.w = static_cast<int>(p.integer("grid_w"));
  const int row = static_cast<int>(p.integer("row")), col = static_cast<int>(p.integer("col"));
  g.row = std::min(row, g.h - 1);
  g.col = std::min(col, g.w - 1);
  g.clamped = g.row != row || g.col != col;
  g.d = static_cast<int>(p.integer("d"));
  return g;
}

double grid_score(const Grid& g, int r, int c) {
  const Eigen::VectorXd ones = Eigen::VectorXd::Ones(g.d);
  return core::axial_rope_score(ones, ones, g.row, g.col, r, c, g.base) / g.d;
}

double GridScores::at(const Grid& g, int r, int c) const {
  return along_rows[std::abs(r - g.row)] + along_cols[std::abs(c - g.col)] - 1;
}

GridScores grid_scores(const Grid& g) {
  const Eigen::VectorXd ones = Eigen::VectorXd::Ones(g.d);  // q at (0, 0) is not turned
  GridScores s{Eigen::VectorXd(g.h), Eigen::VectorXd(g.w)};
  for (int r = 0; r < g.h; ++r) s.along_rows[r] = ones.dot(core::axial_rope_rotate<double>(ones, r, 0, g.base)) / g.d;
  for (int c = 0; c < g.w; ++c) s.along_cols[c] = ones.dot(core::axial_rope_rotate<double>(ones, 0, c, g.base)) / g.d;
  return s;
}

SequenceShape shape(const core::Params& p) {
  return {p.integer("text_before"), p.integer("grid_t"), p.integer("grid_h"), p.integer("grid_w"), p.integer("text_after")};
}

core::TokenKind grid_kind(const core::Params& p) {
  return p.integer("grid_t") > 1 ? core::TokenKind::video : core::TokenKind::image;
}

core::MropeLayout sequence(const core::Params& p) {
  const SequenceShape s = shape(p);
  const core::TokenKind kind = grid_kind(p);
  std::vector<core::MropeSegment> segments = {
      {core::TokenKind::text, s.before},
      {kind, 0, s.t, s.h, s.w, kind == core::TokenKind::video ? p.real("second_per_grid") : 0.0},
      {core::TokenKind::text, s.after}};
  return core::MropeLayout(std::move(segments),
                           {core::parse_video_time(p.choice("video_time")), p.integer("tokens_per_second")});
}

Sections sections(const core::Params& p) {
  Sections s;
  const auto v = p.list("mrope_section");
  for (int a = 0; a < 3; ++a) s.s[static_cast<std::size_t>(a)] = static_cast<int>(v[static_cast<std::size_t>(a)]);
  s.interleaved = p.boolean("mrope_interleaved");
  s.base = p.real("base");
  core::check_mrope_sections(s.s);
  return s;
}

}  // namespace poslab::app::multimodal
