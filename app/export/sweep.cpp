#include "app/export/sweep.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app/common/atomic_file.hpp"
#include "app/common/slider_math.hpp"
#include "poslab/core/errors.hpp"

namespace poslab::app {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void bad_sweep(std::string_view text, const std::string& why) {
  throw core::InvalidParameter("sweep", std::string(text.substr(0, 80)), why);
}

}  // namespace

void parse_sweep(std::string_view text, SweepSpec& spec) {
  const std::size_t eq = text.find('='), colon = text.find(':', eq == std::string_view::npos ? 0 : eq);
  if (eq == std::string_view::npos || colon == std::string_view::npos || eq == 0)
    bad_sweep(text, "must be KEY=FROM:TO, e.g. m=0:64");
  const std::string key(text.substr(0, eq));
  const core::ParamSpec* ps = core::find_param(key);
  if (!ps) bad_sweep(text, "\"" + key.substr(0, 40) + "\" is not a parameter (poslab list params)");
  if (!is_numeric(*ps)) bad_sweep(text, key + " is not a number: only numeric parameters can be swept");
  auto end = [&](std::string_view v) {
    const core::ParamValue value = core::parse_param_value(*ps, v);  // checked against the key's range
    return std::get<double>(value);
  };
  spec.key = key;
  spec.from = end(text.substr(eq + 1, colon - eq - 1));
  spec.to = end(text.substr(colon + 1));
}

double sweep_value(const SweepSpec& spec, int i) {
  const core::ParamSpec& ps = core::param_spec(spec.key);
  const double t = spec.frames > 1 ? static_cast<double>(i) / (spec.frames - 1) : 0.0;
  return snap(ps, interpolate(ps, spec.from, spec.to, t), false);
}

std::vector<int> sweep_order(const SweepSpec& spec) {
  std::vector<int> order;
  for (int i = 0; i < spec.frames; ++i) order.push_back(i);
  if (spec.bounce)
    for (int i = spec.frames - 2; i >= 1; --i) order.push_back(i);
  return order;
}

SweepWriter::SweepWriter(const ViewDef& view, const FigureDef& figure, core::Params params, SweepSpec spec,
                         SweepFormat format, ExportOptions options, const Translator& tr, fs::path out)
    : view_(view), figure_(figure), params_(std::move(params)), spec_(std::move(spec)), format_(format),
      options_(std::move(options)), tr_(tr), out_(std::move(out)) {
  options_.check();
  const core::ParamSpec* ps = core::find_param(spec_.key);
  if (!ps || !is_numeric(*ps)) bad_sweep(spec_.key, "choose a numeric parameter to sweep");
  if (std::find(view_.keys.begin(), view_.keys.end(), spec_.key) == view_.keys.end())
    bad_sweep(spec_.key, "view '" + std::string(view_.id) + "' does not read " + spec_.key);
  if (spec_.frames < 2 || spec_.frames > 600)
    throw core::InvalidParameter("frames", std::to_string(spec_.frames), "must be an integer in 2..600",
                                 core::Reason{"integer_in", {{"min", "2"}, {"max", "600"}}, {}});
  if (!(spec_.seconds >= 0.2 && spec_.seconds <= 120))
    throw core::InvalidParameter("seconds", core::format_number(spec_.seconds), "must be a number in 0.2..120",
                                 core::Reason{"number_in", {{"min", "0.2"}, {"max", "120"}}, {}});
  // Every distinct frame is rendered (a GIF's twice: palette, then frame):
  // the pixels of all of them within the sweep budget (docs/CONTRACT.md §1).
  const double pixels = static_cast<double>(spec_.frames) * options_.width * options_.height * options_.scale * options_.scale;
  if (pixels > kSweepPixelBudget) {
    const std::string amount = std::to_string(std::llround(pixels)), max = std::to_string(std::llround(kSweepPixelBudget));
    throw core::InvalidParameter(
        "frames × width × height × scale²",
        std::to_string(spec_.frames) + " × " + std::to_string(options_.width) + " × " + std::to_string(options_.height) +
            " × " + core::format_number(options_.scale) + "²",
        amount + " pixels is over the budget of " + max +
            " pixels per sweep (docs/CONTRACT.md §1); record fewer frames (--frames) or smaller frames",
        core::Reason{"sweep_budget", {{"amount", amount}, {"max", max}}, {}});
  }
  if (format_ == SweepFormat::gif) options_.transparent = false;  // a GIF frame is opaque: the theme's background
  order_ = sweep_order(spec_);
  encoded_.assign(static_cast<std::size_t>(spec_.frames), -2);
  std::error_code ec;
  if (format_ == SweepFormat::gif) {
    gif_ = std::make_unique<GifWriter>(out_);
  } else {
    if (fs::exists(out_, ec) && !fs::is_directory(out_, ec))
      throw IoError("cannot write frames into " + out_.string() + ": it is not a folder");
    pngs_ = std::make_unique<FileSet>(out_);
  }
}

