// `poslab lab run --task lm|copy|reverse [--encodings LIST] [--extension LIST] [--factor S]
//   [--seeds N] [--steps N] [--train-length L] [--eval-length M] [--layers N] [--width D]
//   [--heads H] [--batch B] [--learning-rate R] [--threads N] [--format json|csv] [--out FILE]`:
// trains the length-generalisation lab's tiny Transformers (core/lab), one per
// encoding and seed, and prints the metric at every evaluated length
// (docs/CONTRACT.md §9). Every input is checked before anything trains.

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <exception>
#include <mutex>
#include <sstream>
#include <thread>
#include <unistd.h>

#include "app/cli/cli.hpp"
#include "app/cli/commands.hpp"
#include "poslab/core/errors.hpp"
#include "poslab/core/lab/checks.hpp"
#include "poslab/core/lab/lab.hpp"
#include "poslab/core/params.hpp"

namespace poslab::app::cli {

namespace lab = core::lab;

CLI::App* add_lab_command(CLI::App& app, LabRequest& r) {
  CLI::App* sub = app.add_subcommand("lab", "train tiny Transformers short and test them long (docs/LAB.md)");
  sub->require_subcommand(1, 1);
  CLI::App* run = sub->add_subcommand("run", "train one model per encoding and seed; print the metric at every length");
  run->add_option("--task", r.task, "lm (default), copy or reverse");
  run->add_option("--encodings", r.encodings, "comma-separated: nope, learned, sinusoidal, rope, alibi, t5 (default: all six)");
  run->add_option("--extension", r.extensions,
                  "comma-separated context extensions for the RoPE model: none (default), pi, ntk, yarn, dynamic");
  run->add_option("--factor", r.factor, "the extensions' scale s, 1..1024 (default: eval length / train length)");
  run->add_option("--seeds", r.seeds, "runs per encoding, seeds 1..N, N in 1..16 (default 3)");
  run->add_option("--steps", r.steps, "training steps (default: the task's, docs/LAB.md)");
  run->add_option("--train-length", r.train_length, "L: lm tokens per sequence / copy longest input (default 32 / 8)");
  run->add_option("--eval-length", r.eval_length, "M: longest evaluated position or input length, L..8L (default 4L / 3L)");
  run->add_option("--layers", r.layers, "Transformer blocks, 1..4");
  run->add_option("--width", r.width, "model width D, a multiple of heads with an even head size");
  run->add_option("--heads", r.heads, "attention heads, 1..16");
  run->add_option("--batch", r.batch, "sequences per step, 1..256");
  run->add_option("--learning-rate", r.learning_rate, "Adam's peak learning rate, 0.00001..0.1");
  run->add_option("--threads", r.threads, "runs trained at once, 1..64 (default: one per core; results do not depend on it)");
  run->add_option("--format", r.format, "json (default) or csv");
  run->add_option("--out", r.out, "write to this file instead of standard output");
  run->add_option("--lang", r.lang, "language of error messages: en or zh (default: the system language)");
  return sub;
}

namespace {

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) {
    item.erase(0, item.find_first_not_of(' '));
    item.erase(item.find_last_not_of(' ') + 1);
    if (!item.empty() && std::find(out.begin(), out.end(), item) == out.end()) out.push_back(item);
  }
  return out;
}

struct Job {
  lab::LabConfig config;
  std::vector<lab::Extension> extensions;  ///< none for every encoding; more for rope
};

struct Result {
  double train_seconds = 0;
  double train_cpu_seconds = 0;  ///< this thread's CPU time: what the run costs on a loaded machine
  std::int64_t params = 0;
  std::vector<float> losses;
  double floor = 0;
  int untrained_from = -1;
  std::vector<lab::LabEvaluation> evaluations;
};

