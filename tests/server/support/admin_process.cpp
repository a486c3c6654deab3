#include "tests/server/support/admin_process.h"

#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>
#include <Poco/Pipe.h>
#include <Poco/PipeStream.h>
#include <Poco/Process.h>
#include <Poco/StreamCopier.h>

#include <sstream>
#include <thread>

namespace codepayload::server::testing {

AdminResult runAdmin(const std::filesystem::path& dataDir, const std::vector<std::string>& arguments) {
  Poco::Pipe outPipe;
  Poco::Pipe errPipe;
  Poco::Process::Env environment;
  environment["CODEPAYLOAD_DATA_DIR"] = dataDir.string();
  Poco::ProcessHandle process =
      Poco::Process::launch(CODEPAYLOAD_ADMIN_EXECUTABLE, arguments, ".", nullptr, &outPipe, &errPipe, environment);
  AdminResult result;
  std::thread errReader([&] {
    Poco::PipeInputStream err(errPipe);
    std::ostringstream text;
    Poco::StreamCopier::copyStream(err, text);
    result.err = text.str();
  });
  Poco::PipeInputStream out(outPipe);
  std::ostringstream text;
  Poco::StreamCopier::copyStream(out, text);
  result.out = text.str();
  errReader.join();
  result.exitCode = process.wait();
  return result;
}

std::string registryLine(const std::filesystem::path& dataDir) {
  return "codepayload-admin: registry " +
         std::filesystem::absolute(dataDir / "registry.db").lexically_normal().string() + "\n";
}

std::string jsonMember(const std::string& json, const std::string& name) {
  Poco::JSON::Parser parser;
  return parser.parse(json).extract<Poco::JSON::Object::Ptr>()->getValue<std::string>(name);
}

}  // namespace codepayload::server::testing
