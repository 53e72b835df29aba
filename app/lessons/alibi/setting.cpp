#include "app/lessons/alibi/setting.hpp"

#include <bit>

#include "poslab/core/alibi.hpp"

namespace poslab::app::alibi {

int largest_power_of_two(int heads) { return 1 << (std::bit_width(static_cast<unsigned>(heads)) - 1); }

Setting setting(const core::Params& p) {
  Setting s{static_cast<int>(p.integer("heads")), static_cast<int>(p.integer("head")), p.boolean("causal"),
            p.integer("positions"), {}};
  s.slopes = core::alibi_slopes(s.heads);
  return s;
}

}  // namespace poslab::app::alibi
