#include "app/lessons/lab/setting.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <functional>
#include <list>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <system_error>
#include <thread>

#include <nlohmann/json.hpp>

#include "app/common/atomic_file.hpp"
#include "app/plot/figure_wire.hpp"

#ifdef __EMSCRIPTEN__
extern "C" void poslab_js_lab_kept(const char* path);  // app/platform/web/library_poslab.js
#endif

namespace poslab::app::lab_lesson {

cl::LabConfig Plan::config(cl::Encoding encoding, int seed) const {
  cl::LabConfig c = cl::default_lab_config(task);
  c.encoding = encoding;
  c.seed = static_cast<std::uint64_t>(seed);
  c.steps = steps;
  return c;
}

std::vector<cl::LabConfig> Plan::configs() const {
  std::vector<cl::LabConfig> out;
  for (cl::Encoding e : encodings)
    for (int seed = 1; seed <= seeds; ++seed) out.push_back(config(e, seed));
  return out;
}

Plan plan(const core::Params& p) {
  Plan out;
  out.task = cl::parse_task(p.choice("lab_task"));
  out.seeds = static_cast<int>(p.integer("lab_seeds"));
  out.steps = static_cast<int>(p.integer("lab_steps"));
  out.train = p.boolean("lab_train");
  const auto all = cl::all_encodings();
  out.encodings.assign(all.begin(), all.end());
  return out;
}

fig::Color encoding_colour(cl::Encoding e) {
  switch (e) {
    case cl::Encoding::nope: return fig::Color::rgb(0x7F7F7F);
    case cl::Encoding::learned: return fig::Color::rgb(0xE69F00);
    case cl::Encoding::sinusoidal: return fig::Color::rgb(0x56B4E9);
    case cl::Encoding::rope: return fig::Color::rgb(0x0072B2);
    case cl::Encoding::alibi: return fig::Color::rgb(0x009E73);
    case cl::Encoding::t5: return fig::Color::rgb(0xCC79A7);
  }
  return fig::Color::rgb(0x7F7F7F);
}

// ---- Trained

Trained::Trained(std::unique_ptr<cl::LabRun> run)
    : config_(run->config()),
      losses_(run->loss_history()),
      floor_(run->floor()),
      untrained_from_(run->untrained_positions_from()),
      params_(run->parameter_count()),
      run_(std::move(run)) {}

Trained::Trained(std::unique_ptr<cl::LabRun> run, std::vector<cl::LabEvaluation> readings) : Trained(std::move(run)) {
  readings_ = std::move(readings);
}

std::vector<cl::LabEvaluation> Trained::readings() const {
  const std::lock_guard lock(mutex_);
  return readings_;
}

namespace {

/// The extensions finish() reads a model of `encoding` with: none, and for
/// RoPE each of kExtensions.
std::vector<cl::Extension> finished_extensions(cl::Encoding encoding) {
  if (encoding != cl::Encoding::rope) return {cl::Extension::none};
  return {std::begin(kExtensions), std::end(kExtensions)};
}

}  // namespace

bool Trained::read_as_finished(double s) const {
  const std::lock_guard lock(mutex_);
  const std::vector<cl::Extension> wanted = finished_extensions(config_.encoding);
  return std::all_of(wanted.begin(), wanted.end(), [&](cl::Extension x) {
    const double factor = x == cl::Extension::none ? 1 : s;  // as evaluation() keys it
    return std::any_of(readings_.begin(), readings_.end(),
                       [&](const cl::LabEvaluation& e) { return e.extension == x && e.factor == factor; });
  });
}

std::vector<float> Trained::weights() const {
  const std::lock_guard lock(mutex_);
  const auto p = run_->model().parameters();
  return {p.begin(), p.end()};
}

std::string Trained::saved() const {
  const std::lock_guard lock(mutex_);
  return run_->save();
}

cl::LabEvaluation Trained::evaluation(cl::Extension extension, double s) const {
  if (extension == cl::Extension::none) s = 1;
  const std::lock_guard lock(mutex_);
  for (const cl::LabEvaluation& e : readings_)
    if (e.extension == extension && e.factor == s) return e;
  cl::LabEvaluation e = run_->evaluate(extension, s);
  e.factor = s;  // the key it is remembered by
  if (readings_.size() >= 16) readings_.erase(readings_.begin());
  readings_.push_back(e);
  return e;
}

cl::AttentionMap Trained::attention(int layer, int head, int length) const {
  const std::lock_guard lock(mutex_);
  return run_->attention_map(layer, head, length);
}

// ---- The store

bool same_model(const cl::LabConfig& a, const cl::LabConfig& b) {
  return a.task == b.task && a.encoding == b.encoding && a.seed == b.seed && a.steps == b.steps;
}

namespace {

/// The last kCapacity models trained, most recently used first (six
/// encodings × five seeds of one task, and some of another).
constexpr std::size_t kCapacity = 40;

struct Store {
  std::mutex mutex;
  std::list<TrainedPtr> models;
};

Store& store() {
  static Store s;
  return s;
}

}  // namespace

TrainedPtr find(const cl::LabConfig& config) {
  Store& s = store();
  const std::lock_guard lock(s.mutex);
  for (auto it = s.models.begin(); it != s.models.end(); ++it)
    if (same_model((*it)->config(), config)) {
      s.models.splice(s.models.begin(), s.models, it);
      return s.models.front();
    }
  return nullptr;
}

void put(const TrainedPtr& model) {
  Store& s = store();
  const std::lock_guard lock(s.mutex);
  s.models.remove_if([&](const TrainedPtr& m) { return same_model(m->config(), model->config()); });
  s.models.push_front(model);
  while (s.models.size() > kCapacity) s.models.pop_back();
}

TrainedPtr finish(std::unique_ptr<cl::LabRun> run, double s) {
  auto model = std::make_shared<const Trained>(std::move(run));
  for (cl::Extension x : finished_extensions(model->config().encoding)) (void)model->evaluation(x, s);
  put(model);
  keep_readings(*model);
  return model;
}

// ---- Models kept between sessions

namespace {

struct Folder {
  std::mutex mutex;
  std::filesystem::path dir;
};

Folder& folder() {
  static Folder f;
  return f;
}

/// The file of `config`: a hash of its text (a file of another build has the
/// same name; restore refuses it and the new model replaces it).
std::filesystem::path kept_file(const std::filesystem::path& dir, const cl::LabConfig& config) {
  char name[40];
  std::snprintf(name, sizeof name, "%016llx.model", static_cast<unsigned long long>(cl::lab_config_hash(config)));
  return dir / name;
}

/// The file of `config`'s readings, beside its model's.
std::filesystem::path readings_file(const std::filesystem::path& dir, const cl::LabConfig& config) {
  return kept_file(dir, config).replace_extension(".readings");
}

/// Larger than any model the lab's ranges allow (4 layers of width 256: ~13 MB).
constexpr std::uintmax_t kLargestKept = 64ull << 20;
/// Larger than any readings file (16 readings of a few hundred lengths: ~100 kB).
constexpr std::uintmax_t kLargestReadings = 8ull << 20;

/// What follows the run's header in a readings file.
constexpr std::string_view kReadingsMagic = "poslab-lab-readings 1\n";

/// The whole of a small file, or nullopt (none, too large, unreadable).
std::optional<std::string> read_small_file(const std::filesystem::path& file, std::uintmax_t largest) {
  std::error_code ec;
  const std::uintmax_t size = std::filesystem::file_size(file, ec);
  if (ec || size > largest || !std::filesystem::is_regular_file(file, ec)) return std::nullopt;
  std::ifstream in(file, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (!in.good() && !in.eof()) return std::nullopt;
  return bytes.str();
}

}  // namespace

void set_model_folder(const std::filesystem::path& dir) {
  const std::lock_guard lock(folder().mutex);
  folder().dir = dir;
}

std::filesystem::path model_folder() {
  const std::lock_guard lock(folder().mutex);
  return folder().dir;
}

std::unique_ptr<cl::LabRun> load_kept(const cl::LabConfig& config) {
  const std::filesystem::path dir = model_folder();
  if (dir.empty()) return nullptr;
  const std::optional<std::string> bytes = read_small_file(kept_file(dir, config), kLargestKept);
  if (!bytes) return nullptr;
  auto run = std::make_unique<cl::LabRun>(config);
  if (!run->restore(*bytes)) return nullptr;
  return run;
}

bool is_kept(const cl::LabConfig& config) {
  const std::filesystem::path dir = model_folder();
  if (dir.empty()) return false;
  const std::string header = cl::lab_saved_header(config);
  std::ifstream in(kept_file(dir, config), std::ios::binary);
  std::string head(header.size(), '\0');
  return in.read(head.data(), static_cast<std::streamsize>(head.size())) && head == header;
}

namespace {

/// Writes `saved` (LabRun::save's bytes of `config`'s model) into the model
/// folder, then removes the oldest files past kKeptModels.
void keep_saved(const cl::LabConfig& config, const std::function<std::string()>& saved) {
  const std::filesystem::path dir = model_folder();
  if (dir.empty()) return;
  try {
    std::error_code ec;
    std::filesystem::create_directory(dir, ec);  // one level: the config folder exists
    const std::filesystem::path file = kept_file(dir, config);
    write_file_atomically(file, saved());
#ifdef __EMSCRIPTEN__
    poslab_js_lab_kept(file.c_str());  // the page stores it in its IndexedDB
#endif
    std::vector<std::pair<std::filesystem::file_time_type, std::filesystem::path>> files;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
      if (entry.path().extension() == ".model" && entry.is_regular_file(ec))
        files.emplace_back(entry.last_write_time(ec), entry.path());
    if (files.size() <= static_cast<std::size_t>(kKeptModels)) return;
    std::sort(files.begin(), files.end());  // oldest first
    for (std::size_t i = 0; i + kKeptModels < files.size(); ++i) {
      std::filesystem::remove(files[i].second, ec);
      std::filesystem::remove(std::filesystem::path(files[i].second).replace_extension(".readings"), ec);
    }
  } catch (const std::exception&) {
    // a full disk or a read-only folder: the model stays in memory, and is trained again next time
  }
}

}  // namespace

void keep(const cl::LabRun& run) {
  if (run.finished()) keep_saved(run.config(), [&] { return run.save(); });
}

void keep(const Trained& model) {
  keep_saved(model.config(), [&] { return model.saved(); });
}

std::unique_ptr<cl::LabRun> start_run(const cl::LabConfig& config) {
  if (auto kept = load_kept(config)) return kept;
  return std::make_unique<cl::LabRun>(config);
}

namespace {

constexpr std::string_view kTrainedMagic = "PLT1";

/// A model's readings, every number as its IEEE bits (encode_trained and the
/// kept readings file share it).
void write_readings(fig::wire::Writer& w, const std::vector<cl::LabEvaluation>& readings) {
  w.u32(static_cast<std::uint32_t>(readings.size()));
  for (const cl::LabEvaluation& e : readings) {
    w.u8(static_cast<std::uint8_t>(e.task));
    w.u8(static_cast<std::uint8_t>(e.extension));
    w.f64(e.factor);
    w.u8(static_cast<std::uint8_t>(e.metric));
    w.u32(static_cast<std::uint32_t>(e.lengths.size()));
    for (int n : e.lengths) w.i32(n);
    w.doubles(e.values);
    w.doubles(e.floor);
    w.doubles(e.sample_floor);
    w.f64(e.trained_value);
    w.f64(e.trained_floor);
    w.boolean(e.reached_floor);
  }
}

/// … and back; raises std::runtime_error on bytes that are not readings.
std::vector<cl::LabEvaluation> read_readings(fig::wire::Reader& r, std::size_t byte_count) {
  const std::uint32_t count = r.u32();
  if (count > 64) fig::wire::Reader::fail("too many readings");
  std::vector<cl::LabEvaluation> readings(count);
  for (cl::LabEvaluation& e : readings) {
    e.task = r.enumeration(cl::Task::reverse);
    e.extension = r.enumeration(cl::Extension::dynamic);
    e.factor = r.f64();
    e.metric = r.enumeration(cl::LabEvaluation::Metric::accuracy);
    const std::uint32_t n = r.u32();
    if (n > byte_count / 4) fig::wire::Reader::fail("more lengths than bytes");
    e.lengths.resize(n);
    for (int& length : e.lengths) length = r.i32();
    e.values = r.doubles();
    e.floor = r.doubles();
    e.sample_floor = r.doubles();
    e.trained_value = r.f64();
    e.trained_floor = r.f64();
    e.reached_floor = r.boolean();
  }
  return readings;
}

}  // namespace

std::string model_request(const cl::LabConfig& config, double s, std::string_view kept) {
  const nlohmann::ordered_json j = {{"task", cl::task_name(config.task)},
                                    {"encoding", cl::encoding_name(config.encoding)},
                                    {"seed", config.seed},
                                    {"steps", config.steps},
                                    {"s", s}};
  std::string out = j.dump();  // (JSON text never holds a raw NUL)
  if (!kept.empty()) {
    out.push_back('\0');
    out.append(kept);
  }
  return out;
}

std::pair<std::string_view, std::string_view> split_model_request(std::string_view request) {
  const std::size_t nul = request.find('\0');
  if (nul == std::string_view::npos) return {request, {}};
  return {request.substr(0, nul), request.substr(nul + 1)};
}

std::string losses_note(const std::vector<float>& losses) {
  std::string out;
  out.reserve(losses.size() * 8);
  char buf[32];
  for (float x : losses) {
    const int n = std::snprintf(buf, sizeof buf, "%s%.5g", out.empty() ? "" : " ", static_cast<double>(x));
    out.append(buf, static_cast<std::size_t>(std::max(0, n)));
  }
  return out;
}

std::vector<float> parse_losses_note(std::string_view note) {
  std::vector<float> out;
  std::size_t at = 0;
  while (at < note.size()) {
    const std::size_t end = std::min(note.find(' ', at), note.size());
    const std::string word(note.substr(at, end - at));
    char* stop = nullptr;
    const float x = std::strtof(word.c_str(), &stop);
    if (word.empty() || stop != word.c_str() + word.size()) throw std::runtime_error("not a loss: \"" + word + "\"");
    out.push_back(x);
    at = end + 1;
  }
  return out;
}

std::string encode_trained(const Trained& model) {
  namespace wire = fig::wire;
  wire::Writer w;
  for (char ch : kTrainedMagic) w.u8(static_cast<std::uint8_t>(ch));
  const cl::LabConfig& c = model.config();
  w.u8(static_cast<std::uint8_t>(c.task));
  w.u8(static_cast<std::uint8_t>(c.encoding));
  w.u32(static_cast<std::uint32_t>(c.seed));
  w.u32(static_cast<std::uint32_t>(c.seed >> 32));
  w.i32(c.steps);
  w.floats(model.losses());
  w.floats(model.weights());
  write_readings(w, model.readings());
  return w.take();
}

TrainedPtr decode_trained(std::string_view bytes) {
  namespace wire = fig::wire;
  wire::Reader r(bytes);
  for (char ch : kTrainedMagic)
    if (r.u8() != static_cast<std::uint8_t>(ch)) wire::Reader::fail("not a trained model of this format");
  cl::LabConfig c = cl::default_lab_config(r.enumeration(cl::Task::reverse));
  c.encoding = r.enumeration(cl::Encoding::t5);
  c.seed = r.u32();
  c.seed |= static_cast<std::uint64_t>(r.u32()) << 32;
  c.steps = r.i32();
  std::vector<float> losses = r.floats();
  const std::vector<float> weights = r.floats();
  std::vector<cl::LabEvaluation> readings = read_readings(r, bytes.size());
  if (!r.at_end()) wire::Reader::fail("bytes left after a trained model");
  auto run = std::make_unique<cl::LabRun>(c);  // checks the config
  run->restore(weights, std::move(losses));
  return std::make_shared<const Trained>(std::move(run), std::move(readings));
}

void keep_readings(const Trained& model) {
  const std::filesystem::path dir = model_folder();
  const std::vector<cl::LabEvaluation> readings = model.readings();
  if (dir.empty() || readings.empty()) return;
  try {
    fig::wire::Writer w;
    write_readings(w, readings);
    std::string out = cl::lab_saved_header(model.config());
    out += kReadingsMagic;
    out += w.take();
    const std::uint64_t sum = cl::lab_checksum(out);
    for (int k = 0; k < 8; ++k) out.push_back(static_cast<char>((sum >> (8 * k)) & 0xff));
    std::error_code ec;
    std::filesystem::create_directory(dir, ec);
    const std::filesystem::path file = readings_file(dir, model.config());
    write_file_atomically(file, out);
#ifdef __EMSCRIPTEN__
    poslab_js_lab_kept(file.c_str());  // the page stores it beside the model
#endif
  } catch (const std::exception&) {
    // a full disk or a read-only folder: the readings are computed again next time
  }
}

TrainedPtr load_kept_read(const cl::LabConfig& config, double s) {
  const std::filesystem::path dir = model_folder();
  if (dir.empty()) return nullptr;
  const std::optional<std::string> bytes = read_small_file(readings_file(dir, config), kLargestReadings);
  const std::string head = cl::lab_saved_header(config) + std::string(kReadingsMagic);
  if (!bytes || bytes->size() < head.size() + 8 || bytes->compare(0, head.size(), head) != 0) return nullptr;
  const std::string_view body = std::string_view(*bytes).substr(0, bytes->size() - 8);
  std::uint64_t sum = 0;
  for (int k = 0; k < 8; ++k)
    sum |= static_cast<std::uint64_t>(static_cast<unsigned char>((*bytes)[body.size() + static_cast<std::size_t>(k)])) << (8 * k);
  if (sum != cl::lab_checksum(body)) return nullptr;  // damaged
  std::vector<cl::LabEvaluation> readings;
  try {
    fig::wire::Reader r(body.substr(head.size()));
    readings = read_readings(r, body.size());
    if (!r.at_end()) return nullptr;
  } catch (const std::exception&) {
    return nullptr;
  }
  for (const cl::LabEvaluation& e : readings)
    if (e.task != config.task) return nullptr;
  std::unique_ptr<cl::LabRun> run = load_kept(config);
  if (!run) return nullptr;
  auto model = std::make_shared<const Trained>(std::move(run), std::move(readings));
  if (!model->read_as_finished(s)) return nullptr;
  return model;
}

int trained_count(const Plan& plan) {
  int n = 0;
  for (const cl::LabConfig& c : plan.configs()) n += find(c) != nullptr;
  return n;
}

std::vector<TrainedPtr> trained_all(const Plan& plan, double s) {
  const std::vector<cl::LabConfig> configs = plan.configs();
  std::vector<TrainedPtr> out(configs.size());
  std::vector<std::size_t> missing;
  for (std::size_t i = 0; i < configs.size(); ++i)
    if (!(out[i] = find(configs[i]))) missing.push_back(i);
  std::atomic<std::size_t> next{0};
  std::exception_ptr failure;
  std::mutex failure_mutex;
  auto worker = [&] {
    for (std::size_t k = next++; k < missing.size(); k = next++) {
      try {
        if (TrainedPtr read = load_kept_read(configs[missing[k]], s)) {  // kept, and read before
          put(read);
          out[missing[k]] = std::move(read);
          continue;
        }
        auto run = start_run(configs[missing[k]]);
        const bool kept = run->finished();
        while (!run->finished()) run->train(100);
        if (!kept) keep(*run);
        out[missing[k]] = finish(std::move(run), s);
      } catch (...) {
        const std::lock_guard lock(failure_mutex);
        if (!failure) failure = std::current_exception();
        next = missing.size();
      }
    }
  };
#ifdef __EMSCRIPTEN__
  worker();  // the browser build has no threads
#else
  const unsigned threads =
      std::min<unsigned>(std::max(1u, std::thread::hardware_concurrency()), static_cast<unsigned>(missing.size()));
  if (threads <= 1) {
    worker();
  } else {
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t) pool.emplace_back(worker);
    for (std::thread& t : pool) t.join();
  }
#endif
  if (failure) std::rethrow_exception(failure);
  return out;
}

}  // namespace poslab::app::lab_lesson
