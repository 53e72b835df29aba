#pragma once
// Work budgets (docs/CONTRACT.md §3 "Budgets"): how much one table, figure or
// readout may compute and hold, checked from the parameters BEFORE any work
// starts, so that no accepted input makes a command run for long, grow past
// a few hundred megabytes or block the GUI. Every refusal is one
// core::InvalidParameter of the same form (the CLI's exit 2, the GUI's inline
// message), naming the key that sets the size, the product that is over, the
// budget, and how far that key may go at the other settings:
//
//   distance = 0:999999: rows × d/2 = 1000000 × 4096 = 4.096e9 is over the
//   work budget of 67108864 (docs/CONTRACT.md §3); at these settings distance
//   may hold at most 16384 items
//
// A unit of work is one RoPE pair (or one sinusoid) at one position: a sine
// and a cosine, a complex step, an exp — about 10 ns here.

#include <functional>
#include <initializer_list>
#include <string>
#include <string_view>

#include "poslab/core/params.hpp"

namespace poslab::app {

/// Cells (rows × columns) one table may hold: 2^22, a million rows of four
/// columns (about 100 MB of CSV).
inline constexpr double kTableCellBudget = 4'194'304;
/// Work units one table may take: 2^26 (rope-decay's 1,048,576 distances at
/// the default d = 128).
inline constexpr double kTableWorkBudget = 67'108'864;
/// Work units one figure or readout may take in one build: 2^21, some 10 to
/// 30 ms, so a lesson's figures and readouts rebuild within 100 ms and the
/// GUI keeps up while a slider moves.
inline constexpr double kFigureWorkBudget = 2'097'152;

enum class BudgetKind { cells, work };

/// A product of sizes against a budget: `what` names its factors in the
/// contract's symbols ("rows × d/2", "samples × d"), `values` gives them
/// ("1000000 × 4096").
struct BudgetUse {
  BudgetKind kind = BudgetKind::work;
  std::string what;
  std::string values;
  double amount = 0;
  double budget = 0;
};

/// Raises the budget refusal on `key` (its value as `value_text`): `use` is
/// over its budget; `fit` is how far the key may go at the other settings
/// (items of a list when `items`, else its value).
[[noreturn]] void refuse_over_budget(std::string_view key, const std::string& value_text, const BudgetUse& use,
                                     double fit, bool items);

/// The key's current value as a user would type it (lists as ranges, cut short).
std::string shown_value(const core::Params& params, std::string_view key);

/// A product that grows with `count` (the item count of list `key` or the
/// value of number `key`): `describe(count)` gives the BudgetUse at a count.
using BudgetProduct = std::function<BudgetUse(double count)>;

/// Checks that every product is within its budget at `count`; if one is
/// not, refuses with the one that limits `key` most (the smallest count at
/// which all fit is the "at most" of the message).
void check_budget(const core::Params& params, std::string_view key, double count,
                  std::initializer_list<BudgetProduct> products);

}  // namespace poslab::app
