// tinyxml2 5.0.0 (pull requests #469 "Bool true/false rather than 0/1" and
// #513 "Bool serialization"): an attribute set from a bool was written "1",
// then "true". The test parses a small document, sets a bool attribute on its
// root element and prints the document.
// Exit 0: the old behaviour ("1"); 1: the new one ("true"); 125: anything else.
#include <cstdio>
#include <cstring>
#include "tinyxml2.h"

using namespace tinyxml2;

int main()
{
  XMLDocument doc;
  if (doc.Parse("<root a=\"x\"><child/></root>") != XML_SUCCESS) {
    std::fprintf(stderr, "the document does not parse\n");
    return 125;
  }
  XMLElement* root = doc.RootElement();
  if (!root || std::strcmp(root->Name(), "root") != 0 || !root->FirstChildElement("child")) {
    std::fprintf(stderr, "unexpected tree\n");
    return 125;
  }
  root->SetAttribute("flag", true);
  const char* value = root->Attribute("flag");
  if (!value) {
    std::fprintf(stderr, "the attribute was not set\n");
    return 125;
  }
  XMLPrinter printer(0, true);
  doc.Print(&printer);
  const char* old_text = "<root a=\"x\" flag=\"1\"><child/></root>";
  const char* new_text = "<root a=\"x\" flag=\"true\"><child/></root>";
  if (std::strcmp(value, "1") == 0 && std::strcmp(printer.CStr(), old_text) == 0) return 0;
  if (std::strcmp(value, "true") == 0 && std::strcmp(printer.CStr(), new_text) == 0) {
    std::fprintf(stderr, "new behaviour: flag=\"%s\"\n", value);
    return 1;
  }
  std::fprintf(stderr, "unexpected: flag=\"%s\", printed %s\n", value, printer.CStr());
  return 125;
}
