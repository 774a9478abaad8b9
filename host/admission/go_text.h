// Go's text forms that Volcano's admission messages are made of: strconv.Quote, %v of a string
// slice, strings.TrimSpace, encoding/json strings, and go-multierror's list format.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace jobhost::gotext {

/// strconv.Quote: double-quoted, with Go escapes for quotes, backslashes, control characters and
/// invalid UTF-8 bytes.
std::string quote(std::string_view s);

/// fmt "%v" of a []string: "[a b c]".
std::string slice(const std::vector<std::string>& items);

/// strings.TrimSpace (ASCII whitespace, NEL and NBSP).
std::string_view trimSpace(std::string_view s);

/// encoding/json string literal, HTML-safe as json.Marshal writes it (<, >, & as \u003c etc.).
std::string jsonString(std::string_view s);

/// github.com/hashicorp/go-multierror ListFormatFunc:
/// "1 error occurred:\n\t* a\n\n" or "N errors occurred:\n\t* a\n\t* b\n\n".
std::string multierror(const std::vector<std::string>& errors);

}  // namespace jobhost::gotext
