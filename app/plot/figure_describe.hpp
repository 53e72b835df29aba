#pragma once
// The text alternative of a figure (Figure::description), generated from the
// figure itself so every figure of every lesson has one: what is plotted
// against what (axis labels, units, log scales), the ranges of the data, each
// series (kind, dash, points, where it starts, ends and peaks), a heatmap's
// lattice and values, the reference lines and bands (with how many points of
// each series lie below a horizontal line), the labels drawn on the plot, and
// last the builder's own key_numbers. One description per language: the
// texts are the translations' describe.* keys (assets/i18n/*/a11y.json).
//
// Used by build_figure (lessons/lesson.cpp), so the GUI, the page's live
// region, SVG <title>/<desc>, the PDF's metadata and `poslab export
// --describe` read the same text.

#include <string>

#include "app/common/i18n.hpp"
#include "app/plot/figure.hpp"

namespace poslab::app::fig {

/// The description of `figure` in tr's language (without its title: the
/// readers that show it put the title first themselves).
std::string describe_figure(const Figure& figure, const Translator& tr);

/// A number as a description says it: whole thousands up to a billion as
/// whole numbers with separators (54,410 — not 5.441e4), others as the hover
/// readout writes them (6.283, 1.155e-4).
std::string spoken_number(double v);

/// The name an axis is described by: its label as plain text (formulas
/// written out), else the name its series or heatmap read it by, else "".
std::string described_axis_name(const Figure& figure, bool y_axis);

}  // namespace poslab::app::fig
