// Go text forms: strconv.Quote, %v of []string, TrimSpace, encoding/json strings, go-multierror.
// These forms are what make the admission messages byte-identical to Volcano's.
#include "host/admission/go_text.h"

#include <gtest/gtest.h>

namespace jobhost::gotext {
namespace {

TEST(GoText, QuoteEscapesLikeStrconv) {
  EXPECT_EQ(quote("plain"), "\"plain\"");
  EXPECT_EQ(quote("a\"b\\c\n\t\x01\x7f"), "\"a\\\"b\\\\c\\n\\t\\x01\\x7f\"");
  EXPECT_EQ(quote("h\xC3\xA9llo"), "\"h\xC3\xA9llo\"");        // printable UTF-8 stays
  EXPECT_EQ(quote("bad\xFF"), "\"bad\\xff\"");                    // invalid byte
  EXPECT_EQ(quote("\xC2\x85"), "\"\\u0085\"");                    // C1 control
  EXPECT_EQ(quote(""), "\"\"");
}

TEST(GoText, SliceIsSpaceSeparatedInBrackets) {
  EXPECT_EQ(slice({}), "[]");
  EXPECT_EQ(slice({"a"}), "[a]");
  EXPECT_EQ(slice({"a b", "c"}), "[a b c]");
}

TEST(GoText, TrimSpace) {
  EXPECT_EQ(trimSpace("  \n\t x y \r\v\f"), "x y");
  EXPECT_EQ(trimSpace("\xC2\xA0x\xC2\x85"), "x");
  EXPECT_EQ(trimSpace("   "), "");
  EXPECT_EQ(trimSpace("a;"), "a;");
  // unicode.IsSpace beyond Latin-1: U+1680, U+2000..U+200A, U+2028/9, U+202F, U+205F, U+3000.
  EXPECT_EQ(trimSpace("\xE3\x80\x80\xE2\x80\x83x\xE1\x9A\x80\xE2\x80\xA9\xE2\x81\x9F"), "x");
  EXPECT_EQ(trimSpace("\xE2\x80\x8Bx\xE2\x80\x8B"), "\xE2\x80\x8Bx\xE2\x80\x8B");  // zero width space is not
  EXPECT_EQ(trimSpace("\xC2 x \x85"), "\xC2 x \x85");  // bytes of broken UTF-8 are not spaces
}

TEST(GoText, JsonStringIsHtmlSafe) {
  EXPECT_EQ(jsonString("<a&b>"), "\"\\u003ca\\u0026b\\u003e\"");
  EXPECT_EQ(jsonString("q\"\\\n\x01"), "\"q\\\"\\\\\\n\\u0001\"");
  EXPECT_EQ(jsonString("\xE2\x80\xA8"), "\"\\u2028\"");
}

TEST(GoText, MultierrorListFormat) {
  EXPECT_EQ(multierror({}), "");
  EXPECT_EQ(multierror({"a"}), "1 error occurred:\n\t* a\n\n");
  EXPECT_EQ(multierror({"a", "b"}), "2 errors occurred:\n\t* a\n\t* b\n\n");
}

}  // namespace
}  // namespace jobhost::gotext
