#pragma once
// Text from files strangers send (a deck's captions and title, a config's
// model_type and rope_type, file names) written into a context where some
// characters mean something: escaped or replaced by context, one place each.
//
//   for_terminal  an error line, `poslab model`'s text: nothing can move the
//                 cursor, retitle or clear the terminal, forge a line, cut the
//                 message or reorder what follows it
//   for_xml       SVG text and attributes: only characters XML 1.0 allows,
//                 markup escaped, so the file is well-formed
//   for_markdown  a Markdown table cell or list item: one line, no HTML, no
//                 links or images, no code spans, no cell breaks
//
// Each takes UTF-8 (invalid bytes become U+FFFD) and returns UTF-8; text
// without anything special comes back unchanged, Chinese included.

#include <string>
#include <string_view>

namespace poslab::app {

/// For a terminal: control characters become visible escapes (\n \r \t \0
/// \e, else \xHH; C1 controls \u0085), as do the invisible characters that
/// reorder or split what is shown — bidirectional controls (U+061C,
/// U+200E/F, U+202A..E, U+2066..9) and the line and paragraph separators
/// U+2028/9 — written \u202E; invalid UTF-8 becomes U+FFFD. With
/// `keep_newlines`, '\n' stays (a block of lines the caller wrote).
std::string for_terminal(std::string_view text, bool keep_newlines = false);

/// For XML 1.0 text or an attribute value in double or single quotes:
/// & < > " ' as entities; characters XML does not allow (C0 controls but tab,
/// newline and carriage return; U+FFFE, U+FFFF) and invalid UTF-8 become U+FFFD.
std::string for_xml(std::string_view text);

/// For a Markdown table cell (CommonMark, GitHub): on one line (newlines,
/// tabs → space; other control and bidirectional characters → U+FFFD); | and
/// ` \ * [ ] escaped with a backslash, _ where it could start or end
/// emphasis; & < > as entities, so no HTML (<script>, <img onerror=…>), link,
/// image or code span survives.
std::string for_markdown(std::string_view text);

}  // namespace poslab::app
