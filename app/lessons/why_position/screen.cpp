// The "why-position" lesson screen: a Shuffle button that puts the words of
// the toy sentence in a fresh random order (it sets `perm`), a button that
// restores the original order (both on the page and on the steps that show
// `perm`), the sentence as it now reads, then the default
// layout (text, readouts, figures, table). Every number comes from the
// lesson's figures and readouts; the buttons only set the parameter.

#include <algorithm>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "app/lessons/why_position/setting.hpp"
#include "app/ui/lesson_ui.hpp"
#include "app/ui/ui_context.hpp"

namespace poslab::app::ui {

namespace {

using why_position::kTokens;

/// A random order of the words other than `current` and the original order.
std::vector<double> fresh_order(const std::vector<double>& current) {
  static std::mt19937 rng{std::random_device{}()};
  std::vector<double> order(static_cast<std::size_t>(kTokens));
  std::iota(order.begin(), order.end(), 0.0);
  std::vector<double> next = order;
  while (next == order || next == current) std::shuffle(next.begin(), next.end(), rng);
  return next;
}

/// The buttons and the sentence as it now reads (the whole page and every step).
void controls(LessonUi& ui) {
  const auto& tr = ui.tr();
  std::vector<double> current;
  try {
    current = ui.params().list("perm");
  } catch (const core::InvalidParameter&) {
  }
  // The buttons set `perm`: on a step that does not show it (before the
  // shuffle is taught) only the sentence.
  if (ui.shows_control("perm")) {
    const std::string shuffle = tr("why-position.shuffle") + "##why-position-shuffle";
    if (ImGui::Button(shuffle.c_str())) ui.set_param("perm", fresh_order(current));
    ImGui::SameLine();
    const std::string restore = tr("why-position.in_order") + "##why-position-in-order";
    std::vector<double> order(static_cast<std::size_t>(kTokens));
    std::iota(order.begin(), order.end(), 0.0);
    if (ImGui::Button(restore.c_str())) ui.set_param("perm", order);
    ImGui::SameLine();
    help_marker(tr("why-position.shuffle_help").c_str());
  }
  std::string sentence;
  for (std::size_t i = 0; i < current.size() && i < static_cast<std::size_t>(kTokens); ++i)
    sentence += (i ? " " : "") + std::string(why_position::Setting::word(static_cast<int>(current[i])));
  bool in_order = true;
  for (std::size_t i = 0; i < current.size(); ++i) in_order = in_order && current[i] == static_cast<double>(i);
  // Shuffled, the other tabs still show the sentence as given: say which is which.
  // One line beside the buttons: the whole sentence when it fits there, else
  // the shuffled words alone with the rest on hover; wrapped below only when
  // even those do not fit (a lecture's Ctrl+= sizes). It ran off the right
  // edge, cutting "the others …" mid-word, at every lecture size.
  const std::string words = tr.format(in_order ? "why-position.now_reads_given" : "why-position.now_reads", {{"sentence", sentence}});
  const std::string short_words =
      in_order ? words : tr.format("why-position.now_reads_short", {{"sentence", sentence}});
  const bool beside = ui.shows_control("perm");
  const float rest = beside ? ImGui::GetWindowContentRegionMax().x - (ImGui::GetItemRectMax().x - ImGui::GetWindowPos().x) -
                                  ImGui::GetStyle().ItemSpacing.x
                            : ImGui::GetContentRegionAvail().x;
  for (const std::string* line : {&words, &short_words}) {
    if (ImGui::CalcTextSize(line->c_str()).x > rest) continue;
    if (beside) ImGui::SameLine();
    ImGui::TextUnformatted(line->c_str());
    if (line != &words && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", words.c_str());
    return;
  }
  wrapped_text(words);
}

void draw(LessonUi& ui) {
  controls(ui);
  ImGui::Spacing();
  ui.default_layout();
}

}  // namespace

LessonScreen why_position_screen() { return {"why-position", draw, {}, nullptr, controls}; }

}  // namespace poslab::app::ui
