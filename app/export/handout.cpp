#include "app/export/handout.hpp"

#ifndef __EMSCRIPTEN__  // the browser build has no cairo: its handouts are SVG
#include <cairo-pdf.h>
#include <cairo.h>
#endif

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <string_view>

#include "app/common/atomic_file.hpp"
#include "app/common/text_wrap.hpp"
#ifndef __EMSCRIPTEN__
#include "app/export/cairo_painter.hpp"
#endif
#include "app/export/svg_painter.hpp"
#include "app/lessons/lesson.hpp"
#include "app/plot/formula.hpp"
#include "app/plot/render.hpp"
#include "poslab/core/errors.hpp"

namespace poslab::app {

namespace fs = std::filesystem;

namespace {

struct Page {
  double w, h;
};

Page page_of(const std::string& page) {
  if (page == "letter") return {792, 612};
  if (page == "slide") return {960, 540};
  if (page == "a4") return {841.89, 595.28};
  throw core::InvalidParameter("page", page, "must be one of a4, letter, slide",
                               core::Reason{"one_of", {{"choices", "a4, letter, slide"}}, {}});
}

/// A parameter as a reader of the handout reads it, in its language: its name
/// (the lesson group's own when it has one: d is the model dimension in the
/// absolute lessons), a choice's word, a number with thousands ("500,000"),
/// and the key as typed in parentheses, for the command line: "配对方式 = 前后两半（layout = half）".
std::string param_text(const Translator& tr, std::string_view group, const std::string& key, const std::string& value) {
  const std::string base = "param." + key + ".name";
  const std::string* name = tr.find(base + "_" + std::string(group));
  if (!name) name = tr.find(base);
  std::string shown = value;
  const core::ParamSpec* spec = core::find_param(key);
  if (spec && spec->type == core::ParamType::choice) {
    if (const std::string* word = tr.find("param." + key + ".choice." + value)) shown = *word;
  } else if (spec && (spec->type == core::ParamType::real || spec->type == core::ParamType::integer)) {
    char* end = nullptr;
    const double v = std::strtod(value.c_str(), &end);
    if (end && *end == '\0' && end != value.c_str() && std::isfinite(v)) shown = fig::format_readout(v, 6);
  }
  if (!name) return key + " = " + shown;
  // The key in parentheses is left out where the page already reads as typed
  // ("嵌入维度 d = 500", not "…（d = 500）"), and a choice's own "（half）"
  // gives way to it ("前后两半配对（layout = half）", not "…（half）（layout = half）").
  const bool ends_with_key = *name == key || (name->size() > key.size() && name->ends_with(" " + key));
  if (shown == value && ends_with_key) return *name + " = " + shown;
  for (const std::string& own : {"（" + value + "）", " (" + value + ")"})
    if (shown.size() > own.size() && shown.ends_with(own)) shown.resize(shown.size() - own.size());
  return *name + " = " + shown + tr.format("ui.deck.param_key", {{"key", key}, {"value", value}});
}

/// One scene's page, ready to draw: its figure and its texts.
struct ScenePage {
  fig::Figure figure;
  std::string header, lesson, caption, question, answer, params;
};

std::string lesson_name(const Translator& tr, std::string_view id) {
  const std::string key = std::string(id) + ".title";
  return tr.has(key) ? tr(key) : std::string(id);
}

/// A wrapped line of the page's words, with its style and the room it takes
/// down the page (more than a plain line when a formula in it is tall).
struct WordLine {
  std::string text;
  const fig::TextStyle* style;
  double height;
};

/// Wrapped lines of `text` at `width` (paragraphs split at '\n'); formulas
/// ("$…$", plot/formula.hpp) set as they are on screen, never broken.
std::vector<WordLine> lines_of(fig::Painter& p, const std::string& text, const fig::TextStyle& st, double width) {
  std::vector<WordLine> out;
  // No text, no line: a scene without a question or answer reserved an empty
  // line for each (a 16:9 slide lost ~60 of its 540 pt under the caption
  // while its figure was drawn flat).
  if (text.empty()) return out;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string_view line(text.data() + start, end - start);
    for (const auto& [a, b] : wrap_line(line, static_cast<float>(width),
                                        [&](std::string_view s) { return static_cast<float>(fig::rich_measure(p, s, st).w); })) {
      WordLine l{std::string(line.substr(a, b - a)), &st, st.size * 1.35};
      if (fig::has_markup(l.text)) {
        // The usual leading, plus what a formula reaches beyond the font's ascent and descent.
        const fig::RichLine r = fig::layout_rich(p, l.text, st);
        l.height += (r.box.ascent - r.font_ascent) + (r.box.descent - r.font_descent);
      }
      out.push_back(std::move(l));
    }
    start = end + 1;
  }
  return out;
}

/// The page: header, figure, words, parameters. Text sizes in points.
void draw_page(fig::Painter& p, const ScenePage& s, Page page, const fig::Theme& theme) {
  // A slide (16:9) is read from the back of a hall: no text under 3.5 % of
  // its height (issue 29), the figure first, no parameter line; a printed
  // page keeps its 11 pt.
  const bool slide = page.w > page.h * 1.6;
  const double least = slide ? page.h * 0.035 : 0.0;
  const double margin = std::min(page.w, page.h) * (slide ? 0.045 : 0.06), fs = slide ? least / 0.9 : 11;
  const double w = page.w - 2 * margin;
  if (!theme.transparent) p.fill_rect({0, 0, page.w, page.h}, theme.background);
  double y = margin;
  const fig::TextStyle head{fs * 0.9, false, theme.muted}, title{fs * 1.45, true, theme.text};
  const fig::TextStyle body{fs * 1.1, false, theme.text}, bold{fs * 1.1, true, theme.text}, small{fs * 0.9, false, theme.muted};
  if (slide) {  // where we are, at the title's right
    fig::rich_text(p, {page.w - margin, y}, s.header, head, fig::Anchor::right, fig::VAnchor::top);
  } else {
    fig::rich_text(p, {margin, y}, s.header, head, fig::Anchor::left, fig::VAnchor::top);
    y += head.size * 1.5;
  }
  fig::rich_text(p, {margin, y}, s.lesson, title, fig::Anchor::left, fig::VAnchor::top);
  y += title.size * 1.5;

  // The words below the figure: measure them first, the figure gets the rest.
  std::vector<WordLine> words;
  for (const std::pair<const std::string*, const fig::TextStyle*>& part :
       {std::pair{&s.caption, &body}, {&s.question, &bold}, {&s.answer, &body}})
    for (WordLine& l : lines_of(p, *part.first, *part.second, w)) words.push_back(std::move(l));
  const std::vector<WordLine> params = slide ? std::vector<WordLine>{} : lines_of(p, s.params, small, w);
  double words_h = fs;
  for (const WordLine& l : words) words_h += l.height;
  for (const WordLine& l : params) words_h += l.height;
  const double fig_h = std::max(page.h * 0.35, page.h - margin - y - words_h - fs);
  fig::RenderStyle st;
  st.theme = theme;
  st.font_size = slide ? fs : std::clamp(std::sqrt(w * fig_h) / 48.0, 8.0, 14.0);
  st.min_text = least;
  fig::render_figure(s.figure, p, {margin, y, w, fig_h}, st);
  y += fig_h + fs * 0.6;
  const std::vector<WordLine>* parts[] = {&words, &params};
  for (const std::vector<WordLine>* lines : parts) {
    for (const WordLine& l : *lines) {
      // A tall formula pushes its line's baseline down by what it reaches above the font.
      const double above = fig::has_markup(l.text) ? fig::layout_rich(p, l.text, *l.style).box.ascent -
                                                         p.font_extents(*l.style).ascent
                                                   : 0.0;
      fig::rich_text(p, {margin, y + above}, l.text, *l.style, fig::Anchor::left, fig::VAnchor::top);
      y += l.height;
    }
    if (lines == &words) y += fs * 0.4;
  }
}

}  // namespace

