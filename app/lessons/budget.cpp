#include "app/lessons/budget.hpp"

#include <cmath>

namespace poslab::app {

namespace {

/// Whole numbers as digits (budgets and counts read better as 67108864 than
/// 6.7108864e7); others in shortest form.
std::string number(double x) {
  if (std::isfinite(x) && std::floor(x) == x && std::fabs(x) < 1e15) return std::to_string(static_cast<long long>(x));
  return core::format_number(x);
}

}  // namespace

std::string shown_value(const core::Params& params, std::string_view key) {
  constexpr std::size_t kShown = 40;  // one readable line, as core's own messages
  std::string text = core::format_param_value(core::param_spec(key), params.value(key));
  if (text.size() > kShown) text = text.substr(0, kShown) + "...";
  return text;
}

void refuse_over_budget(std::string_view key, const std::string& value_text, const BudgetUse& use, double fit,
                        bool items) {
  const bool cells = use.kind == BudgetKind::cells;
  const std::string amount = number(use.amount), budget = number(use.budget), most = number(fit);
  std::string allowed = use.what + " = " + use.values + " = " + amount + (cells ? " cells" : "") + " is over the " +
                        (cells ? "table budget of " + budget + " cells" : "work budget of " + budget) +
                        " (docs/CONTRACT.md §3); at these settings " + std::string(key) +
                        (items ? " may hold at most " + most + " items" : " may be at most " + most);
  core::Reason reason = cells ? (items ? core::Reason{"cells_budget_items", {}, {}} : core::Reason{"cells_budget_value", {}, {}})
                               : (items ? core::Reason{"work_budget_items", {}, {}} : core::Reason{"work_budget_value", {}, {}});
  reason.args = {{"what", use.what}, {"values", use.values}, {"amount", amount}, {"max", budget}, {"fit", most}};
  throw core::InvalidParameter(std::string(key), value_text, std::move(allowed), std::move(reason));
}

void check_budget(const core::Params& params, std::string_view key, double count,
                  std::initializer_list<BudgetProduct> products) {
  const BudgetProduct* limiting = nullptr;
  double fit = count;
  for (const BudgetProduct& describe : products) {
    const BudgetUse now = describe(count);
    if (now.amount <= now.budget) continue;
    // The largest whole count that fits, by bisection (amount grows with count).
    double lo = 0, hi = std::floor(count);
    while (hi - lo > 1) {
      const double mid = std::floor((lo + hi) / 2);
      if (describe(mid).amount <= now.budget) lo = mid;
      else hi = mid;
    }
    if (!limiting || lo < fit) limiting = &describe, fit = lo;
  }
  if (!limiting) return;
  const core::ParamSpec& spec = core::param_spec(key);
  const bool items = spec.type == core::ParamType::list || spec.type == core::ParamType::vector;
  refuse_over_budget(key, shown_value(params, key), (*limiting)(count), fit, items);
}

}  // namespace poslab::app
