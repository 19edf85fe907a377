// pugixml 1.10, "Behavior changes": "Tab characters (ASCII 9) in attribute
// values are now encoded as '&#9;' to survive roundtripping" (commit aac75cd,
// issue #242): a tab in an attribute value was written as it is (and a parser
// that normalizes attribute values reads it back as a space), then as "&#09;".
// The test parses a small document, sets an attribute to "a<TAB>b", prints the
// document without indentation and parses the output again.
// Exit 0: the old behaviour (the tab verbatim, read back as a space);
// 1: the new one (escaped, read back as a tab); 125: anything else.
#include <cstdio>
#include <cstring>
#include <exception>
#include <sstream>
#include <string>
#include "pugixml.hpp"

int main()
{
  try {
    pugi::xml_document doc;
    pugi::xml_parse_result parsed = doc.load_string("<root a=\"x &amp; y\"><child>t</child></root>");
    if (!parsed) {
      std::fprintf(stderr, "the document does not parse: %s\n", parsed.description());
      return 125;
    }
    pugi::xml_node root = doc.child("root");
    if (!root || std::strcmp(root.attribute("a").value(), "x & y") != 0
        || std::strcmp(root.child("child").child_value(), "t") != 0) {
      std::fprintf(stderr, "unexpected tree\n");
      return 125;
    }
    if (!root.append_attribute("v").set_value("a\tb")) {
      std::fprintf(stderr, "the attribute was not set\n");
      return 125;
    }
    if (std::strcmp(root.attribute("v").value(), "a\tb") != 0) {
      std::fprintf(stderr, "the attribute reads back as \"%s\"\n", root.attribute("v").value());
      return 125;
    }
    std::ostringstream out;
    doc.save(out, "", pugi::format_raw | pugi::format_no_declaration);
    std::string text = out.str();

    pugi::xml_document again;
    if (!again.load_string(text.c_str())) {
      std::fprintf(stderr, "the output does not parse: %s\n", text.c_str());
      return 125;
    }
    std::string value = again.child("root").attribute("v").value();
    if (std::strcmp(again.child("root").child("child").child_value(), "t") != 0
        || std::strcmp(again.child("root").attribute("a").value(), "x & y") != 0) {
      std::fprintf(stderr, "the output reads back wrong: %s\n", text.c_str());
      return 125;
    }

    const char* old_text = "<root a=\"x &amp; y\" v=\"a\tb\"><child>t</child></root>";
    const char* new_text = "<root a=\"x &amp; y\" v=\"a&#09;b\"><child>t</child></root>";
    if (text == old_text && value == "a b") return 0;
    if (text == new_text && value == "a\tb") {
      std::fprintf(stderr, "new behaviour: %s\n", text.c_str());
      return 1;
    }
    std::fprintf(stderr, "unexpected: printed %s, read back \"%s\"\n", text.c_str(), value.c_str());
    return 125;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "unexpected error: %s\n", e.what());
    return 125;
  } catch (...) {
    std::fprintf(stderr, "unexpected exception\n");
    return 125;
  }
}