std::vector<fs::path> export_handout(const Deck& deck, std::string_view source, ExportFormat format, const fs::path& out,
                                     const Translator& tr, const HandoutOptions& o) {
  if (format == ExportFormat::csv)
    throw core::InvalidParameter("format", "csv", "a handout is pdf, png or svg",
                                 core::Reason{"one_of", {{"choices", "pdf, png, svg"}}, {}});
  // A PDF is a handout (A4 by default); PNG and SVG are slides (16:9, 1920 × 1080 px).
  const Page page = page_of(o.page.empty() ? (format == ExportFormat::pdf ? "a4" : "slide") : o.page);
  const fig::Theme theme = fig::Theme::by_name(o.theme);
  const std::string lang = tr.lang();
  const std::string title = deck.title.in(lang);
  const int n = static_cast<int>(deck.scenes.size());

  // Scene i's page: its figure built now, dropped once the page is written,
  // so memory holds one page whatever the deck's length (issue 32: 500 heavy
  // scenes kept every figure, > 21 GB).
  auto scene_page = [&](int i) {
    const Scene& sc = deck.scenes[static_cast<std::size_t>(i)];
    const std::string where = std::string(source) + ", scene " + std::to_string(i + 1);
    const ViewDef* view = find_view(sc.lesson);
    if (!view) throw core::InvalidParameter("deck", where, "\"" + sc.lesson + "\" is not a lesson");
    const FigureDef* def = sc.figure.empty() ? (view->figures.empty() ? nullptr : &view->figures.front())
                                             : find_figure(*view, sc.figure);
    if (!def) throw core::InvalidParameter("deck", where, "the lesson has no figure \"" + sc.figure + "\"");
    ScenePage pg;
    try {
      // The scene as it ends: with its answer (and what the answer shows), when it asks.
      const Session s = sc.session(sc.has_question());
      const FigureDef* shown = sc.has_question() && !sc.reveal_figure.empty() ? find_figure(*view, sc.reveal_figure) : def;
      pg.figure = build_figure(*view, shown ? *shown : *def, s.to_params(), tr, page.w, page.h * 0.7);
      for (const auto& [k, v] : s.params)
        pg.params += (pg.params.empty() ? "" : " · ") + param_text(tr, view->group, k, v);
      if (pg.params.empty()) pg.params = tr("ui.deck.defaults");  // a scene of its lesson's defaults says so
    } catch (const core::InvalidParameter& e) {
      throw core::InvalidParameter("deck", where, e.what());
    }
    pg.header = (title.empty() ? std::string() : title + "  ·  ") + std::to_string(i + 1) + " / " + std::to_string(n);
    pg.lesson = lesson_name(tr, sc.lesson);
    pg.caption = sc.caption.in(lang);
    if (sc.has_question()) {
      pg.question = labelled(tr("ui.steps.predict"), sc.question.in(lang));
      pg.answer = labelled(tr("ui.steps.answer"), sc.answer.in(lang));
    }
    return pg;
  };

#ifdef __EMSCRIPTEN__
  if (format != ExportFormat::svg) throw IoError("in the browser a handout is SVG (PDF and PNG are desktop features)");
#endif
  // Pages go into a temporary file (PDF) or folder (PNG, SVG) as they are
  // made; the handout appears only when every page is written, so a scene
  // that cannot be drawn, a full disk or a kill writes nothing.
  if (format == ExportFormat::pdf) {
#ifndef __EMSCRIPTEN__
    write_path_atomically(out, [&](const fs::path& tmp) {
      cairo_surface_t* surface = cairo_pdf_surface_create(tmp.c_str(), page.w, page.h);
      cairo_t* cr = cairo_create(surface);
      std::exception_ptr failure;
      {
        CairoPainter painter(cr, 3.0, o.font_family);
        try {
          for (int i = 0; i < n; ++i) {
            draw_page(painter, scene_page(i), page, theme);
            cairo_show_page(cr);
          }
        } catch (...) {
          failure = std::current_exception();
        }
      }
      if (failure) {
        cairo_destroy(cr);
        cairo_surface_destroy(surface);
        std::rethrow_exception(failure);
      }
      finish_pdf(cr, surface);
    });
    return {out};
#endif
  }

  // One file per scene, <stem>-NN-<lesson>.<ext>.
  std::string stem = fs::path(std::string(source)).stem().string();
  if (stem.size() > 5 && stem.ends_with(".deck")) stem.resize(stem.size() - 5);
  if (stem.empty()) stem = "deck";
  FileSet files(out);
  for (int i = 0; i < n; ++i) {
    const ScenePage pg = scene_page(i);
    char number[16];
    std::snprintf(number, sizeof number, "-%02d-", i + 1);
    const std::string name = stem + number + deck.scenes[static_cast<std::size_t>(i)].lesson + "." + export_extension(format);
    if (format == ExportFormat::svg) {
      SvgPainter painter(page.w, page.h, o.font_family, 2.0);
      draw_page(painter, pg, page, theme);
      files.write(name, painter.finish());
    } else {
#ifndef __EMSCRIPTEN__
      const int pw = static_cast<int>(std::lround(page.w * o.png_scale)), ph = static_cast<int>(std::lround(page.h * o.png_scale));
      const OwnedSurface surface(cairo_image_surface_create(CAIRO_FORMAT_ARGB32, pw, ph));
      if (cairo_surface_status(surface.get()) != CAIRO_STATUS_SUCCESS) throw IoError("cannot allocate a handout page");
      cairo_t* cr = cairo_create(surface.get());
      cairo_scale(cr, o.png_scale, o.png_scale);
      {
        CairoPainter painter(cr, o.png_scale, o.font_family);
        draw_page(painter, pg, page, theme);
      }
      cairo_destroy(cr);
      files.write(name, encode_png(surface.get()));
#endif
    }
  }
  return files.commit();
}

}  // namespace poslab::app
