// codepayload_scratch_postgresql: the tests' scratch PostgreSQL 15
// (scratch_postgresql.h) for the tests that are scripts, such as the
// dashboard's browser tests: starts a cluster with one empty database, writes
// the database's postgresql:// URL (password included) to URL_FILE, mode 0600,
// and keeps the cluster until SIGTERM or SIGINT, then stops and removes it.
//   codepayload_scratch_postgresql DATABASE URL_FILE
#include <signal.h>
#include <sys/stat.h>

#include <exception>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <string>

#include "tests/support/scratch_postgresql.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: codepayload_scratch_postgresql DATABASE URL_FILE\n";
    return 2;
  }
  sigset_t stopSignals;
  sigemptyset(&stopSignals);
  sigaddset(&stopSignals, SIGTERM);
  sigaddset(&stopSignals, SIGINT);
  sigprocmask(SIG_BLOCK, &stopSignals, nullptr);
  try {
    codepayload::testing::ScratchPostgresql cluster;
    cluster.createDatabase(argv[1]);
    const std::string temporary = std::string(argv[2]) + ".tmp";
    {
      std::ofstream out(temporary);
      out << "postgresql://" << cluster.user() << ":" << cluster.password() << "@127.0.0.1:" << cluster.port() << "/"
          << argv[1] << "\n";
    }
    ::chmod(temporary.c_str(), 0600);
    if (std::rename(temporary.c_str(), argv[2]) != 0) throw std::runtime_error("cannot write " + std::string(argv[2]));
    int signal = 0;
    sigwait(&stopSignals, &signal);
  } catch (const std::exception& error) {
    std::cerr << "codepayload_scratch_postgresql: " << error.what() << "\n";
    return 1;
  }
  return 0;
}
