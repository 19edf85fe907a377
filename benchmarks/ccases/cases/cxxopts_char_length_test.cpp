// cxxopts 3.0: "Fix char parsing for space and check for length": a char
// option given "ab" took its first letter before, and is an error after.
// Exit 0: the old behaviour ('a'); 1: the new one (the value does not parse);
// 125: anything else.
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include "cxxopts.hpp"

int main()
{
  try {
    cxxopts::Options options("prog", "a char option");
    options.add_options()("c,letter", "a letter", cxxopts::value<char>());
    char a0[] = "prog", a1[] = "--letter", a2[] = "ab";
    char* args[] = {a0, a1, a2, nullptr};
    char** argv = args;
    int argc = 3;
    try {
      auto result = options.parse(argc, argv);
      char c = result["letter"].as<char>();
      if (c == 'a') return 0;
      std::fprintf(stderr, "unexpected value '%c'\n", c);
      return 125;
    } catch (const cxxopts::OptionParseException& e) {
      if (std::strstr(e.what(), "ab") && std::strstr(e.what(), "failed to parse")) {
        std::fprintf(stderr, "new behaviour: %s\n", e.what());
        return 1;
      }
      std::fprintf(stderr, "unexpected parse error: %s\n", e.what());
      return 125;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "unexpected error: %s\n", e.what());
    return 125;
  }
}
