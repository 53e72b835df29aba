#include "app/common/sentences.hpp"

#include <algorithm>

#include "app/common/utf8.hpp"

namespace poslab::app {

namespace {

using Args = std::vector<std::pair<std::string, std::string>>;

const char* find_text(std::string_view id, std::span<const Sentence> table) {
  for (const Sentence& s : table)
    if (id == s.id) return s.text;
  return nullptr;
}

/// `r`'s arguments with its phrases ("@name" → {name}) filled in front.
Args with_phrases(const core::Reason& r, std::span<const Sentence> phrases) {
  Args args;
  for (const auto& [name, value] : r.args)
    if (!name.empty() && name[0] == '@')
      if (const char* p = find_text(value, phrases)) args.emplace_back(name.substr(1), fill_sentence(p, r.args));
  args.insert(args.end(), r.args.begin(), r.args.end());
  return args;
}

}  // namespace

std::string fill_sentence(std::string_view text, const Args& args) {
  std::string out;
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t open = text.find('{', i);
    const std::size_t close = open == std::string_view::npos ? std::string_view::npos : text.find('}', open + 1);
    if (close == std::string_view::npos) break;
    open = text.rfind('{', close);
    out.append(text, i, open - i);
    const std::string_view name = text.substr(open + 1, close - open - 1);
    const auto arg = std::find_if(args.begin(), args.end(), [&](const auto& a) { return a.first == name; });
    if (arg != args.end()) out += arg->second;
    else out.append(text, open, close + 1 - open);
    i = close + 1;
    // A value ending in a full-width mark brings its own space: "{method} 混合第"
    // with YaRN（代码） reads "YaRN（代码）混合第", not "YaRN（代码） 混合第".
    if (arg != args.end() && i < text.size() && text[i] == ' ' && utf8::ends_full_width(out)) ++i;
  }
  out.append(text, i);
  return out;
}

std::string english_sentence(const core::Reason& r, std::span<const Sentence> sentences,
                             std::span<const Sentence> phrases) {
  const char* text = find_text(r.id, sentences);
  return text ? fill_sentence(text, with_phrases(r, phrases)) : std::string();
}

std::string english_value(const core::Reason& r, std::span<const Sentence> values, std::span<const Sentence> phrases) {
  const char* text = find_text(r.value_id, values);
  return text ? fill_sentence(text, with_phrases(r, phrases)) : std::string();
}

core::Reason with_nested(core::Reason r, const core::InvalidParameter& nested) {
  r.args.emplace_back("nested_key", nested.key());
  r.args.emplace_back("nested_value", nested.value());
  r.args.emplace_back("nested_allowed", nested.allowed());
  r.args.emplace_back("nested_id", nested.reason().id);
  r.args.emplace_back("nested_value_id", nested.reason().value_id);
  for (const auto& [name, value] : nested.reason().args) r.args.emplace_back("nested:" + name, value);
  return r;
}

std::optional<core::InvalidParameter> nested_in(const core::Reason& r) {
  const auto find = [&](std::string_view name) -> std::string {
    for (const auto& [n, v] : r.args)
      if (n == name) return v;
    return {};
  };
  if (std::none_of(r.args.begin(), r.args.end(), [](const auto& a) { return a.first == "nested_key"; })) return std::nullopt;
  core::Reason inner{find("nested_id"), {}, find("nested_value_id")};
  for (const auto& [name, value] : r.args)
    if (name.starts_with("nested:")) inner.args.emplace_back(name.substr(7), value);
  return core::InvalidParameter(find("nested_key"), find("nested_value"), find("nested_allowed"), std::move(inner));
}

}  // namespace poslab::app
