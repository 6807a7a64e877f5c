// Runner for the tests labelled `oracle`: they read ggml's own files from
// ../shared. Without them the whole binary reports CTest's skip code rather
// than passing vacuously.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <iostream>

#include "test_paths.h"

int main(int argc, char** argv) {
  if (!vt::testing::IsListingTests(argc, argv) && !vt::testing::CorpusDir() &&
      !vt::testing::OracleGoldenFile()) {
    std::cout << "skipped: neither the corpus ($VT_CORPUS_DIR, ../shared/corpus) nor the "
                 "golden file ($VT_ORACLE_GOLDEN, ../shared/oracle) is present\n";
    return vt::testing::kSkipExitCode;
  }
  return Catch::Session().run(argc, argv);
}