double thread_cpu_seconds() {
  timespec ts{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

Result run_job(const Job& job, double factor) {
  lab::LabRun run(job.config);
  Result r;
  const auto t0 = std::chrono::steady_clock::now();
  const double cpu0 = thread_cpu_seconds();
  while (!run.finished()) run.train(50);
  r.train_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.train_cpu_seconds = thread_cpu_seconds() - cpu0;
  r.params = run.parameter_count();
  r.losses = run.loss_history();
  r.floor = run.floor();
  r.untrained_from = run.untrained_positions_from();
  for (lab::Extension x : job.extensions) r.evaluations.push_back(run.evaluate(x, factor));
  return r;
}

/// The mean training loss of the last 20 steps (one step's loss is one batch's: noisy).
double final_train_loss(const std::vector<float>& losses) {
  const std::size_t n = std::min<std::size_t>(20, losses.size());
  double sum = 0;
  for (std::size_t i = losses.size() - n; i < losses.size(); ++i) sum += losses[i];
  return n ? sum / static_cast<double>(n) : 0.0;
}

/// About 100 points of the training loss curve: the mean loss of each window of `every` steps.
nlohmann::ordered_json loss_curve(const std::vector<float>& losses) {
  const std::size_t every = std::max<std::size_t>(1, (losses.size() + 99) / 100);
  nlohmann::ordered_json curve = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < losses.size(); i += every) {
    const std::size_t end = std::min(losses.size(), i + every);
    double sum = 0;
    for (std::size_t k = i; k < end; ++k) sum += losses[k];
    curve.push_back({{"step", end}, {"loss", sum / static_cast<double>(end - i)}});
  }
  return curve;
}

struct Plan {
  lab::Task task = lab::Task::lm;
  lab::LabConfig base;
  double factor = 1;
  std::vector<Job> jobs;
};

/// Every input checked, the runs listed: nothing trains yet. Raises InvalidParameter.
Plan plan(const LabRequest& r) {
  const lab::Task task = lab::parse_task(r.task);
  if (r.format != "json" && r.format != "csv") lab::refuse_choice("format", r.format, "json, csv");
  std::vector<lab::Encoding> encodings;
  for (const std::string& e : split(r.encodings)) encodings.push_back(lab::parse_encoding(e));
  if (encodings.empty()) lab::refuse_choice("encodings", r.encodings, "nope, learned, sinusoidal, rope, alibi, t5");
  std::vector<lab::Extension> extensions;
  for (const std::string& x : split(r.extensions)) extensions.push_back(lab::parse_extension(x));
  if (extensions.empty()) lab::refuse_choice("extension", r.extensions, "none, pi, ntk, yarn, dynamic");
  const bool has_rope = std::find(encodings.begin(), encodings.end(), lab::Encoding::rope) != encodings.end();
  for (lab::Extension x : extensions)
    if (x != lab::Extension::none && !has_rope)
      throw core::InvalidParameter("extension", lab::extension_name(x),
                                   "context extension rescales RoPE's frequencies: add rope to --encodings",
                                   core::Reason{"lab_extension_rope", {}, {}});
  lab::check_integer_in("seeds", r.seeds, 1, 16);
  if (r.threads) lab::check_integer_in("threads", *r.threads, 1, 64);
  lab::LabConfig base = lab::default_lab_config(task);
  if (r.steps) base.steps = *r.steps;
  if (r.train_length) {
    base.train_length = *r.train_length;
    if (!r.eval_length)  // 4L (lm) or 3L (copy), within the budget
      base.eval_length = task == lab::Task::lm ? std::min(4 * *r.train_length, 1024) : std::min(3 * *r.train_length, 256);
  }
  if (r.eval_length) base.eval_length = *r.eval_length;
  if (r.layers) base.layers = *r.layers;
  if (r.width) base.width = *r.width;
  if (r.heads) base.heads = *r.heads;
  if (r.batch) base.batch = *r.batch;
  if (r.learning_rate) base.learning_rate = *r.learning_rate;
  const double factor = r.factor ? *r.factor : static_cast<double>(base.eval_tokens()) / base.train_tokens();
  if (r.factor || extensions.size() > 1 || extensions[0] != lab::Extension::none) core::check_real("factor", factor);
  std::vector<Job> jobs;
  for (lab::Encoding e : encodings)
    for (int seed = 1; seed <= r.seeds; ++seed) {
      Job job{base, {}};
      job.config.encoding = e;
      job.config.seed = static_cast<std::uint64_t>(seed);
      job.config.check();
      if (e == lab::Encoding::rope) job.extensions = extensions;
      else job.extensions = {lab::Extension::none};
      jobs.push_back(job);
    }
  return {task, base, factor, jobs};
}

int run_lab_command(const LabRequest& r) {
  // [1] every input checked before anything trains
  const Plan p = plan(r);
  const lab::Task task = p.task;
  const lab::LabConfig& base = p.base;
  const double factor = p.factor;
  const std::vector<Job>& jobs = p.jobs;

  // [2] training: independent runs, several at once (each one's numbers do not depend on it)
  std::vector<Result> results(jobs.size());
  unsigned threads = r.threads ? static_cast<unsigned>(*r.threads) : std::max(1u, std::thread::hardware_concurrency());
  threads = std::min<unsigned>(threads, static_cast<unsigned>(jobs.size()));
  const bool progress = ::isatty(2);
  std::atomic<std::size_t> next{0}, done{0};
  std::exception_ptr failure;
  std::mutex failure_mutex;
  auto worker = [&] {
    for (std::size_t i = next++; i < jobs.size(); i = next++) {
      try {
        results[i] = run_job(jobs[i], factor);
      } catch (...) {
        const std::lock_guard<std::mutex> lock(failure_mutex);
        if (!failure) failure = std::current_exception();
        next = jobs.size();
        return;
      }
      const std::size_t finished = ++done;
      if (progress)
        std::fprintf(stderr, "poslab lab: %zu/%zu trained (%s, seed %d, %.1f s)\n", finished, jobs.size(),
                     lab::encoding_name(jobs[i].config.encoding), static_cast<int>(jobs[i].config.seed),
                     results[i].train_seconds);
    }
  };
#ifdef __EMSCRIPTEN__
  threads = 1;  // the browser's CLI build has no threads
#endif
  if (threads <= 1) {
    worker();
  } else {
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t) pool.emplace_back(worker);
    for (std::thread& t : pool) t.join();
  }
  if (failure) std::rethrow_exception(failure);

  // [3] the report
  const bool lm = task == lab::Task::lm;
  nlohmann::ordered_json out = {{"task", lab::task_name(task)},
                                {"train_length", base.train_length},
                                {"eval_length", base.eval_length},
                                {"floor", results[0].floor},
                                {"metric", lm ? "loss" : "accuracy"},
                                {"model",
                                 {{"layers", base.layers},
                                  {"width", base.width},
                                  {"heads", base.heads},
                                  {"vocab", base.shape().vocab}}},
                                {"training",
                                 {{"steps", base.steps},
                                  {"batch", base.batch},
                                  {"learning_rate", base.learning_rate},
                                  {"threads", threads}}},
                                {"runs", nlohmann::ordered_json::array()}};
  std::string csv = "task,encoding,extension,factor,seed,metric,length,value,floor,train_seconds,steps,final_train_loss,params\n";
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const Result& res = results[i];
    for (const lab::LabEvaluation& e : res.evaluations) {
      nlohmann::ordered_json by_length = nlohmann::ordered_json::array();
      for (std::size_t k = 0; k < e.lengths.size(); ++k) {
        nlohmann::ordered_json row = {{"length", e.lengths[k]}, {"value", e.values[k]}};
        if (lm) row["floor"] = e.floor[k], row["sample_floor"] = e.sample_floor[k];
        by_length.push_back(row);
        csv += std::string(lab::task_name(task)) + "," + lab::encoding_name(jobs[i].config.encoding) + "," +
               lab::extension_name(e.extension) + "," + core::format_number(e.factor) + "," +
               std::to_string(jobs[i].config.seed) + "," + (lm ? "loss" : "accuracy") + "," +
               std::to_string(e.lengths[k]) + "," + core::format_number(e.values[k]) + "," +
               core::format_number(e.floor[k]) + "," + core::format_number(res.train_seconds) + "," +
               std::to_string(res.losses.size()) + "," + core::format_number(final_train_loss(res.losses)) + "," +
               std::to_string(res.params) + "\n";
      }
      nlohmann::ordered_json run = {{"encoding", lab::encoding_name(jobs[i].config.encoding)},
                                    {"extension", lab::extension_name(e.extension)},
                                    {"factor", e.factor},
                                    {"seed", jobs[i].config.seed},
                                    {"metric", lm ? "loss" : "accuracy"},
                                    {"by_length", by_length},
                                    {"trained_value", e.trained_value},
                                    {"trained_floor", e.trained_floor},
                                    {"reached_floor", e.reached_floor},
                                    {"train_seconds", res.train_seconds},
                                    {"train_cpu_seconds", res.train_cpu_seconds},
                                    {"steps", res.losses.size()},
                                    {"final_train_loss", final_train_loss(res.losses)},
                                    {"params", res.params}};
      if (res.untrained_from >= 0) run["untrained_positions_from"] = res.untrained_from;
      run["loss_curve"] = loss_curve(res.losses);
      out["runs"].push_back(run);
    }
  }
  write_output(r.out, r.format == "json" ? out.dump(2) + "\n" : csv);
  return kExitOk;
}

}  // namespace

void check_lab_request(const LabRequest& r) { (void)plan(r); }

int run_lab(const LabRequest& r) {
  return run_in_language(r.lang, {"cli.out_of_memory_table", {{"table", "lab"}}},
                         [&](const Translator&) { return run_lab_command(r); });
}

}  // namespace poslab::app::cli