SweepWriter::~SweepWriter() = default;

fs::path SweepWriter::png_path(int number) const {
  char suffix[32];
  std::snprintf(suffix, sizeof suffix, "-%04d.png", number);
  return out_ / (std::string(view_.id) + "-" + std::string(figure_.id) + "-" + spec_.key + suffix);
}

bool SweepWriter::render(int i, Image& image) {
  core::Params p = params_;
  try {
    p.set(spec_.key, sweep_value(spec_, i));
    const fig::Figure f = build_figure(view_, figure_, p, tr_, options_.width, options_.height);
    image = render_image(f, options_);
  } catch (const core::InvalidParameter&) {
    return false;  // a value the lesson refuses (a rule between parameters): no frame
  }
  return true;
}

int SweepWriter::total_steps() const {
  return (format_ == SweepFormat::gif ? spec_.frames : 0) + static_cast<int>(order_.size()) + 1;
}

double SweepWriter::progress() const {
  const int done = learned_ + next_ + (done_ ? 1 : 0);
  return std::clamp(static_cast<double>(done) / total_steps(), 0.0, 1.0);
}

bool SweepWriter::step() {
  if (done_) return false;
  const int delay_cs = std::max(2, static_cast<int>(std::lround(100.0 * spec_.seconds / spec_.frames)));
  Image image;
  if (format_ == SweepFormat::gif && learned_ < spec_.frames) {
    // First pass: every distinct frame feeds the shared palette.
    const int i = learned_++;
    if (render(i, image)) {
      gif_->learn(image);
      ++drawn_;
    } else {
      encoded_[static_cast<std::size_t>(i)] = -1;
    }
    return true;
  }
  if (next_ < static_cast<int>(order_.size())) {
    const int i = order_[static_cast<std::size_t>(next_++)];
    int& code = encoded_[static_cast<std::size_t>(i)];
    if (format_ == SweepFormat::gif) {
      if (code >= 0) {
        gif_->repeat_frame(code, delay_cs);  // the way back: frames already encoded
        ++written_;
      } else if (code == -2 && render(i, image)) {
        code = gif_->add_frame(image, delay_cs);
        ++written_;
      }
    } else if (code != -1 && render(i, image)) {
      pngs_->write(png_path(written_ + 1).filename().string(), encode_png(image));
      if (code == -2) ++drawn_;
      code = 0;
      ++written_;
    } else {
      code = -1;
    }
    return true;
  }
  done_ = true;
  if (written_ == 0)
    bad_sweep(spec_.key + "=" + core::format_number(spec_.from) + ":" + core::format_number(spec_.to),
              "no frame could be drawn: the lesson refused every value of the sweep");
  if (gif_) gif_->commit();
  if (pngs_) pngs_->commit();
  return false;
}

void SweepWriter::run() {
  while (step()) {
  }
}

}  // namespace poslab::app
